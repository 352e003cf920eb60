// Opening a pattern database, in named steps: the directory looked at
// (db_directory.h), the column families checked (and what a creation
// killed after RocksDB's CURRENT left cleared), RocksDB opened as the
// writer or as a reader, the key scheme read (or written, when creating)
// with its format version accepted in one place, the meta values loaded, a
// reader caught up with the writer, and the counts and games checked
// against what the meta data records.  Closing too (the destructor).
#include <rocksdb/db.h>
#include <rocksdb/table_properties.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "core/format_version.h"
#include "store/count_entry.h"
#include "store/db_directory.h"
#include "store/diary_logger.h"
#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"
#include "store/scratch_dirs.h"
#include "store/wal_check.h"

namespace sgfpat {

// What Open()'s steps pass on to each other.
struct PatternDb::Opening {
  Opening(const std::string& p, const OpenOptions& o) : path(p), options(o), tuned(tuned_options(o)) {}
  const std::string& path;
  const OpenOptions& options;
  TunedOptions tuned;
  std::vector<std::string> names;  // the database's families, as RocksDB lists them (not when creating)
  bool creating = false;           // the database is made by this open
  bool may_create() const { return options.create_if_missing && !options.secondary; }
};

namespace {

// The meta "scheme" value: the database format version, the key scheme and
// the threshold, as "format=1 seed=... levels=... symmetry=0|1 min_played=...".
std::string encode_scheme(const DbSettings& s) {
  std::ostringstream o;
  o << "format=" << kDatabaseFormat.current << " seed=" << s.scheme.seed << " levels=" << s.scheme.levels
    << " symmetry=" << (s.scheme.symmetry ? 1 : 0) << " min_played=" << s.min_played;
  return o.str();
}
// The format version alone: read first, so that a later format whose other
// fields differ is refused as such, not reported as damage.
bool scheme_format(const std::string& text, uint32_t* format) {
  std::istringstream in(text);
  std::string tok;
  while (in >> tok) {
    if (tok.rfind("format=", 0) != 0) continue;
    const std::string_view v = std::string_view(tok).substr(7);
    auto [ptr, err] = std::from_chars(v.data(), v.data() + v.size(), *format);
    return !v.empty() && err == std::errc() && ptr == v.data() + v.size();
  }
  return false;
}
// The settings of a scheme value of this format version.
bool decode_settings(const std::string& text, DbSettings* s) {
  std::istringstream in(text);
  std::string tok;
  int got = 0;
  while (in >> tok) {
    auto eq = tok.find('=');
    if (eq == std::string::npos) return false;
    std::string k = tok.substr(0, eq), v = tok.substr(eq + 1);
    try {
      if (k == "format") ++got;  // scheme_format()'s
      else if (k == "seed") s->scheme.seed = std::stoull(v), ++got;
      else if (k == "levels") s->scheme.levels = std::stoi(v), ++got;
      else if (k == "symmetry") s->scheme.symmetry = v == "1", ++got;
      else if (k == "min_played") s->min_played = std::stoi(v), ++got;
    } catch (...) {
      return false;
    }
  }
  return got == 5;
}

// Whether not one of `cfs` holds an entry (an unreadable one: the error).
rocksdb::Status holds_no_entry(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs, bool* empty) {
  *empty = false;
  for (rocksdb::ColumnFamilyHandle* cf : cfs) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), cf));
    it->SeekToFirst();
    // (The key scheme's copy is written with the key scheme: left alone,
    // it is not an entry of a database.)
    while (it->Valid() && it->key() == rocksdb::Slice(kSchemeCopyKey)) it->Next();
    if (!it->status().ok()) return it->status();
    if (it->Valid()) return rocksdb::Status::OK();
  }
  *empty = true;
  return rocksdb::Status::OK();
}

// True when `names` are exactly sgfpat's families: each one of them, and
// every required one there.
bool sgfpat_families(const std::vector<std::string>& names) {
  size_t required = 0;
  for (const std::string& n : names) {
    const std::optional<Family> f = family_named(n);
    if (!f) return false;
    required += kFamilies[size_t(*f)].required;
  }
  return required == size_t(std::count_if(kFamilies.begin(), kFamilies.end(), [](const FamilyName& f) {
           return f.required;
         }));
}

// True when the database at `path` (column families `names`) has only some
// of sgfpat's column families and not one entry in them: what a creation
// killed between RocksDB's CURRENT and its last column family leaves.
bool interrupted_creation(const std::string& path, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (!family_named(n)) return false;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const auto& n : names) cfs.push_back({n, {}});
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  // As strict as the writer: a damaged log must fail the open, not end its
  // replay early and make the database look empty.
  rocksdb::DBOptions strict;
  strict.paranoid_checks = true;
  strict.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  if (!rocksdb::DB::OpenForReadOnly(strict, path, cfs, &handles, &raw).ok()) return false;
  std::unique_ptr<rocksdb::DB> db(raw);
  bool empty = false;
  const bool readable = holds_no_entry(*db, handles, &empty).ok();
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  return readable && empty;
}

// Whether the database's column families are no longer `opened` (a reader
// lists them, then opens those): a writer made one in between, which a
// reader's catch-up then finds in the MANIFEST and reports as Corruption.
bool column_families_changed(const rocksdb::DBOptions& opts, const std::string& path,
                             std::vector<std::string> opened) {
  std::vector<std::string> now;
  if (!rocksdb::DB::ListColumnFamilies(opts, path, &now).ok()) return false;
  std::sort(opened.begin(), opened.end());
  std::sort(now.begin(), now.end());
  return now != opened;
}

// The content of the database's CURRENT file ("" when unreadable).
std::string manifest_named_by_current(const std::string& path) {
  std::ifstream in(path + "/CURRENT", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

Status changed_while_opened(const std::string& path) {
  return Status::Busy("database " + path +
                      " changed its column families while this reader opened it (another process is creating or "
                      "upgrading it); try again");
}

}  // namespace

Status PatternDb::check_column_families(Opening* o) {
  const std::string& path = o->path;
  rocksdb::Status ls = rocksdb::DB::ListColumnFamilies(o->tuned.db, path, &o->names);
  if (!ls.ok()) {
    // CURRENT is there (check_database_dir()): the MANIFEST it names lost
    // is damage, not a failing disk.
    std::string manifest = manifest_named_by_current(path);
    while (!manifest.empty() && (manifest.back() == '\n' || manifest.back() == '\r')) manifest.pop_back();
    std::error_code ec;
    if (!ls.IsNoSpace() && (manifest.empty() || !std::filesystem::exists(path + "/" + manifest, ec)))
      return Status::Corruption("cannot open database " + path + ": the MANIFEST its CURRENT file names (" +
                                (manifest.empty() ? std::string("unreadable") : manifest) + ") is missing (" +
                                repair_hint(path) + "): " + ls.ToString());
    return from_rocks(ls, "cannot open database " + path + " (" + repair_hint(path) + ")");
  }
  bool ours = sgfpat_families(o->names);
  if (!ours) {
    // RocksDB makes the column families one by one once CURRENT is
    // written: a kill in between leaves some of them, all empty, and so
    // does a creation still going on.  The lock tells the two apart; a
    // creation may also finish between the listing and the look.
    const bool partial = interrupted_creation(path, o->names);
    if (locked_by_another_process(path) && (partial || column_families_changed(o->tuned.db, path, o->names)))
      return being_created(path);
    if (partial && o->may_create()) {
      rocksdb::Status d = rocksdb::DestroyDB(path, rocksdb::Options());
      if (!d.ok()) return from_rocks(d, "clearing the interrupted creation of " + path);
      Status where = check_database_dir(path, true, &o->creating);
      if (!where.ok()) return where;
      o->names.clear();
      ours = true;
    }
  }
  if (!ours) {
    std::string list;
    for (const auto& n : o->names) list += (list.empty() ? "" : ", ") + n;
    return Status::Corruption("database " + path + " was not made by sgfpat (its column families are " + list +
                              "); nothing was changed. Give --db a new or empty directory");
  }
  return Status::OK();
}

bool PatternDb::InUse(const std::string& path) { return locked_by_another_process(path); }

PatternDb::~PatternDb() {
  if (db_) {
    for (auto* h : cf_)
      if (h) db_->DestroyColumnFamilyHandle(h);
    db_->Close();
    db_.reset();
  }
  if (!secondary_path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(secondary_path_, ec);
  }
}

Status PatternDb::Open(const std::string& path, const OpenOptions& options, std::unique_ptr<PatternDb>* out) {
  // A reader reads CURRENT, then the MANIFEST it names (to list the
  // families, then to open them); a writer starting meanwhile writes a new
  // MANIFEST, points CURRENT to it and deletes the old one, which the
  // reader then finds missing (1 open in ~600 while ingests ran back to
  // back).  A reader's open that fails while CURRENT changed under it is
  // made again, a bounded number of times; damage leaves CURRENT as it was
  // and is reported at once.  A reader's Busy (a commit seen half, from
  // check_counts_present(); a database being created or upgraded) is made
  // again too, a little later each time: a fresh reader replays the
  // writer's newer log.
  constexpr int kReaderAttempts = 10;
  for (int attempt = 1;; ++attempt) {
    const std::string current = options.secondary ? manifest_named_by_current(path) : std::string();
    Status st = open_once(path, options, out);
    if (st.ok() || !options.secondary || attempt == kReaderAttempts) return st;
    if (st.is_busy())
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * attempt));
    else if (manifest_named_by_current(path) == current)
      return st;
  }
}

Status PatternDb::open_once(const std::string& path, const OpenOptions& options, std::unique_ptr<PatternDb>* out) {
  std::unique_ptr<PatternDb> db(new PatternDb());
  db->path_ = path;
  db->secondary_ = options.secondary;
  db->set_position_run_bytes(options.position_run_bytes);
  db->write_threads_ = std::max(1, options.write_threads);
  Opening o(path, options);
  Status st = check_database_dir(path, o.may_create(), &o.creating);
  if (st.ok() && !o.creating) st = check_column_families(&o);
  if (st.ok()) st = db->open_files(&o);
  if (st.ok()) st = db->read_scheme(&o);
  if (st.ok()) st = db->load_meta();
  if (st.ok() && options.secondary) st = db->catch_up(o);
  if (st.ok() && !options.skip_counts_check) {
    // A reader's catch-up reads the MANIFEST, then the logs: it may see a
    // record (the generation switch, a run of the index) before the table
    // files it describes, the newer ones being in a MANIFEST a writer
    // opened since.  Caught up again, a writer's files show; damage stays.
    for (int i = 0;; ++i) {
      Status have = db->check_counts_present();
      if (have.ok()) have = db->check_games_present();
      if (have.ok()) have = db->check_positions_present();
      if (have.ok()) have = db->check_pending_present();
      if (have.ok() || !options.secondary || i == 19) {
        st = have;
        break;
      }
      rocksdb::Status s = db->db_->TryCatchUpWithPrimary();
      st = s.ok() ? db->load_meta() : from_rocks(s, "catching up with the writer");
      if (!st.ok()) break;
    }
  }
  if (!st.ok()) return st;
  *out = std::move(db);
  return Status::OK();
}

Status PatternDb::open_files(Opening* o) {
  const std::string& path = o->path;
  rocksdb::DBOptions opts = o->tuned.db;
  opts.create_if_missing = o->creating;
  opts.create_missing_column_families = !secondary_;
  // "pending" (incremental counting) and "positions" (the position index)
  // came later: a writer adds them to an older database (the upgrade of
  // format 1 databases made before them), a reader opens what is there.
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const FamilyName& f : kFamilies) {
    const bool present = std::find(o->names.begin(), o->names.end(), f.name) != o->names.end();
    if (f.required || !secondary_ || present)
      cfs.push_back({std::string(f.name), o->tuned.family[size_t(f.family)]});
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  Status adopted;
  if (secondary_) {
    std::error_code ec;
    const std::filesystem::path temp = std::filesystem::temp_directory_path(ec);
    if (ec) return Status::IOError("no temp folder for a database reader: " + ec.message());
    remove_stale_reader_dirs(temp);
    secondary_path_ = reader_scratch_path(temp, this).string();
    Status logs = check_log_record_types(path);
    if (!logs.ok()) return logs.is_corruption() ? Status::Corruption("database " + path + ": " + logs.message()) : logs;
    s = rocksdb::DB::OpenAsSecondary(opts, path, secondary_path_, cfs, &handles, &raw);
    if (s.ok()) {
      db_.reset(raw);
      adopted = adopt_handles(handles);
      s = raw->TryCatchUpWithPrimary();
      if (s.IsCorruption() && column_families_changed(opts, path, o->names)) return changed_while_opened(path);
    }
  } else {
    std::error_code ec;
    if (o->creating) std::filesystem::create_directories(path, ec);
    opts.info_log = open_diary_logger(path);
    s = rocksdb::DB::Open(opts, path, cfs, &handles, &raw);
    if (s.ok()) {
      db_.reset(raw);
      adopted = adopt_handles(handles);
    }
  }
  if (!s.ok()) {
    if (!secondary_ && s.IsIOError() && !s.IsNoSpace() && locked_by_another_process(path))
      return Status::Busy("database " + path + " is in use by another writer (" + s.ToString() + ")");
    // A file missing or damaged: RocksDB says which; the way out is ours.
    // CURRENT is there (checked above): a file it leads to that is missing
    // is damage, not "no database".
    if (s.IsCorruption() || s.IsPathNotFound() || s.IsNotFound())
      return Status::Corruption("cannot open database " + path + " (" + repair_hint(path) + "): " + s.ToString());
    return from_rocks(s, "cannot open database " + path);
  }
  return adopted;
}

Status PatternDb::adopt_handles(const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  Status st;
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    const std::optional<Family> f = family_named(h->GetName());
    if (f && !cf_[size_t(*f)]) {
      cf_[size_t(*f)] = h;
      continue;
    }
    // Only sgfpat's families are asked for, each once.
    if (st.ok())
      st = Status::Internal("database " + path_ + ": RocksDB returned an unexpected column family " + h->GetName());
    db_->DestroyColumnFamilyHandle(h);
  }
  for (const FamilyName& f : kFamilies)
    if (f.required && !cf_[size_t(f.family)] && st.ok())
      st = Status::Internal("database " + path_ + ": RocksDB returned no column family " + std::string(f.name));
  return st;
}

Status PatternDb::read_scheme(Opening* o) {
  const std::string& path = o->path;
  const OpenOptions& options = o->options;
  std::string recorded;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kScheme, &recorded);
  if (s.IsNotFound() && !o->creating) {
    // No key scheme in an existing database.  A creation killed between
    // RocksDB making its files and the key scheme's write (its first) holds
    // no entry at all: a writer asked to create makes it again, and a
    // reader whose creator still holds the lock is told to wait (only a
    // reader probes the lock: a writer holds it itself, and closing the
    // probe's descriptor would release it, fcntl locks being per process).
    // A database that lost only its meta data still holds games or counts,
    // and is reported.
    const bool remake = o->may_create();
    if (remake || (secondary_ && locked_by_another_process(path))) {
      std::vector<rocksdb::ColumnFamilyHandle*> all;
      for (auto* h : cf_)
        if (h) all.push_back(h);
      bool empty = false;
      const rocksdb::Status e = holds_no_entry(*db_, all, &empty);
      if (remake) {
        if (!e.ok()) return from_rocks(e, "reading database " + path);
        o->creating = empty;
      } else if (e.ok() && empty) {
        return being_created(path);
      }
    }
  }
  if (s.IsNotFound()) {
    if (secondary_ || !o->creating)
      return Status::Corruption("database " + path + " has no key scheme: its meta data is lost or it was not made by sgfpat; nothing was changed (" + repair_hint(path) + ")");
    settings_ = options.settings;
    // A new database's (empty) position index is complete.
    rocksdb::WriteBatch init;
    init.Put(cf(Family::kMeta), meta::kScheme, encode_scheme(options.settings));
    init.Put(cf(Family::kGames), kSchemeCopyKey, encode_scheme(options.settings));
    init.Put(cf(Family::kMeta), meta::kPositionIndex, "0");
    s = db_->Write(rocksdb::WriteOptions(), &init);
    if (!s.ok()) return from_rocks(s, "writing the key scheme");
    return Status::OK();
  }
  if (!s.ok()) return from_rocks(s, "reading the key scheme");
  uint32_t format = 0;
  if (!scheme_format(recorded, &format))
    return Status::Corruption("database " + path + " has an unreadable key scheme: '" + recorded + "'");
  Status st = accept_format(format, *o);
  if (!st.ok()) return st;
  if (!decode_settings(recorded, &settings_))
    return Status::Corruption("database " + path + " has an unreadable key scheme: '" + recorded + "'");
  if (!secondary_) {
    // Databases made before the copy get it from their first writer.
    std::string copy;
    s = db_->Get(rocksdb::ReadOptions(), cf(Family::kGames), kSchemeCopyKey, &copy);
    if (s.IsNotFound()) s = db_->Put(rocksdb::WriteOptions(), cf(Family::kGames), kSchemeCopyKey, recorded);
    if (!s.ok()) return from_rocks(s, "copying the key scheme of database " + path + " to its games");
  }
  if (options.check_settings && !(settings_ == options.settings))
    return Status::InvalidArgument("database " + path + " was created with " + settings_.scheme.describe() +
                                   " min_played=" + std::to_string(settings_.min_played) +
                                   "; this run asks for " + options.settings.scheme.describe() + " min_played=" +
                                   std::to_string(options.settings.min_played) +
                                   ". Keys of different schemes cannot be mixed: use another --db or the database's settings.");
  return Status::OK();
}

Status PatternDb::accept_format(uint32_t found, const Opening& o) {
  // Accepted: kDatabaseFormat.oldest to .current; refused otherwise
  // (NotSupported naming both versions: nothing is read or written).
  Status st = check_format_version(kDatabaseFormat, found, "database " + o.path);
  if (!st.ok()) return st;
  // Upgrades.  Every version this program reads is format 1, so no version
  // is rewritten here yet; an older version read again would be upgraded
  // by a writer right here, before any other step reads the database.
  // Within format 1 a writer completes, in place, what databases made
  // before these parts lack:
  //  - the families "pending" and "positions" (made by open_files());
  //  - the count summary stored as JSON, before the summary record had
  //    its form (count_summary.h): rewritten in the current form, so that
  //    only readers ever meet the JSON.
  if (secondary_) return Status::OK();
  std::string summary;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kSummary, &summary);
  if (s.IsNotFound() || (s.ok() && !is_legacy_summary(summary))) return Status::OK();
  if (!s.ok()) return from_rocks(s, "reading the stored summary");
  CountSummary decoded;
  st = decode_summary(summary, &decoded);
  if (!st.ok()) return st.with_context("database " + o.path);
  return from_rocks(db_->Put(rocksdb::WriteOptions(), cf(Family::kMeta), meta::kSummary, encode_summary(decoded)),
                    "upgrading the stored summary of database " + o.path);
}

Status PatternDb::load_meta() {
  // A missing value is a database that has none yet (0); a damaged one is
  // reported, never read as 0.
  auto number = [&](const char* name, uint64_t* out) -> Status {
    std::string v;
    auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), name, &v);
    *out = 0;
    if (s.IsNotFound()) return Status::OK();
    if (!s.ok()) return from_rocks(s, std::string("reading the stored ") + name);
    return parse_meta_u64(path_, name, v, out);
  };
  uint64_t generation = 0;
  Status st = number(meta::kGames, &game_count_);
  if (st.ok()) st = number(meta::kMoves, &move_count_);
  if (st.ok()) st = number(meta::kGeneration, &generation);
  if (!st.ok()) return st;
  if (generation > UINT32_MAX)
    return Status::Corruption("database " + path_ + ": stored generation " + std::to_string(generation) +
                              " is out of range");
  generation_ = uint32_t(generation);
  uint64_t frontier = 0;
  st = number(meta::kFrontier, &frontier);
  if (!st.ok()) return st;
  frontier_generation_ = uint32_t(std::min<uint64_t>(frontier, UINT32_MAX));
  std::string v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kSummary, &v);
  if (!s.ok() && !s.IsNotFound()) return from_rocks(s, "reading the stored summary");
  if (!s.ok()) v.clear();
  st = decode_summary(v, &summary_);
  if (!st.ok()) return st.with_context("database " + path_);
  s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kSketch, &v);
  sketch_file_ = s.ok() ? v : "";
  // No "position_index" value: an index never completed (or a database
  // made before it existed).
  s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kPositionIndex, &v);
  if (!s.ok() && !s.IsNotFound()) return from_rocks(s, "reading the stored position_index");
  index_off_ = s.ok() && v == "off";
  std::string entries;
  auto e = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kPositionEntries, &entries);
  if (!e.ok() && !e.IsNotFound()) return from_rocks(e, "reading the stored position_entries");
  // An index recorded complete over no game (a new database's) holds none.
  position_entries_known_ = e.ok() || (s.ok() && v == "0");
  position_entries_ = 0;
  if (e.ok()) {
    Status pe = parse_meta_u64(path_, meta::kPositionEntries, entries, &position_entries_);
    if (!pe.ok()) return pe;
  }
  indexed_games_ = ~uint64_t(0);
  if (s.ok() && !index_off_) return parse_meta_u64(path_, meta::kPositionIndex, v, &indexed_games_);
  return Status::OK();
}

Status PatternDb::catch_up(const Opening& o) {
  // Counts reach a secondary through the MANIFEST (they are flushed, not
  // logged) and the generation switch through the WAL, which a catch-up
  // reads second: a switch seen in the WAL may belong to a flush this
  // catch-up missed.  Catching up again until the generation holds still
  // gives a view where the current generation's counts are all present.
  for (int i = 0; i < 100; ++i) {
    const uint32_t gen = generation_;
    rocksdb::Status s = db_->TryCatchUpWithPrimary();
    if (s.IsCorruption() && column_families_changed(o.tuned.db, o.path, o.names)) return changed_while_opened(o.path);
    if (!s.ok()) return from_rocks(s, "catching up with the writer");
    Status st = load_meta();
    if (!st.ok()) return st;
    if (generation_ == gen) break;
  }
  return Status::OK();
}

Status PatternDb::check_counts_present() {
  // The table files of the counts hold at least every reported pattern of
  // the current generation.
  const std::vector<uint64_t> expected = reported_per_level();
  uint64_t want = 0;
  for (uint64_t n : expected) want += n;
  if (generation_ == 0 || want == 0) return Status::OK();
  // Only the tables that hold keys of this generation: the leftovers of a
  // killed count (another generation, in their own files until the next
  // count drops them) must not stand in for lost ones.
  // (A range's limit is inclusive here: the generation's last possible key.)
  const std::string begin = counts_key(generation_, 0, 0), end = counts_key(generation_, 255, ~uint64_t(0));
  const rocksdb::Range range(begin, end);
  Status present = check_entries(
      cf(Family::kCounts), want, "the counts'",
      [&](uint64_t have) {
        return "its counts hold " + std::to_string(have) + " entries but the last count reported " +
               std::to_string(want) + " patterns";
      },
      &range, true);
  if (!present.ok()) return present;
  // Every night and catch-up since the generation's count left its mark in
  // the file of its counts (PatternDb::commit_night()), in the same commit
  // as the summary that counts them: fewer marks, a night's file is lost;
  // more, a reader sees the counts of a later commit than its summary's (a
  // secondary instance may answer a key from the log it replayed before the
  // files taken in after it: the open catches up again).
  {
    uint64_t nights = 0, catchups = 0;
    rocksdb::ReadOptions ro;
    const std::string lo = counts_key(generation_, 0, 0), hi = counts_key(generation_, 1, 0);
    const rocksdb::Slice upper(hi);
    ro.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kCounts)));
    for (it->Seek(lo); it->Valid(); it->Next()) {
      int level = 0;
      uint64_t key = 0;
      if (it->key().size() == kCountsKeyBytes) parse_counts_key(it->key(), &level, &key);
      ++((key & kCatchupMark) ? catchups : nights);
    }
    if (!it->status().ok()) return from_rocks(it->status(), "reading the nights' marks");
    // More marks than the summary counts, in a reader: the summary it read
    // is an older commit's.  A secondary's memtable, replayed from the log,
    // can hold the summary that the writer logged after its last commit
    // and then flushed, and answer with it before the table file of the
    // commit that followed (seen once, in test_ingest_crash's readers beside
    // nights and catch-ups); catching up again did not drop it, a fresh
    // reader does not have it (PatternDb::Open() opens again).
    if (secondary_ && nights >= summary_.nights && catchups >= summary_.catchups &&
        (nights > summary_.nights || catchups > summary_.catchups))
      return Status::Busy("database " + path_ + ": a writer's commit is under way (its counts hold the marks of " +
                          std::to_string(nights) + " nights and " + std::to_string(catchups) +
                          " catch-ups, its summary counts " + std::to_string(summary_.nights) + " and " +
                          std::to_string(summary_.catchups) + "); try again");
    if (nights != summary_.nights || catchups != summary_.catchups)
      return Status::Corruption("database " + path_ + ": the counts hold the marks of " + std::to_string(nights) +
                                " nights and " + std::to_string(catchups) + " catch-ups but the summary counts " +
                                std::to_string(summary_.nights) + " and " + std::to_string(summary_.catchups) +
                                ": a night's table file is missing or damaged (" + repair_hint(path_) + ")");
  }
  // Level 1 (a few dozen patterns) is read, not only counted: a reader may
  // take the generation switch from a newer writer's log while its view of
  // the table files is still the older MANIFEST's, whose properties answer
  // for files it cannot read.
  if (expected.empty()) return Status::OK();
  uint64_t level1 = 0;
  Status st = scan_counts(generation_, 1, [&](int, uint64_t, const PatternCounts& c) {
    level1 += c.played >= uint64_t(settings_.min_played);
    return true;
  });
  if (!st.ok()) return st;
  if (level1 != expected[0])
    return Status::Corruption("database " + path_ + ": level 1 holds " + std::to_string(level1) +
                              " reported patterns, the last count recorded " + std::to_string(expected[0]) + " (" +
                              repair_hint(path_) + ")");
  return Status::OK();
}

Status PatternDb::verify_tables() {
  return from_rocks(db_->VerifyChecksum(), "checking the table files of database " + path_);
}

Status PatternDb::check_positions_present() {
  if (!has_position_index() || !position_entries_known_) return Status::OK();
  return check_entries(cf(Family::kPositions), position_entries_, "the position index's", [&](uint64_t have) {
    return "its position index holds " + std::to_string(have) + " entries but " + std::to_string(position_entries_) +
           " were written into it";
  });
}

Status PatternDb::check_games_present() {
  // The same for the stored games, against the recorded total.
  return check_entries(cf(Family::kGames), game_count_, "the games'", [&](uint64_t have) {
    return "its games hold " + std::to_string(have) + " records but it recorded " + std::to_string(game_count_) +
           " stored games";
  });
}

Status PatternDb::check_pending_present() {
  if (!has(Family::kPendingPatterns)) return Status::OK();
  const uint64_t want = summary_.pending_patterns;
  return check_entries(cf(Family::kPendingPatterns), want, "the pending patterns'", [&](uint64_t have) {
    return "its pending patterns hold " + std::to_string(have) + " entries but the last night left " +
           std::to_string(want);
  });
}

}  // namespace sgfpat

#include "store/pattern_db.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/convenience.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <limits>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <algorithm>

#include "core/coding.h"
#include "store/diary_logger.h"
#include "store/rocks_status.h"
#include "store/scratch_dirs.h"
#include "store/wal_check.h"

namespace sgfpat {

namespace {
// The three families every database has; "pending" and "positions" follow
// them when present (a reader of an older database may lack either).
enum Cf { kMeta = 0, kGames = 1, kCounts = 2 };
// Meta key of save_count_progress()'s record.
constexpr const char* kCountProgressKey = "count_progress";

// The counts value: (played, seen, wins) as three little-endian u64s.
constexpr size_t kCountsValueBytes = 24;
struct CountsValue {
  char bytes[kCountsValueBytes];
  explicit CountsValue(const PatternCounts& c) {
    encode_fixed64(bytes, c.played);
    encode_fixed64(bytes + 8, c.seen);
    encode_fixed64(bytes + 16, c.wins);
  }
  rocksdb::Slice slice() const { return rocksdb::Slice(bytes, kCountsValueBytes); }
};
// False for a value of any other size (damage: never read as zero counts).
bool parse_counts(const rocksdb::Slice& v, PatternCounts* c) {
  if (v.size() != kCountsValueBytes) return false;
  *c = {decode_fixed64(v.data()), decode_fixed64(v.data() + 8), decode_fixed64(v.data() + 16)};
  return true;
}

// Adds counts values on merge.
class Add3 : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    // A damaged operand fails the merge: RocksDB then reports the key as
    // corrupt instead of summing around it.
    PatternCounts a, b;
    if ((existing && !parse_counts(*existing, &a)) || !parse_counts(value, &b)) return false;
    a.played += b.played;
    a.seen += b.seen;
    a.wins += b.wins;
    const CountsValue sum(a);
    new_value->assign(sum.bytes, kCountsValueBytes);
    return true;
  }
  const char* Name() const override { return "sgfpat.add3"; }
};

// Big-endian, so that RocksDB's bytewise order is (generation, level, key).
constexpr size_t kCountsKeyBytes = 13;
std::string counts_key(uint32_t gen, int level, uint64_t key) {
  std::string k(kCountsKeyBytes, '\0');
  encode_fixed32_be(k.data(), gen);
  k[4] = char(level);
  encode_fixed64_be(k.data() + 5, key);
  return k;
}
void parse_counts_key(const rocksdb::Slice& k, int* level, uint64_t* key) {
  *level = uint8_t(k[4]);
  *key = decode_fixed64_be(k.data() + 5);
}

std::string encode_settings(const DbSettings& s) {
  std::ostringstream o;
  o << "format=" << kDbFormatVersion << " seed=" << s.scheme.seed << " levels=" << s.scheme.levels
    << " symmetry=" << (s.scheme.symmetry ? 1 : 0) << " min_played=" << s.min_played;
  return o.str();
}
bool decode_settings(const std::string& text, DbSettings* s, int* format) {
  std::istringstream in(text);
  std::string tok;
  int got = 0;
  while (in >> tok) {
    auto eq = tok.find('=');
    if (eq == std::string::npos) return false;
    std::string k = tok.substr(0, eq), v = tok.substr(eq + 1);
    try {
      if (k == "format") *format = std::stoi(v), ++got;
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

std::string u64_string(uint64_t v) { return std::to_string(v); }

std::string repair_hint(const std::string& path) {
  return "run `sgfpat repair --db " + path + "` to recover what is readable, or restore a backup";
}

bool locked_by_another_process(const std::string& path);

// What a process opening a database finds while another process is still
// making it (its lock held, no entry yet): Busy, so that a reader or a
// second writer is told to wait rather than that the database is damaged.
Status being_created(const std::string& path) {
  return Status::Busy("database " + path + " is being created by another process; try again when it is done");
}

// Whether not one of `cfs` holds an entry (an unreadable one: the error).
rocksdb::Status holds_no_entry(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs, bool* empty) {
  *empty = false;
  for (rocksdb::ColumnFamilyHandle* cf : cfs) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), cf));
    it->SeekToFirst();
    if (!it->status().ok()) return it->status();
    if (it->Valid()) return rocksdb::Status::OK();
  }
  *empty = true;
  return rocksdb::Status::OK();
}

// True when the database at `path` (column families `names`) has only some
// of sgfpat's column families and not one entry in them: what a creation
// killed between RocksDB's CURRENT and its last column family leaves.
bool interrupted_creation(const std::string& path, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (n != rocksdb::kDefaultColumnFamilyName && n != "games" && n != "counts" && n != "pending" && n != "positions")
      return false;
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

// Where a database may be opened: one that exists (CURRENT present), or,
// when `may_create`, a new or empty directory.  A directory that holds other
// files is refused: it is a damaged database (lost CURRENT: creating one
// would orphan, then delete, its table files) or somebody else's folder.
// But what a creation killed before RocksDB wrote CURRENT leaves (the
// diary LOG, LOCK, IDENTITY, the first MANIFEST, temporary files, empty
// write-ahead logs; no table file) holds nothing: when `may_create` and no
// process holds its lock, those files are removed and the database made.
Status check_database_dir(const std::string& path, bool may_create, bool* creating) {
  namespace fs = std::filesystem;
  std::error_code ec;
  *creating = false;
  if (fs::exists(path + "/CURRENT", ec)) return Status::OK();
  const bool exists = fs::exists(path, ec);
  if (exists && !fs::is_directory(path, ec))
    return Status::InvalidArgument(path + " is not a directory; --db names a database directory");
  bool empty = true, rocks_files = false, only_debris = true;
  std::vector<fs::path> debris;
  if (exists) {
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      empty = false;
      const std::string name = it->path().filename().string();
      const bool log = name.ends_with(".log");
      if (name.rfind("MANIFEST-", 0) == 0 || name.ends_with(".sst") || log || name == "IDENTITY" ||
          name.rfind("OPTIONS-", 0) == 0)
        rocks_files = true;
      std::error_code size_ec;
      const bool is_debris = name == "LOG" || name == "LOG.old" || name == "LOCK" || name == "IDENTITY" ||
                             name == "MANIFEST-000001" || name.ends_with(".dbtmp") ||
                             (log && it->is_regular_file(size_ec) && fs::file_size(it->path(), size_ec) == 0 && !size_ec);
      if (is_debris) debris.push_back(it->path());
      else only_debris = false;
    }
    if (ec) return Status::IOError("cannot list " + path + ": " + ec.message());
  }
  if (!empty && only_debris) {
    if (!may_create) {
      if (locked_by_another_process(path)) return being_created(path);
      return Status::NotFound("no pattern database at " + path +
                              " (its creation was interrupted or has not finished: `sgfpat ingest --db " + path +
                              "` makes it)");
    }
    // Cleared under RocksDB's own lock (an fcntl lock on LOCK, which stays):
    // a process creating the database meanwhile either holds it (Busy
    // here) or waits for it (Busy there), never loses files to this one.
    const int fd = ::open((path + "/LOCK").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Status::IOError("cannot open " + path + "/LOCK: " + std::strerror(errno));
    struct flock fl {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (::fcntl(fd, F_SETLK, &fl) != 0) {
      ::close(fd);
      return being_created(path);
    }
    for (const fs::path& f : debris) {
      if (f.filename() == "LOCK") continue;
      fs::remove(f, ec);
      if (ec) break;
    }
    ::close(fd);  // releases the lock
    if (ec) return Status::IOError("cannot clear " + path + " (left by an interrupted creation): " + ec.message());
    *creating = true;
    return Status::OK();
  }
  if (rocks_files)
    return Status::Corruption("database " + path + " has lost its CURRENT file; nothing was changed (" + repair_hint(path) +
                              ")");
  if (!may_create)
    return Status::NotFound("no pattern database at " + path + " (create one with `sgfpat ingest --db " + path + "`)");
  if (!empty)
    return Status::InvalidArgument(path + " is not empty and holds no pattern database: refusing to create one among "
                                   "other files; give --db a new or empty directory");
  *creating = true;
  return Status::OK();
}

// True when another process holds the write lock RocksDB takes on the
// database's LOCK file (an fcntl lock: RocksDB reports a failure to take it
// as a plain IOError, so this asks the kernel who holds it instead).
// Never called by a process holding that lock: fcntl locks are per process,
// and closing the probe's descriptor would release it.
bool locked_by_another_process(const std::string& path) {
  const int fd = ::open((path + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  const bool held = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  ::close(fd);
  return held;
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

Status changed_while_opened(const std::string& path) {
  return Status::Busy("database " + path +
                      " changed its column families while this reader opened it (another process is creating or "
                      "upgrading it); try again");
}

// A meta value written by u64_string().
Status parse_meta_u64(const std::string& path, const char* name, const std::string& text, uint64_t* out) {
  auto [ptr, err] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (text.empty() || err != std::errc() || ptr != text.data() + text.size())
    return Status::Corruption("database " + path + ": stored " + name + " '" + text + "' is not a number");
  return Status::OK();
}
}  // namespace

PatternDb::~PatternDb() {
  if (db_) {
    for (auto* h : cf_) db_->DestroyColumnFamilyHandle(h);
    db_->Close();
    db_.reset();
  }
  if (!secondary_path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(secondary_path_, ec);
  }
}

Status PatternDb::Open(const std::string& path, const OpenOptions& options, std::unique_ptr<PatternDb>* out) {
  std::unique_ptr<PatternDb> db(new PatternDb());
  db->path_ = path;
  db->secondary_ = options.secondary;
  db->set_position_run_bytes(options.position_run_bytes);
  db->write_threads_ = std::max(1, options.write_threads);
  rocksdb::Options opts;
  opts.create_if_missing = options.create_if_missing && !options.secondary;
  opts.create_missing_column_families = !options.secondary;
  opts.IncreaseParallelism(2);
  // A damaged write-ahead log is an error, not a place to stop replaying
  // quietly (that drops the stored games logged after it); only a record
  // cut at the very end, as a crash leaves one, is passed over.
  opts.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  opts.paranoid_checks = true;
  rocksdb::ColumnFamilyOptions counts_opts;
  counts_opts.merge_operator = std::make_shared<Add3>();
  counts_opts.compression = rocksdb::kLZ4Compression;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  rocksdb::ColumnFamilyOptions games_opts;
  games_opts.compression = rocksdb::kZSTD;
  rocksdb::ColumnFamilyOptions meta_opts;
  rocksdb::ColumnFamilyOptions positions_opts;
  // Random hashes do not compress: compressing them would only slow the
  // flushes an import waits for.
  positions_opts.compression = rocksdb::kNoCompression;
  // Index keys are hashes: every run lands all over the key space.  Runs
  // come as whole sorted table files (write_position_run()); universal
  // compaction merges whole sorted runs now and then instead of rewriting
  // the overlapping level below at every one, as levelled compaction does
  // with keys that overlap everything.  (Only deletions still go through
  // the memtable, a vector one: O(1) inserts, sorted once at flush.)
  positions_opts.memtable_factory = std::make_shared<rocksdb::VectorRepFactory>();
  positions_opts.compaction_style = rocksdb::kCompactionStyleUniversal;
  // A large import writes several runs of similar size (4-8 at 616k
  // games), which at the default trigger of 4 were merged into one at
  // once: 4 GB rewritten, 40 CPU s beside the count.  A look-up checks
  // each run's filter first, so a dozen runs cost it little; later
  // ingests' small runs are merged among themselves.
  // A run is written as one file per write thread (disjoint key ranges):
  // the trigger counts files, not runs.
  // The write stalls' limits go with it (RocksDB raises them to the
  // trigger at least): a merge must not wait until writes are stopped.
  const int files_per_run = std::max(1, options.write_threads);
  positions_opts.level0_file_num_compaction_trigger = 12 * files_per_run;
  positions_opts.level0_slowdown_writes_trigger = 20 * files_per_run;
  positions_opts.level0_stop_writes_trigger = 36 * files_per_run;
  opts.allow_concurrent_memtable_write = false;  // the vector memtable does not support it
  if (options.memory_bytes > 0) {
    // Half for the memtables of all column families together, half for a
    // cache that also holds the index and filter blocks: both would
    // otherwise grow with the number of table files, not with the budget.
    const size_t half = options.memory_bytes / 2;
    opts.db_write_buffer_size = std::max<size_t>(4 << 20, half);
    // A log file is deleted only when every family with writes in it has
    // flushed; the small families (meta, pending) would otherwise pin every
    // log of an import, hundreds of MB.  Past this size RocksDB flushes them.
    opts.max_total_wal_size = std::max<size_t>(16 << 20, half / 2);
    for (auto* cf : {&counts_opts, &games_opts, &meta_opts, &positions_opts}) {
      cf->write_buffer_size = std::max<size_t>(1 << 20, half / 4);
      cf->max_write_buffer_number = 2;
    }
    table.block_cache = rocksdb::NewLRUCache(std::max<size_t>(1 << 20, half));
    table.cache_index_and_filter_blocks = true;
    rocksdb::BlockBasedTableOptions games_table;
    games_table.block_cache = table.block_cache;
    games_table.cache_index_and_filter_blocks = true;
    games_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(games_table));
    meta_opts.table_factory = games_opts.table_factory;
  }
  {
    // An exact lookup reads one block per sorted run; with a flat index a
    // fresh reader would first load each run's whole index (megabytes for
    // the tens of millions of positions of a large corpus): a two-level
    // index loads only its small top level and one partition.
    rocksdb::BlockBasedTableOptions positions_table;
    positions_table.block_cache = table.block_cache;
    positions_table.cache_index_and_filter_blocks = table.block_cache != nullptr;
    positions_table.index_type = rocksdb::BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
    positions_table.metadata_block_size = 4096;
    positions_table.block_size = 16 << 10;
    positions_table.pin_top_level_index_and_filter = true;
    positions_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(positions_table));
  }
  counts_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
      {rocksdb::kDefaultColumnFamilyName, meta_opts},
      {"games", games_opts},
      {"counts", counts_opts}};
  bool creating = false;
  Status where = check_database_dir(path, options.create_if_missing && !options.secondary, &creating);
  if (!where.ok()) return where;
  std::vector<std::string> names;
  if (!creating) {
    // An existing database is opened, never taken over: column families
    // that sgfpat did not make mean another program's database.  "pending"
    // (incremental counting) and "positions" (the position index) came
    // later: a writer adds them to an older database, a reader opens what
    // is there.
    rocksdb::Status ls = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(opts), path, &names);
    if (!ls.ok()) return from_rocks(ls, "cannot open database " + path + " (" + repair_hint(path) + ")");
    std::vector<std::string> required;
    for (const auto& n : names)
      if (n != "pending" && n != "positions") required.push_back(n);
    std::sort(required.begin(), required.end());
    const std::vector<std::string> all = {"counts", rocksdb::kDefaultColumnFamilyName, "games"};
    if (required != all) {
      // RocksDB makes the column families one by one once CURRENT is
      // written: a kill in between leaves some of them, all empty, and so
      // does a creation still going on.  The lock tells the two apart; a
      // creation may also finish between the listing and the look.
      const bool partial = interrupted_creation(path, names);
      if (locked_by_another_process(path) && (partial || column_families_changed(opts, path, names)))
        return being_created(path);
      if (partial && options.create_if_missing && !options.secondary) {
        rocksdb::Status d = rocksdb::DestroyDB(path, rocksdb::Options());
        if (!d.ok()) return from_rocks(d, "clearing the interrupted creation of " + path);
        where = check_database_dir(path, true, &creating);
        if (!where.ok()) return where;
        names.clear();
        required = all;
      }
    }
    if (required != all) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      return Status::Corruption("database " + path + " was not made by sgfpat (its column families are " + list +
                                "); nothing was changed. Give --db a new or empty directory");
    }
    if (!creating) opts.create_if_missing = false;
  }
  auto present = [&](const char* name) {
    return !options.secondary || std::find(names.begin(), names.end(), name) != names.end();
  };
  db->has_pending_ = present("pending");
  if (db->has_pending_) cfs.push_back({"pending", games_opts});
  db->has_positions_ = present("positions");
  if (db->has_positions_) cfs.push_back({"positions", positions_opts});
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (options.secondary) {
    opts.max_open_files = -1;  // required by secondary instances
    std::error_code ec;
    const std::filesystem::path temp = std::filesystem::temp_directory_path(ec);
    if (ec) return Status::IOError("no temp folder for a database reader: " + ec.message());
    remove_stale_reader_dirs(temp);
    db->secondary_path_ = reader_scratch_path(temp, db.get()).string();
    Status logs = check_log_record_types(path);
    if (!logs.ok()) return logs.is_corruption() ? Status::Corruption("database " + path + ": " + logs.message()) : logs;
    s = rocksdb::DB::OpenAsSecondary(opts, path, db->secondary_path_, cfs, &db->cf_, &raw);
    if (s.ok()) {
      db->db_.reset(raw);
      s = raw->TryCatchUpWithPrimary();
      if (s.IsCorruption() && column_families_changed(opts, path, names)) return changed_while_opened(path);
    }
  } else {
    std::error_code ec;
    if (creating) std::filesystem::create_directories(path, ec);
    opts.info_log = open_diary_logger(path);
    s = rocksdb::DB::Open(opts, path, cfs, &db->cf_, &raw);
    if (s.ok()) db->db_.reset(raw);
  }
  if (!s.ok()) {
    if (!options.secondary && s.IsIOError() && !s.IsNoSpace() && locked_by_another_process(path))
      return Status::Busy("database " + path + " is in use by another writer (" + s.ToString() + ")");
    // A file missing or damaged: RocksDB says which; the way out is ours.
    // CURRENT is there (checked above): a file it leads to that is missing
    // is damage, not "no database".
    if (s.IsCorruption() || s.IsPathNotFound() || s.IsNotFound())
      return Status::Corruption("cannot open database " + path + " (" + repair_hint(path) + "): " + s.ToString());
    return from_rocks(s, "cannot open database " + path);
  }
  // Settings: recorded at creation, checked at every later open.
  std::string recorded;
  s = db->db_->Get(rocksdb::ReadOptions(), db->cf_[kMeta], "scheme", &recorded);
  if (s.IsNotFound() && !creating) {
    // No key scheme in an existing database.  A creation killed between
    // RocksDB making its files and the key scheme's write (its first) holds
    // no entry at all: a writer asked to create makes it again, and a
    // reader whose creator still holds the lock is told to wait (only a
    // reader probes the lock: a writer holds it itself, and closing the
    // probe's descriptor would release it, fcntl locks being per process).
    // A database that lost only its meta data still holds games or counts,
    // and is reported.
    const bool remake = options.create_if_missing && !options.secondary;
    if (remake || (options.secondary && locked_by_another_process(path))) {
      bool empty = false;
      const rocksdb::Status e = holds_no_entry(*db->db_, db->cf_, &empty);
      if (remake) {
        if (!e.ok()) return from_rocks(e, "reading database " + path);
        creating = empty;
      } else if (e.ok() && empty) {
        return being_created(path);
      }
    }
  }
  if (s.IsNotFound()) {
    if (options.secondary || !creating)
      return Status::Corruption("database " + path + " has no key scheme: its meta data is lost or it was not made by sgfpat; nothing was changed (" + repair_hint(path) + ")");
    db->settings_ = options.settings;
    // A new database's (empty) position index is complete.
    rocksdb::WriteBatch init;
    init.Put(db->cf_[kMeta], "scheme", encode_settings(options.settings));
    init.Put(db->cf_[kMeta], "position_index", "0");
    s = db->db_->Write(rocksdb::WriteOptions(), &init);
    if (!s.ok()) return from_rocks(s, "writing the key scheme");
  } else if (!s.ok()) {
    return from_rocks(s, "reading the key scheme");
  } else {
    int format = 0;
    if (!decode_settings(recorded, &db->settings_, &format))
      return Status::Corruption("database " + path + " has an unreadable key scheme: '" + recorded + "'");
    if (format != kDbFormatVersion)
      return Status::NotSupported("database " + path + " has format version " + std::to_string(format) +
                                  ", this sgfpat reads version " + std::to_string(kDbFormatVersion));
    if (options.check_settings && !(db->settings_ == options.settings))
      return Status::InvalidArgument("database " + path + " was created with " + db->settings_.scheme.describe() +
                                     " min_played=" + std::to_string(db->settings_.min_played) +
                                     "; this run asks for " + options.settings.scheme.describe() + " min_played=" +
                                     std::to_string(options.settings.min_played) +
                                     ". Keys of different schemes cannot be mixed: use another --db or the database's settings.");
  }
  Status st = db->load_meta();
  if (!st.ok()) return st;
  if (options.secondary) {
    // Counts reach a secondary through the MANIFEST (they are flushed, not
    // logged) and the generation switch through the WAL, which a catch-up
    // reads second: a switch seen in the WAL may belong to a flush this
    // catch-up missed.  Catching up again until the generation holds still
    // gives a view where the current generation's counts are all present.
    for (int i = 0; i < 100; ++i) {
      uint32_t gen = db->generation_;
      s = db->db_->TryCatchUpWithPrimary();
      if (s.IsCorruption() && column_families_changed(opts, path, names))
        return changed_while_opened(path);
      if (!s.ok()) return from_rocks(s, "catching up with the writer");
      st = db->load_meta();
      if (!st.ok()) return st;
      if (db->generation_ == gen) break;
    }
  }
  if (!options.skip_counts_check) {
    st = db->check_counts_present();
    if (st.ok()) st = db->check_games_present();
    if (!st.ok()) return st;
  }
  *out = std::move(db);
  return Status::OK();
}

Status PatternDb::check_counts_present() {
  // The table files of the counts hold at least every reported pattern of
  // the current generation: fewer entries means files are lost or unreadable
  // (RocksDB may drop a damaged table from a reader's view without an error),
  // and an answer from them would be wrong, not empty.
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
  uint64_t have = 0;
  if (!entries_in(cf_[kCounts], &have, &range))
    return Status::Corruption("database " + path_ + ": cannot read the properties of the counts' table files (" +
                              repair_hint(path_) + ")");
  if (have < want)
    return Status::Corruption("database " + path_ + ": its counts hold " + std::to_string(have) +
                              " entries but the last count reported " + std::to_string(want) +
                              " patterns: table files are missing or damaged (" + repair_hint(path_) + ")");
  return Status::OK();
}

Status PatternDb::check_games_present() {
  // The same for the stored games: fewer records than the recorded total
  // means a table file of games is missing or unreadable.
  if (game_count_ == 0) return Status::OK();
  uint64_t have = 0;
  if (!entries_in(cf_[kGames], &have))
    return Status::Corruption("database " + path_ + ": cannot read the properties of the games' table files (" +
                              repair_hint(path_) + ")");
  if (have < game_count_)
    return Status::Corruption("database " + path_ + ": its games hold " + std::to_string(have) +
                              " records but it recorded " + std::to_string(game_count_) +
                              " stored games: table files are missing or damaged (" + repair_hint(path_) + ")");
  return Status::OK();
}

bool PatternDb::entries_in(rocksdb::ColumnFamilyHandle* cf, uint64_t* have, const rocksdb::Range* range) {
  rocksdb::TablePropertiesCollection tables;
  const rocksdb::Status s =
      range ? db_->GetPropertiesOfTablesInRange(cf, range, 1, &tables) : db_->GetPropertiesOfAllTables(cf, &tables);
  if (!s.ok()) return false;
  *have = 0;
  for (const auto& [file, props] : tables) *have += props->num_entries;
  uint64_t in_memory = 0;
  if (db_->GetIntProperty(cf, "rocksdb.num-entries-active-mem-table", &in_memory)) *have += in_memory;
  if (db_->GetIntProperty(cf, "rocksdb.num-entries-imm-mem-tables", &in_memory)) *have += in_memory;
  return true;
}

std::vector<uint64_t> PatternDb::reported_per_level() const { return summary_.patterns_per_level; }

Status PatternDb::load_meta() {
  // A missing value is a database that has none yet (0); a damaged one is
  // reported, never read as 0.
  auto number = [&](const char* name, uint64_t* out) -> Status {
    std::string v;
    auto s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], name, &v);
    *out = 0;
    if (s.IsNotFound()) return Status::OK();
    if (!s.ok()) return from_rocks(s, std::string("reading the stored ") + name);
    return parse_meta_u64(path_, name, v, out);
  };
  uint64_t generation = 0;
  Status st = number("games", &game_count_);
  if (st.ok()) st = number("moves", &move_count_);
  if (st.ok()) st = number("generation", &generation);
  if (!st.ok()) return st;
  if (generation > UINT32_MAX)
    return Status::Corruption("database " + path_ + ": stored generation " + std::to_string(generation) +
                              " is out of range");
  generation_ = uint32_t(generation);
  std::string v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "summary", &v);
  if (!s.ok() && !s.IsNotFound()) return from_rocks(s, "reading the stored summary");
  if (!s.ok()) v.clear();
  st = decode_summary(v, &summary_);
  if (!st.ok()) return st.with_context("database " + path_);
  s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "sketch", &v);
  sketch_file_ = s.ok() ? v : "";
  // No "position_index" value: an index never completed (or a database
  // made before it existed).
  s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "position_index", &v);
  if (!s.ok() && !s.IsNotFound()) return from_rocks(s, "reading the stored position_index");
  indexed_games_ = ~uint64_t(0);
  index_off_ = s.ok() && v == "off";
  if (s.ok() && !index_off_) return parse_meta_u64(path_, "position_index", v, &indexed_games_);
  return Status::OK();
}

bool PatternDb::InUse(const std::string& path) { return locked_by_another_process(path); }

namespace {
// RocksDB 7.8's RepairDB turns the logs into table files before it knows
// the column families, and drops every logged write of a family that has
// no table file yet: the games of a database whose import never flushed
// them were all lost.  So a normal open first replays the logs up to the
// first damaged record (into the families the MANIFEST names) and flushes
// every family, leaving RepairDB logs with nothing it must convert.  When
// that open fails (no MANIFEST, damaged tables), RepairDB does what it can
// alone, as before.
void flush_logs_first(const std::string& path, rocksdb::DBOptions opts,
                      const std::vector<rocksdb::ColumnFamilyDescriptor>& known) {
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(opts, path, &names).ok()) return;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const std::string& n : names) {
    auto it = std::find_if(known.begin(), known.end(), [&](const auto& d) { return d.name == n; });
    if (it == known.end()) return;  // not sgfpat's: RepairDB reports it
    cfs.push_back(*it);
    cfs.back().options.disable_auto_compactions = true;  // no table file is read or rewritten
  }
  opts.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  if (!rocksdb::DB::Open(opts, path, cfs, &handles, &raw).ok()) return;
  rocksdb::FlushOptions fo;
  fo.allow_write_stall = true;
  raw->Flush(fo, handles);
  for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
  raw->Close();
  delete raw;
}
}  // namespace

Status PatternDb::RepairFiles(const std::string& path) {
  rocksdb::DBOptions opts;
  opts.paranoid_checks = true;
  // Every family of an sgfpat database, with the merge operator of the
  // counts (log records of them are turned into table files).
  rocksdb::ColumnFamilyOptions plain, counts;
  counts.merge_operator = std::make_shared<Add3>();
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {{rocksdb::kDefaultColumnFamilyName, plain},
                                                       {"games", plain},
                                                       {"counts", counts},
                                                       {"pending", plain},
                                                       {"positions", plain}};
  opts.info_log = open_diary_logger(path);
  flush_logs_first(path, opts, cfs);
  auto s = rocksdb::RepairDB(path, opts, cfs, plain);
  if (!s.ok() && s.IsIOError() && !s.IsNoSpace() && locked_by_another_process(path))
    return Status::Busy("database " + path + " is in use by another process (" + s.ToString() + ")");
  if (!s.ok()) return from_rocks(s, "repairing the files of database " + path);
  // A family whose every table file was set aside is gone from the rebuilt
  // MANIFEST: it is made again, empty, so that the database is sgfpat's.
  opts.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::Open(opts, path, cfs, &handles, &raw);
  if (!s.ok()) return from_rocks(s, "opening database " + path + " after repairing its files");
  // The index's table files were taken in with sequence numbers that only
  // the old MANIFEST knew: read back at 0, they may be hidden by a range
  // deletion of an earlier reset.  Recorded incomplete, the index is built
  // again (by repair itself, or the next ingest if repair stops first).
  std::string state;
  rocksdb::Status m = raw->Get(rocksdb::ReadOptions(), handles[0], "position_index", &state);
  if (m.ok() && state != "off") {
    rocksdb::WriteOptions wo;
    wo.sync = true;
    m = raw->Delete(wo, handles[0], "position_index");
  } else if (m.IsNotFound()) {
    m = rocksdb::Status::OK();
  }
  if (m.ok()) {
    // Table files of a count in parts may have been set aside: its record
    // of progress would resume over them.
    rocksdb::WriteOptions wo;
    wo.sync = true;
    m = raw->Delete(wo, handles[0], kCountProgressKey);
  }
  for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
  if (!m.ok()) {
    raw->Close();
    delete raw;
    return from_rocks(m, "marking the position index of " + path + " for a rebuild and clearing its count progress");
  }
  s = raw->Close();
  delete raw;
  return from_rocks(s, "closing database " + path + " after repairing its files");
}

Status PatternDb::set_game_totals(const std::vector<Fingerprint>& remove, uint64_t games, uint64_t moves) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  rocksdb::WriteBatch batch;
  for (const auto& fp : remove) {
    const rocksdb::Slice key(reinterpret_cast<const char*>(fp.data()), fp.size());
    batch.Delete(cf_[kGames], key);
    batch.Delete(pending_cf(), key);
  }
  batch.Put(cf_[kMeta], "games", u64_string(games));
  batch.Put(cf_[kMeta], "moves", u64_string(moves));
  batch.Delete(cf_[kMeta], kCountProgressKey);  // made for other games
  if (!index_off_) batch.Delete(cf_[kMeta], "position_index");
  rocksdb::WriteOptions wo;
  wo.sync = true;
  auto s = db_->Write(wo, &batch);
  if (!s.ok()) return from_rocks(s, "writing the stored game totals");
  game_count_ = games;
  move_count_ = moves;
  indexed_games_ = ~uint64_t(0);
  return Status::OK();
}

Status PatternDb::has_game(const Fingerprint& fp, bool* found) {
  rocksdb::PinnableSlice v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf_[kGames],
                    rocksdb::Slice(reinterpret_cast<const char*>(fp.data()), fp.size()), &v);
  *found = s.ok();
  if (s.ok() || s.IsNotFound()) return Status::OK();
  return from_rocks(s, "looking up a game");
}

Status PatternDb::add_games(const std::vector<std::pair<Fingerprint, std::string>>& records, uint64_t moves,
                            const PositionEntries& positions) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  rocksdb::WriteBatch batch;
  for (const auto& [fp, rec] : records) {
    const rocksdb::Slice key(reinterpret_cast<const char*>(fp.data()), fp.size());
    batch.Put(cf_[kGames], key, rec);
    batch.Put(pending_cf(), key, "");
  }
  batch.Put(cf_[kMeta], "games", u64_string(game_count_ + records.size()));
  batch.Put(cf_[kMeta], "moves", u64_string(move_count_ + moves));
  // The index stays complete only if these games' entries come with them;
  // the stored "position_index" stays behind until the run is written.
  const bool indexed = has_position_index() && (records.empty() || !positions.empty());
  auto s = db_->Write(rocksdb::WriteOptions(), &batch);
  if (!s.ok()) return from_rocks(s, "storing games");
  game_count_ += records.size();
  move_count_ += moves;
  if (!indexed) return Status::OK();
  // A run written to make room records only the games before these.
  Status st = add_position_entries(positions);
  if (st.ok()) indexed_games_ += records.size();
  return st.ok() ? st : st.with_context("games stored, but their position index entries not");
}

Status PatternDb::reset_position_index() { return clear_position_index(false); }

Status PatternDb::turn_position_index_off() {
  Status st = clear_position_index(true);
  // What DeleteFilesInRange left (files that straddle the range's ends,
  // memtable entries) goes with the range tombstone at compaction.
  if (st.ok() && has_positions_)
    db_->CompactRange(rocksdb::CompactRangeOptions(), positions_cf(), nullptr, nullptr);
  return st;
}

Status PatternDb::clear_position_index(bool off) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  rocksdb::WriteOptions wo;
  wo.sync = true;
  auto s = off ? db_->Put(wo, cf_[kMeta], "position_index", "off") : db_->Delete(wo, cf_[kMeta], "position_index");
  if (!s.ok()) return from_rocks(s, off ? "turning the position index off" : "clearing the position index");
  indexed_games_ = ~uint64_t(0);
  index_off_ = off;
  PositionEntries().swap(run_);
  if (!has_positions_) return Status::OK();
  // Killed before its flush, the deletion is lost and the index stays
  // recorded incomplete: the next build clears it again.
  Status st = delete_range_now(positions_cf(), "", std::string(32, '\xff'), "clearing the position index");
  if (!st.ok()) return st;
  drop_position_files();
  return Status::OK();
}

Status PatternDb::delete_range_now(rocksdb::ColumnFamilyHandle* cf, const std::string& begin, const std::string& end,
                                   const std::string& what) {
  // Out of the write-ahead log and into a table file at once: left in a log
  // that another family keeps alive, RocksDB's RepairDB made a second table
  // of it with the same sequence number as the flushed one, and refused the
  // pair.
  // A range with nothing to read needs no deletion: its tombstone would lie
  // in level 0 under every file taken in after it (and the position index's
  // closing compaction would rewrite the whole index for it).
  {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf));
    it->Seek(begin);
    if (!it->status().ok()) return from_rocks(it->status(), what);
    if (!it->Valid() || it->key().compare(rocksdb::Slice(end)) >= 0) return Status::OK();
  }
  rocksdb::WriteOptions unlogged;
  unlogged.disableWAL = true;
  auto s = db_->DeleteRange(unlogged, cf, begin, end);
  if (s.ok()) s = db_->Flush(rocksdb::FlushOptions(), cf);
  return from_rocks(s, what);
}

void PatternDb::drop_position_files() {
  const std::string end(32, '\xff');
  const rocksdb::Slice e(end);
  rocksdb::DeleteFilesInRange(db_.get(), positions_cf(), nullptr, &e);
}

void PatternDb::set_position_run_bytes(size_t bytes) {
  run_limit_ = std::max<size_t>(1, bytes / sizeof(PositionEntry));
}

Status PatternDb::add_position_entries(const PositionEntries& entries) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  if (!has_positions_) return Status::NotSupported("database " + path_ + " has no position index family");
  if (!run_.empty() && run_.size() + entries.size() > run_limit_) {
    Status st = write_position_run();
    if (!st.ok()) return st;
  }
  if (run_.capacity() < run_limit_) run_.reserve(run_limit_);  // pages taken as it fills
  run_.insert(run_.end(), entries.begin(), entries.end());
  return Status::OK();
}

Status PatternDb::write_position_run() {
  if (!run_.empty()) {
    // Sorted here, written straight into a table file and taken in whole:
    // through the memtable, RocksDB's flushes spent most of an import
    // sorting these random keys with its generic comparator, and its
    // compactions merging many small runs.  Each run overlaps the earlier
    // ones (the keys are hashes), so it gets a sequence number; kept in the
    // MANIFEST only, the file stays readable by `sgfpat repair` (RocksDB's
    // repair rejects a file whose own header was given one).  The keys are
    // never rewritten, so their order does not depend on it.
    // One file per write thread, each a range of keys: sorted and written
    // side by side (the importing thread would otherwise write alone while
    // the other cores wait for it).
    std::vector<TableFill> fills;
    for (const std::span<PositionEntry> part : split_by_key_quantiles(&run_, size_t(write_threads_))) {
      fills.push_back([part](const TablePut& put) {
        sort_by_key(part);
        for (size_t i = 0; i < part.size(); ++i) {
          const PositionEntry& e = part[i];
          if (i > 0 && e.key == part[i - 1].key) continue;  // the same entry given twice
          Status s = put(std::string_view(e.key.data(), e.key.size()), std::string_view(e.value.data(), e.value.size()));
          if (!s.ok()) return s;
        }
        return Status::OK();
      });
    }
    Status st = take_in_tables(positions_cf(), "sgfpat-positions", "the position index", false, fills);
    PositionEntries().swap(run_);  // the memory back, written or not
    if (!st.ok()) {
      indexed_games_ = ~uint64_t(0);  // the run's entries are lost: incomplete
      return st;
    }
  }
  if (indexed_games_ > game_count_) return Status::OK();  // a build: complete_position_index() records it
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return from_rocks(db_->Put(wo, cf_[kMeta], "position_index", u64_string(indexed_games_)),
                    "recording the position index");
}

Status PatternDb::take_in_tables(rocksdb::ColumnFamilyHandle* cf, const std::string& name, const std::string& what,
                                 bool seqno_in_file, const std::vector<TableFill>& fills) {
  return sgfpat::take_in_tables(db_.get(), cf, path_, name, what, seqno_in_file, fills, write_threads_);
}

Status PatternDb::flush_position_index() {
  if (secondary_ || !has_positions_ || index_off_) return Status::OK();
  return write_position_run();
}

Status PatternDb::complete_position_index() {
  const uint64_t before = indexed_games_;
  indexed_games_ = game_count_;
  Status st = write_position_run();
  if (!st.ok()) {
    indexed_games_ = before;
    return st;
  }
  // One sorted run, without the reset's range deletion and the files of
  // the old index it hides (DeleteFilesInRange leaves level 0 alone).  A
  // single file is one already (the merged indexes of a sharded count,
  // taken into an empty index): rewriting it would gain nothing.
  rocksdb::ColumnFamilyMetaData md;
  db_->GetColumnFamilyMetaData(positions_cf(), &md);
  if (md.file_count <= 1) return Status::OK();
  return from_rocks(db_->CompactRange(rocksdb::CompactRangeOptions(), positions_cf(), nullptr, nullptr),
                    "compacting the position index");
}

Status PatternDb::add_sorted_position_entries(const TableFill& fill) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  if (!has_positions_) return Status::NotSupported("database " + path_ + " has no position index family");
  if (!run_.empty()) return Status::InvalidArgument("position index entries are waiting in a run");
  if (indexed_games_ != ~uint64_t(0))
    return Status::InvalidArgument("database " + path_ + ": the position index was not reset before its build");
  // One file: into an empty index it is the whole index, which
  // complete_position_index() then keeps as it is.  (On failure the index
  // stays recorded incomplete, as the reset left it.)
  return take_in_tables(positions_cf(), "sgfpat-positions", "the position index", false, {fill});
}

PatternDb::PositionCursor::~PositionCursor() = default;
bool PatternDb::PositionCursor::valid() const { return it_->Valid(); }
std::string_view PatternDb::PositionCursor::key() const { return {it_->key().data(), it_->key().size()}; }
std::string_view PatternDb::PositionCursor::value() const { return {it_->value().data(), it_->value().size()}; }
void PatternDb::PositionCursor::next() { it_->Next(); }
Status PatternDb::PositionCursor::status() const { return from_rocks(it_->status(), "reading the position index"); }

Status PatternDb::open_position_cursor(std::unique_ptr<PositionCursor>* out) {
  if (!has_positions_) return Status::NotFound("database " + path_ + " has no position index");
  rocksdb::ReadOptions ro;
  ro.total_order_seek = true;  // every entry, whatever the prefix
  ro.fill_cache = false;       // read once
  std::unique_ptr<PositionCursor> c(new PositionCursor());
  c->it_.reset(db_->NewIterator(ro, positions_cf()));
  c->it_->SeekToFirst();
  *out = std::move(c);
  return Status::OK();
}

Status PatternDb::for_each_position(std::string_view prefix,
                                    const std::function<bool(std::string_view, std::string_view)>& visit) {
  if (!has_positions_) return Status::NotFound("database " + path_ + " has no position index");
  rocksdb::ReadOptions ro;
  ro.prefix_same_as_start = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, positions_cf()));
  const rocksdb::Slice p(prefix.data(), prefix.size());
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next())
    if (!visit(std::string_view(it->key().data(), it->key().size()),
               std::string_view(it->value().data(), it->value().size())))
      break;
  return from_rocks(it->status(), "reading the position index");
}

uint64_t PatternDb::position_index_bytes() {
  if (!has_positions_) return 0;
  uint64_t files = 0, memtables = 0;
  db_->GetIntProperty(positions_cf(), "rocksdb.total-sst-files-size", &files);
  db_->GetIntProperty(positions_cf(), "rocksdb.cur-size-all-mem-tables", &memtables);
  return files + memtables;
}

Status PatternDb::find_game(std::string_view prefix, Fingerprint* fp, std::string* record, bool* found) {
  *found = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf_[kGames]));
  const rocksdb::Slice p(prefix.data(), prefix.size());
  it->Seek(p);
  if (it->Valid() && it->key().starts_with(p) && it->key().size() == fp->size()) {
    std::memcpy(fp->data(), it->key().data(), fp->size());
    record->assign(it->value().data(), it->value().size());
    *found = true;
  }
  return from_rocks(it->status(), "looking up a game");
}

Status PatternDb::get_games(std::span<const Fingerprint> fps, std::vector<std::string>* records) {
  const size_t n = fps.size();
  std::vector<rocksdb::Slice> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = rocksdb::Slice(reinterpret_cast<const char*>(fps[i].data()), fps[i].size());
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> statuses(n);
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  db_->MultiGet(ro, cf_[kGames], n, keys.data(), values.data(), statuses.data());
  records->resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (statuses[i].IsNotFound()) return Status::Corruption("a stored game is missing from the games");
    Status s = from_rocks(statuses[i], "reading games");
    if (!s.ok()) return s;
    (*records)[i].assign(values[i].data(), values[i].size());
  }
  return Status::OK();
}

Status PatternDb::for_each_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  return for_each_game(0, 256, visit);
}

Status PatternDb::for_each_game(int first, int last,
                                const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  const std::string lo(1, char(first)), hi(1, char(last));
  const rocksdb::Slice upper(hi);
  if (last < 256) ro.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf_[kGames]));
  for (it->Seek(rocksdb::Slice(lo)); it->Valid(); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    if (!visit(fp, std::string_view(it->value().data(), it->value().size()))) break;
  }
  return from_rocks(it->status(), "reading games");
}

Status PatternDb::pending_count(uint64_t* n) {
  *n = 0;
  if (!has_pending_) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, pending_cf()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++*n;
  return from_rocks(it->status(), "reading the pending games");
}

Status PatternDb::for_each_pending_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  if (!has_pending_) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, pending_cf()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    rocksdb::PinnableSlice rec;
    auto s = db_->Get(rocksdb::ReadOptions(), cf_[kGames], it->key(), &rec);
    if (!s.ok())
      return Status::Corruption("a pending game has no stored record: " + s.ToString());
    if (!visit(fp, std::string_view(rec.data(), rec.size()))) break;
  }
  return from_rocks(it->status(), "reading the pending games");
}

Status PatternDb::get(int level, uint64_t key, PatternCounts* counts, bool* found) {
  std::string v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf_[kCounts], counts_key(generation_, level, key), &v);
  *found = s.ok();
  if (s.ok() && !parse_counts(v, counts))
    return Status::Corruption("database " + path_ + ": corrupt counts value (" + std::to_string(v.size()) + " bytes)");
  if (s.ok() || s.IsNotFound()) return Status::OK();
  return from_rocks(s, "reading counts");
}

Status PatternDb::for_each_count(int level,
                                 const std::function<bool(int, uint64_t, const PatternCounts&)>& visit) {
  // A whole scan is checked against the recorded summary: a level whose
  // stored patterns disagree with what the count reported is damaged, and
  // is said so instead of being answered short (or empty).
  const std::vector<uint64_t> expected = reported_per_level();
  std::vector<uint64_t> seen(expected.size(), 0);
  bool stopped = false;
  Status st = scan_counts(generation_, level, [&](int lv, uint64_t key, const PatternCounts& c) {
    if (lv >= 1 && size_t(lv) <= seen.size() && c.played >= uint64_t(settings_.min_played)) ++seen[size_t(lv - 1)];
    if (!visit(lv, key, c)) return stopped = true, false;
    return true;
  });
  if (!st.ok() || stopped || generation_ == 0) return st;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (level > 0 && size_t(level) != i + 1) continue;
    if (seen[i] != expected[i])
      return Status::Corruption("database " + path_ + ": level " + std::to_string(i + 1) + " holds " +
                                std::to_string(seen[i]) + " reported patterns, the last count recorded " +
                                std::to_string(expected[i]) + " (" + repair_hint(path_) + ")");
  }
  return st;
}

Status PatternDb::scan_counts(uint32_t gen, int level,
                              const std::function<bool(int, uint64_t, const PatternCounts&)>& visit) {
  std::string lo = level > 0 ? counts_key(gen, level, 0) : counts_key(gen, 0, 0);
  std::string hi = level > 0 ? counts_key(gen, level + 1, 0) : counts_key(gen + 1, 0, 0);
  rocksdb::ReadOptions ro;
  rocksdb::Slice upper(hi);
  ro.iterate_upper_bound = &upper;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf_[kCounts]));
  for (it->Seek(lo); it->Valid(); it->Next()) {
    int lv;
    uint64_t key;
    PatternCounts c;
    if (it->key().size() != kCountsKeyBytes || !parse_counts(it->value(), &c))
      return Status::Corruption("database " + path_ + ": corrupt counts entry (key " + std::to_string(it->key().size()) + " bytes, value " +
                           std::to_string(it->value().size()) + " bytes)");
    parse_counts_key(it->key(), &lv, &key);
    if (!visit(lv, key, c)) break;
  }
  return from_rocks(it->status(), "reading counts");
}

Status PatternDb::begin_generation(uint32_t* gen) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  // Anything that is not the current generation is a leftover of an
  // interrupted count: drop it so the new generation starts from zero.
  // Only when there is one: a range deletion over the new generation's keys
  // would put the table files write_sorted_counts() takes in above it, in
  // level 0, and the compaction of commit_generation() would then rewrite
  // every count (11 s of one core at 616k games).
  // What an interrupted count in parts recorded goes first, durably: a
  // record that outlived the counts it describes would be resumed over them.
  rocksdb::WriteOptions synced;
  synced.sync = true;
  Status st = from_rocks(db_->Delete(synced, cf_[kMeta], kCountProgressKey), "clearing the count progress");
  if (!st.ok()) return st;
  st = drop_counts_in(counts_key(0, 0, 0), counts_key(generation_, 0, 0));
  if (st.ok()) st = drop_counts_in(counts_key(generation_ + 1, 0, 0), std::string(kCountsKeyBytes, '\xff'));
  if (!st.ok()) return st.with_context("clearing an interrupted count");
  *gen = generation_ + 1;
  return Status::OK();
}

Status PatternDb::save_count_progress(std::string_view record) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  // The parts it records must be durable first: their table files are
  // (taken in synced), and the count progress is synced itself.
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return from_rocks(db_->Put(wo, cf_[kMeta], kCountProgressKey, rocksdb::Slice(record.data(), record.size())),
                    "recording the count's progress");
}

Status PatternDb::count_progress(std::string* record) {
  record->clear();
  auto s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], kCountProgressKey, record);
  if (s.IsNotFound()) return Status::OK();
  return from_rocks(s, "reading the count progress");
}

Status PatternDb::drop_counts_in(const std::string& begin, const std::string& end) {
  // Lost to a kill before its flush, the deletion is made again by the
  // next begin_generation().
  return delete_range_now(cf_[kCounts], begin, end, "deleting counts");
}

Status PatternDb::add_counts(uint32_t gen, const std::vector<std::tuple<int, uint64_t, PatternCounts>>& partial) {
  rocksdb::WriteBatch batch;
  for (const auto& [level, key, c] : partial) {
    batch.Merge(cf_[kCounts], counts_key(gen, level, key), CountsValue(c).slice());
  }
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // an interrupted generation is discarded anyway
  return from_rocks(db_->Write(wo, &batch), "writing counts");
}

Status PatternDb::write_sorted_counts(uint32_t gen, const std::vector<CountFill>& fills) {
  if (secondary_) return Status::NotSupported("database " + path_ + " is open for reading only");
  std::vector<TableFill> tables;
  for (const CountFill& fill : fills) {
    tables.push_back([&fill, gen](const TablePut& put) {
      return fill([&](int level, uint64_t key, const PatternCounts& c) {
        const CountsValue v(c);
        return put(counts_key(gen, level, key), std::string_view(v.bytes, kCountsValueBytes));
      });
    });
  }
  return take_in_tables(cf_[kCounts], "sgfpat-counts", "the counts", true, tables);
}

Status PatternDb::prune_generation(uint32_t gen, uint64_t* deleted, std::vector<uint64_t>* kept) {
  *deleted = 0;
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // like add_counts: an interrupted generation is discarded
  rocksdb::WriteBatch batch;
  Status st;
  Status scan = scan_counts(gen, 0, [&](int level, uint64_t key, const PatternCounts& c) {
    if (c.played < uint64_t(settings_.min_played)) {
      batch.Delete(cf_[kCounts], counts_key(gen, level, key));
      ++*deleted;
    } else {
      if (level >= 1 && size_t(level) <= kept->size()) ++(*kept)[size_t(level - 1)];
      batch.Put(cf_[kCounts], counts_key(gen, level, key), CountsValue(c).slice());
    }
    if (batch.Count() >= 100000) {
      st = from_rocks(db_->Write(wo, &batch), "pruning counts");
      batch.Clear();
      if (!st.ok()) return false;
    }
    return true;
  });
  if (!scan.ok()) return scan;
  if (!st.ok()) return st;
  return from_rocks(db_->Write(wo, &batch), "pruning counts");
}

Status PatternDb::commit_generation(uint32_t gen, const CountSummary& summary, const std::string& sketch_file) {
  // The unlogged count writes must be durable before the switch is.
  auto s = db_->Flush(rocksdb::FlushOptions(), cf_[kCounts]);
  if (!s.ok()) return from_rocks(s, "flushing counts");
  rocksdb::WriteBatch batch;
  batch.Put(cf_[kMeta], "generation", std::to_string(gen));
  batch.Put(cf_[kMeta], "summary", encode_summary(summary));
  batch.Put(cf_[kMeta], "sketch", sketch_file);
  batch.Delete(cf_[kMeta], kCountProgressKey);
  // Fingerprints are 16 bytes: this range holds them all.
  batch.DeleteRange(pending_cf(), std::string(), std::string(17, '\xff'));
  rocksdb::WriteOptions wo;
  wo.sync = true;
  s = db_->Write(wo, &batch);
  if (!s.ok()) return from_rocks(s, "switching to the new counts");
  generation_ = gen;
  summary_ = summary;
  sketch_file_ = sketch_file;
  {
    // Sketches of older generations, or of counts that never committed,
    // and the kept files of counts in parts a kill left (folders).
    std::error_code ec;
    std::vector<std::filesystem::path> stale;
    for (auto& e : std::filesystem::directory_iterator(path_, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("sgfpat-played-", 0) == 0 && name != sketch_file) stale.push_back(e.path());
    }
    for (const auto& p : stale) std::filesystem::remove_all(p, ec);
  }
  // Reclaim the old generation's space: its files go whole where they can,
  // a range deletion covers what is left of it, and a compaction removes
  // that (and folds the partial sums of a generation written by
  // add_counts()).  Nothing of the old generation is read any more: what
  // is left of it after a kill is dropped by the next begin_generation().
  const std::string old_begin = counts_key(0, 0, 0), old_end = counts_key(gen, 0, 0);
  const rocksdb::Slice begin(old_begin), end(old_end);
  rocksdb::DeleteFilesInRange(db_.get(), cf_[kCounts], &begin, &end);
  drop_counts_in(old_begin, old_end);
  compact_counts();
  return Status::OK();
}

void PatternDb::compact_counts() {
  rocksdb::ColumnFamilyHandle* cf = cf_[kCounts];
  db_->Flush(rocksdb::FlushOptions(), cf);  // partial sums of add_counts() still in memory
  rocksdb::ColumnFamilyMetaData md;
  db_->GetColumnFamilyMetaData(cf, &md);
  size_t runs = 0;  // sorted runs: each file of level 0, each other level with files
  for (const auto& level : md.levels)
    runs += level.level == 0 ? level.files.size() : size_t(!level.files.empty());
  // Several runs (the parts of a count in parts, each spanning the whole
  // key space; partial sums; a range deletion) are merged in one job into
  // the last level.  CompactRange() moves them down a level at a time and
  // rewrites the later parts at each level: 740 s for the 354M counts of 11
  // parts.  (The job runs on one thread: this RocksDB formed no
  // subcompactions for it, asked or not.)  Background compactions are let
  // finish first and held meanwhile: the merge is refused if one holds any
  // of its files.
  if (runs > 1 && !md.levels.empty() && db_->PauseBackgroundWork().ok()) {
    db_->GetColumnFamilyMetaData(cf, &md);
    std::vector<std::string> files;
    for (const auto& level : md.levels)
      for (const auto& f : level.files) files.push_back(f.name);
    const rocksdb::Options o = db_->GetOptions(cf);
    rocksdb::CompactionOptions co;
    co.compression = o.compression;
    co.output_file_size_limit = o.target_file_size_base;
    const bool merged = db_->CompactFiles(co, cf, files, md.levels.back().level).ok();
    db_->ContinueBackgroundWork();
    if (merged) return;
  }
  // One run already (a resident count's tables, taken in at the last level:
  // nothing to rewrite), or the merge failed.
  db_->CompactRange(rocksdb::CompactRangeOptions(), cf, nullptr, nullptr);
}

Status PatternDb::set_summary(const CountSummary& summary) {
  auto s = db_->Put(rocksdb::WriteOptions(), cf_[kMeta], "summary", encode_summary(summary));
  if (s.ok()) summary_ = summary;
  return from_rocks(s, "writing the summary");
}

uint64_t PatternDb::disk_bytes() const {
  uint64_t total = 0;
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator(path_, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

}  // namespace sgfpat

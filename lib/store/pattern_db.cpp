#include "store/pattern_db.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/convenience.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <limits>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/coding.h"

namespace sgfpat {

namespace {
enum Cf { kMeta = 0, kGames = 1, kCounts = 2, kPending = 3 };

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

Status from_rocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  return Status::Error(what + ": " + s.ToString());
}

std::string u64_string(uint64_t v) { return std::to_string(v); }

// A reader killed before its destructor ran leaves its scratch folder
// behind; the next reader removes those whose process is gone.  Only real
// folders of this user, and only the files directly in them (RocksDB puts
// just its info log there): the temp folder is shared, and nothing found
// in it is followed.
void remove_stale_reader_dirs(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  const std::string prefix = "sgfpat-reader-";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path path = it->path();
    const std::string name = path.filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const size_t dash = name.find('-', prefix.size());
    if (dash == std::string::npos) continue;
    long pid = 0;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + dash;
    auto [ptr, err] = std::from_chars(first, last, pid);
    if (err != std::errc() || ptr != last || pid <= 0 || pid > std::numeric_limits<pid_t>::max()) continue;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    for (fs::directory_iterator f(path, ignored), fend; !ignored && f != fend; f.increment(ignored)) {
      std::error_code e2;
      if (f->symlink_status(e2).type() == fs::file_type::regular) fs::remove(f->path(), e2);
    }
    fs::remove(path, ignored);  // fails, harmlessly, if something else was in it
  }
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
  db->read_only_ = options.read_only;
  rocksdb::Options opts;
  opts.create_if_missing = options.create_if_missing && !options.read_only;
  opts.create_missing_column_families = !options.read_only;
  opts.IncreaseParallelism(2);
  rocksdb::ColumnFamilyOptions counts_opts;
  counts_opts.merge_operator = std::make_shared<Add3>();
  counts_opts.compression = rocksdb::kLZ4Compression;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  rocksdb::ColumnFamilyOptions games_opts;
  games_opts.compression = rocksdb::kZSTD;
  rocksdb::ColumnFamilyOptions meta_opts;
  if (options.memory_bytes > 0) {
    // Half for the memtables of all column families together, half for a
    // cache that also holds the index and filter blocks: both would
    // otherwise grow with the number of table files, not with the budget.
    const size_t half = options.memory_bytes / 2;
    opts.db_write_buffer_size = std::max<size_t>(4 << 20, half);
    for (auto* cf : {&counts_opts, &games_opts, &meta_opts}) {
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
  counts_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
      {rocksdb::kDefaultColumnFamilyName, meta_opts},
      {"games", games_opts},
      {"counts", counts_opts}};
  // The pending family came with incremental counting: a reader of a
  // database written before it opens what is there.
  {
    std::vector<std::string> names;
    rocksdb::DB::ListColumnFamilies(opts, path, &names);
    if (!options.read_only || std::find(names.begin(), names.end(), "pending") != names.end())
      cfs.push_back({"pending", games_opts});
  }
  if (!options.create_if_missing && !std::filesystem::exists(path + "/CURRENT"))
    return Status::Error("no pattern database at " + path + " (create one with `sgfpat ingest --db " + path + "`)");
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (options.read_only) {
    opts.max_open_files = -1;  // required by secondary instances
    remove_stale_reader_dirs(std::filesystem::temp_directory_path());
    db->secondary_path_ = (std::filesystem::temp_directory_path() /
                           ("sgfpat-reader-" + std::to_string(::getpid()) + "-" +
                            std::to_string(reinterpret_cast<uintptr_t>(db.get()))))
                              .string();
    s = rocksdb::DB::OpenAsSecondary(opts, path, db->secondary_path_, cfs, &db->cf_, &raw);
    if (s.ok()) {
      db->db_.reset(raw);
      s = raw->TryCatchUpWithPrimary();
    }
  } else {
    s = rocksdb::DB::Open(opts, path, cfs, &db->cf_, &raw);
    if (s.ok()) db->db_.reset(raw);
  }
  if (!s.ok()) {
    std::string msg = s.ToString();
    if (msg.find("lock") != std::string::npos)
      return Status::Error("database " + path + " is in use by another writer (" + msg + ")");
    return Status::Error("cannot open database " + path + ": " + msg);
  }
  // Settings: recorded at creation, checked at every later open.
  std::string recorded;
  s = db->db_->Get(rocksdb::ReadOptions(), db->cf_[kMeta], "scheme", &recorded);
  if (s.IsNotFound()) {
    if (options.read_only) return Status::Error("database " + path + " has no key scheme (not an sgfpat database?)");
    db->settings_ = options.settings;
    s = db->db_->Put(rocksdb::WriteOptions(), db->cf_[kMeta], "scheme", encode_settings(options.settings));
    if (!s.ok()) return from_rocks(s, "writing the key scheme");
  } else if (!s.ok()) {
    return from_rocks(s, "reading the key scheme");
  } else {
    int format = 0;
    if (!decode_settings(recorded, &db->settings_, &format))
      return Status::Error("database " + path + " has an unreadable key scheme: '" + recorded + "'");
    if (format != kDbFormatVersion)
      return Status::Error("database " + path + " has format version " + std::to_string(format) +
                           ", this sgfpat reads version " + std::to_string(kDbFormatVersion));
    if (options.check_settings && !(db->settings_ == options.settings))
      return Status::Error("database " + path + " was created with " + db->settings_.scheme.describe() +
                           " min_played=" + std::to_string(db->settings_.min_played) + "; this run asks for " +
                           options.settings.scheme.describe() + " min_played=" +
                           std::to_string(options.settings.min_played) +
                           ". Keys of different schemes cannot be mixed: use another --db or the database's settings.");
  }
  Status st = db->load_meta();
  if (!st.ok()) return st;
  if (options.read_only) {
    // Counts reach a secondary through the MANIFEST (they are flushed, not
    // logged) and the generation switch through the WAL, which a catch-up
    // reads second: a switch seen in the WAL may belong to a flush this
    // catch-up missed.  Catching up again until the generation holds still
    // gives a view where the current generation's counts are all present.
    for (int i = 0; i < 100; ++i) {
      uint32_t gen = db->generation_;
      s = db->db_->TryCatchUpWithPrimary();
      if (!s.ok()) return from_rocks(s, "catching up with the writer");
      st = db->load_meta();
      if (!st.ok()) return st;
      if (db->generation_ == gen) break;
    }
  }
  *out = std::move(db);
  return Status::OK();
}

Status PatternDb::load_meta() {
  std::string v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "games", &v);
  game_count_ = s.ok() ? std::stoull(v) : 0;
  s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "moves", &v);
  move_count_ = s.ok() ? std::stoull(v) : 0;
  s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "generation", &v);
  generation_ = s.ok() ? uint32_t(std::stoul(v)) : 0;
  s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "summary", &v);
  if (!s.ok()) v.clear();
  Status st = decode_summary(v, &summary_);
  if (!st.ok()) return Status::Error(path_ + ": " + st.message());
  s = db_->Get(rocksdb::ReadOptions(), cf_[kMeta], "sketch", &v);
  sketch_file_ = s.ok() ? v : "";
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

Status PatternDb::add_games(const std::vector<std::pair<Fingerprint, std::string>>& records, uint64_t moves) {
  if (read_only_) return Status::Error("database opened read-only");
  rocksdb::WriteBatch batch;
  for (const auto& [fp, rec] : records) {
    const rocksdb::Slice key(reinterpret_cast<const char*>(fp.data()), fp.size());
    batch.Put(cf_[kGames], key, rec);
    batch.Put(cf_[kPending], key, "");
  }
  batch.Put(cf_[kMeta], "games", u64_string(game_count_ + records.size()));
  batch.Put(cf_[kMeta], "moves", u64_string(move_count_ + moves));
  auto s = db_->Write(rocksdb::WriteOptions(), &batch);
  if (!s.ok()) return from_rocks(s, "storing games");
  game_count_ += records.size();
  move_count_ += moves;
  return Status::OK();
}

Status PatternDb::for_each_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf_[kGames]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    if (!visit(fp, std::string_view(it->value().data(), it->value().size()))) break;
  }
  return from_rocks(it->status(), "reading games");
}

Status PatternDb::pending_count(uint64_t* n) {
  *n = 0;
  if (cf_.size() <= kPending) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf_[kPending]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++*n;
  return from_rocks(it->status(), "reading the pending games");
}

Status PatternDb::for_each_pending_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  if (cf_.size() <= kPending) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf_[kPending]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    rocksdb::PinnableSlice rec;
    auto s = db_->Get(rocksdb::ReadOptions(), cf_[kGames], it->key(), &rec);
    if (!s.ok())
      return Status::Error("pending game " + fingerprint_hex(fp) + " has no stored record: " + s.ToString());
    if (!visit(fp, std::string_view(rec.data(), rec.size()))) break;
  }
  return from_rocks(it->status(), "reading the pending games");
}

Status PatternDb::get(int level, uint64_t key, PatternCounts* counts, bool* found) {
  std::string v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf_[kCounts], counts_key(generation_, level, key), &v);
  *found = s.ok();
  if (s.ok() && !parse_counts(v, counts))
    return Status::Error(path_ + ": corrupt counts value (" + std::to_string(v.size()) + " bytes)");
  if (s.ok() || s.IsNotFound()) return Status::OK();
  return from_rocks(s, "reading counts");
}

Status PatternDb::for_each_count(int level,
                                 const std::function<bool(int, uint64_t, const PatternCounts&)>& visit) {
  return scan_counts(generation_, level, visit);
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
      return Status::Error(path_ + ": corrupt counts entry (key " + std::to_string(it->key().size()) + " bytes, value " +
                           std::to_string(it->value().size()) + " bytes)");
    parse_counts_key(it->key(), &lv, &key);
    if (!visit(lv, key, c)) break;
  }
  return from_rocks(it->status(), "reading counts");
}

Status PatternDb::begin_generation(uint32_t* gen) {
  if (read_only_) return Status::Error("database opened read-only");
  // Anything that is not the current generation is a leftover of an
  // interrupted count: drop it so the new generation starts from zero.
  rocksdb::WriteBatch batch;
  batch.DeleteRange(cf_[kCounts], counts_key(0, 0, 0), counts_key(generation_, 0, 0));
  batch.DeleteRange(cf_[kCounts], counts_key(generation_ + 1, 0, 0), std::string(kCountsKeyBytes, '\xff'));
  auto s = db_->Write(rocksdb::WriteOptions(), &batch);
  if (!s.ok()) return from_rocks(s, "clearing an interrupted count");
  *gen = generation_ + 1;
  return Status::OK();
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

Status PatternDb::write_sorted_counts(uint32_t gen, const std::function<Status(const CountSink&)>& produce) {
  if (read_only_) return Status::Error("database opened read-only");
  // In the database's folder, so that taking it in is a rename; a file left
  // by a killed run is overwritten by the next one.
  const std::string file = path_ + "/sgfpat-counts.sst.tmp";
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), db_->GetOptions(cf_[kCounts]), cf_[kCounts]);
  Status st = from_rocks(writer.Open(file), "writing counts to " + file);
  if (!st.ok()) return st;
  uint64_t written = 0;
  st = produce([&](int level, uint64_t key, const PatternCounts& c) {
    ++written;
    return from_rocks(writer.Put(counts_key(gen, level, key), CountsValue(c).slice()),
                      "writing counts to " + file);
  });
  if (st.ok() && written > 0) st = from_rocks(writer.Finish(), "writing counts to " + file);
  if (st.ok() && written > 0) {
    rocksdb::IngestExternalFileOptions io;
    io.move_files = true;
    st = from_rocks(db_->IngestExternalFile(cf_[kCounts], {file}, io), "taking in the counts");
  }
  std::error_code ec;
  std::filesystem::remove(file, ec);
  return st;
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
  batch.DeleteRange(cf_[kCounts], counts_key(0, 0, 0), counts_key(gen, 0, 0));
  // Fingerprints are 16 bytes: this range holds them all.
  batch.DeleteRange(cf_[kPending], std::string(), std::string(17, '\xff'));
  rocksdb::WriteOptions wo;
  wo.sync = true;
  s = db_->Write(wo, &batch);
  if (!s.ok()) return from_rocks(s, "switching to the new counts");
  generation_ = gen;
  summary_ = summary;
  sketch_file_ = sketch_file;
  {
    // Sketches of older generations, or of counts that never committed.
    std::error_code ec;
    for (auto& e : std::filesystem::directory_iterator(path_, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("sgfpat-played-", 0) == 0 && name != sketch_file) std::filesystem::remove(e.path(), ec);
    }
  }
  // Reclaim the old generation's space: its files go whole where they can,
  // then a compaction removes what is left of it (and folds the partial sums
  // of a generation written by add_counts()).
  const std::string old_begin = counts_key(0, 0, 0), old_end = counts_key(gen, 0, 0);
  const rocksdb::Slice begin(old_begin), end(old_end);
  rocksdb::DeleteFilesInRange(db_.get(), cf_[kCounts], &begin, &end);
  rocksdb::CompactRangeOptions cro;
  db_->CompactRange(cro, cf_[kCounts], nullptr, nullptr);
  return Status::OK();
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

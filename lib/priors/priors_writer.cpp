#include "priors/priors_writer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <ctime>
#include <functional>

#include "io/atomic_file.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat {

namespace {

// Unix seconds of the export; $SOURCE_DATE_EPOCH (the reproducible-builds
// convention) fixes it, so that two exports of equal counts are equal
// byte for byte (bench/incremental.sh compares them so).
int64_t export_time() {
  const char* fixed = std::getenv("SOURCE_DATE_EPOCH");
  if (fixed && *fixed) {
    char* end = nullptr;
    const long long t = std::strtoll(fixed, &end, 10);
    if (*end == '\0' && t >= 0) return int64_t(t);
  }
  return int64_t(std::time(nullptr));
}
// Share of the buckets' key slots in use: at 0.6 a look-up reads 1.03
// buckets on average for a present key, 1.1 for an absent one (simulated
// linear probing over 7-key buckets), for 31 bytes a pattern in all.
constexpr double kLoadFactor = 0.6;

// One level's hash table (format: sgfpat_priors.h): keys go to their home
// bucket, or to the next one with room (cyclically), and every bucket they
// pass is marked as overflowing so that look-ups know to go on.
struct LevelTables {
  std::vector<sgfpat_priors::Bucket> buckets;
  std::vector<sgfpat_priors::CountsRecord> counts;  // in bucket order
  uint32_t max_probe = 0;
};

LevelTables build_level(const std::vector<uint64_t>& keys, const std::vector<sgfpat_priors::CountsRecord>& recs) {
  using sgfpat_priors::kBucketKeys;
  LevelTables t;
  if (keys.empty()) return t;
  const uint64_t n_buckets = uint64_t(std::ceil(double(keys.size()) / (kBucketKeys * kLoadFactor)));
  t.buckets.assign(n_buckets, sgfpat_priors::Bucket{});
  std::vector<uint64_t> placed(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    uint64_t b = sgfpat_priors::bucket_of(keys[i], n_buckets);
    uint32_t probe = 1;
    while (t.buckets[b].used == kBucketKeys) {
      t.buckets[b].overflow = 1;
      b = b + 1 == n_buckets ? 0 : b + 1;
      ++probe;
    }
    t.buckets[b].keys[t.buckets[b].used++] = keys[i];
    placed[i] = b;
    t.max_probe = std::max(t.max_probe, probe);
  }
  // Counts records in bucket order, each bucket's keys in placement order.
  uint64_t base = 0;
  for (sgfpat_priors::Bucket& bk : t.buckets) {
    bk.base = uint32_t(base);
    base += bk.used;
  }
  t.counts.resize(keys.size());
  std::vector<uint8_t> filled(n_buckets, 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    const sgfpat_priors::Bucket& bk = t.buckets[placed[i]];
    t.counts[bk.base + filled[placed[i]]++] = recs[i];
  }
  return t;
}

Status write_priors_file(PatternDb& db, const PriorsExportOptions& options, const std::string& path,
                         PriorsExportSummary* summary) {
  using sgfpat_priors::CountsRecord;
  using sgfpat_priors::Header;
  const KeyScheme& scheme = db.settings().scheme;
  const int levels = options.levels > 0 ? std::min(options.levels, scheme.levels) : scheme.levels;
  const int min_played = std::max(options.min_played, db.settings().min_played);
  *summary = PriorsExportSummary{};
  summary->min_played = min_played;
  if (db.generation() == 0) return Status::NotFound("database " + db.path() + " has no counts yet (run ingest first)");

  Header h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, sgfpat_priors::kMagic, 8);
  // Without a model (sgfpat train adds one, as version 3) the file is
  // version 2, so that engines with the older reader keep loading it.
  h.version = sgfpat_priors::kOldestVersion;
  h.header_bytes = sgfpat_priors::kHeaderBytes;
  h.byte_order = sgfpat_priors::kByteOrderMark;
  h.levels = uint32_t(levels);
  h.seed = scheme.seed;
  h.symmetry = scheme.symmetry ? 1 : 0;
  h.min_played = uint32_t(min_played);
  h.min_seen = options.min_seen;
  h.games = db.summary().games;
  h.positions = db.summary().positions;
  h.candidates = db.summary().candidates;
  h.export_time = export_time();

  AtomicFile out;
  Status opened = out.open(path);
  if (!opened.ok()) return opened;
  out.write(&h, sizeof h);
  sgfpat_priors::Checksum64 sum;
  auto write = [&](const void* p, size_t n) {
    out.write(p, n);
    sum.update(p, n);
  };
  std::vector<uint64_t> keys;
  std::vector<CountsRecord> recs;
  for (int level = 1; level <= levels; ++level) {
    keys.clear();
    recs.clear();
    bool overflow = false;
    Status st = db.for_each_count(level, [&](int, uint64_t key, const PatternCounts& c) {
      if (c.played < uint64_t(min_played) || c.seen < options.min_seen) return true;
      if (c.played > UINT32_MAX || c.wins > UINT32_MAX) overflow = true;
      keys.push_back(key);
      recs.push_back(CountsRecord{c.seen, uint32_t(std::min<uint64_t>(c.played, UINT32_MAX)),
                                  uint32_t(std::min<uint64_t>(c.wins, UINT32_MAX))});
      return true;
    });
    if (!st.ok()) return st;
    if (overflow) return Status::NotSupported("level " + std::to_string(level) + " has a pattern played over 2^32 times");
    if (keys.size() > UINT32_MAX) return Status::NotSupported("level " + std::to_string(level) + " has over 2^32 patterns");
    if (std::adjacent_find(keys.begin(), keys.end(), std::greater_equal<>()) != keys.end())
      return Status::Corruption("level " + std::to_string(level) + ": counts are not in strictly increasing key order");
    LevelTables t = build_level(keys, recs);
    // Buckets start on a cache line (the mapping is page-aligned).
    static const char zeros[64] = {};
    write(zeros, size_t((64 - out.offset() % 64) % 64));
    sgfpat_priors::LevelTable& lt = h.level[level - 1];
    lt.patterns = keys.size();
    lt.buckets = t.buckets.size();
    lt.max_probe = t.max_probe;
    lt.buckets_offset = out.offset();
    write(t.buckets.data(), t.buckets.size() * sizeof(sgfpat_priors::Bucket));
    lt.counts_offset = out.offset();
    write(t.counts.data(), t.counts.size() * sizeof(CountsRecord));
    summary->patterns_per_level.push_back(keys.size());
    summary->max_probe_per_level.push_back(t.max_probe);
  }
  h.file_bytes = out.offset();
  h.data_checksum = sum.value();
  h.header_checksum = 0;
  h.header_checksum = sgfpat_priors::checksum64(&h, sizeof h);
  out.write_at(0, &h, sizeof h);
  Status committed = out.commit();
  if (!committed.ok()) return committed;
  summary->bytes = h.file_bytes;
  return Status::OK();
}

}  // namespace

Status write_priors(PatternDb& db, const PriorsExportOptions& options, const std::string& path,
                    PriorsExportSummary* summary) {
  try {
    return write_priors_file(db, options, path, summary);
  } catch (...) {
    return status_from_exception("writing " + path);
  }
}

}  // namespace sgfpat

// sgfpat_priors.h: a self-contained reader of sgfpat priors files.
//
// Copy this header into an engine (with sgfpat_features.h beside it to
// score moves with the learned model); it needs only the C++17 standard
// library (plus mmap on POSIX systems, with a plain read elsewhere).
//
//   sgfpat_priors::Priors priors;
//   std::string error;
//   if (!priors.open("go19.priors", &error)) { std::cerr << error; return 1; }
//   uint64_t keys[16];                 // keys[i] = pattern key of level i+1
//   ...fill keys for a candidate (same Zobrist scheme: priors.seed(), .symmetry())...
//   int m = priors.largest_level(keys, priors.levels());   // 0: no level known
//   sgfpat_priors::Counts c;
//   if (m > 0 && priors.lookup(m, keys[m - 1], &c))
//     double play_rate = double(c.played) / double(c.seen);
//
// An engine that scores all the legal moves of a position at once should use
// largest_levels() and lookup_many(): same answers, but the candidates' cache
// misses overlap instead of following one another.
//
// File layout (little-endian, version 3): a 1024-byte header (magic
// "SGFPRIOR", version, sizes, key scheme, thresholds, corpus summary, one
// LevelTable per level, data checksum, header checksum, where the model
// section is), then for each level
// a hash table of 64-byte buckets (64-byte aligned) and a dense counts array
// ({u64 seen, u32 played, u32 wins}).  A key's home bucket is
// bucket_of(key, buckets); a bucket holds up to 7 keys and the index of its
// first key's counts, and keys that find their home full go to the next
// bucket (cyclically), so a look-up usually reads one cache line of keys and
// one of counts.  open() validates the header and every table's bounds in
// O(levels), so a corrupt, truncated or foreign file is refused; look-ups
// bound every index they read by the tables' sizes, so even corrupt data is
// never read past its end.  verify() also checks the data checksum (reads the
// whole file).  Version 3 may end with a ModelSection (the weights learned by
// `sgfpat train`: its layout is below, what its feature groups mean and how
// a candidate's levels are computed is sgfpat_features.h); version-2 files
// are read as files without a model.
//
// kVersion and kOldestVersion are the priors file's entry in sgfpat's list
// of format versions (lib/core/format_version.h, kPriorsFormat; a test keeps
// them equal): this header cannot include that list, as it stands alone.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define SGFPAT_PRIORS_MMAP 1
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SGFPAT_PRIORS_PREFETCH(p) __builtin_prefetch(p)
#else
#define SGFPAT_PRIORS_PREFETCH(p) ((void)(p))
#endif

namespace sgfpat_priors {

inline constexpr char kMagic[8] = {'S', 'G', 'F', 'P', 'R', 'I', 'O', 'R'};
inline constexpr uint32_t kVersion = 3;         // written by sgfpat export/train
inline constexpr uint32_t kOldestVersion = 2;   // still read (no model)
inline constexpr uint32_t kHeaderBytes = 1024;
inline constexpr int kMaxLevels = 16;
inline constexpr uint32_t kByteOrderMark = 0x01020304;
inline constexpr int kBucketKeys = 7;

// Where one level's tables are.  buckets is 0 exactly when patterns is 0.
struct LevelTable {
  uint64_t patterns;        // keys of this level = records of its counts array
  uint64_t buckets;         // hash buckets
  uint64_t buckets_offset;  // byte offset of Bucket[buckets], 64-byte aligned
  uint64_t counts_offset;   // byte offset of CountsRecord[patterns]
  uint32_t max_probe;       // most buckets the search for a present key visits
  uint32_t reserved;
};
static_assert(sizeof(LevelTable) == 40, "level table layout");

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;
  uint64_t file_bytes;
  uint32_t byte_order;  // kByteOrderMark as written
  uint32_t levels;      // L of the key scheme
  uint64_t seed;        // Zobrist seed of the key scheme
  uint32_t symmetry;    // 1: keys are symmetry-invariant
  uint32_t min_played;  // thresholds applied at export
  uint64_t min_seen;
  uint64_t games;       // corpus summary
  uint64_t positions;
  uint64_t candidates;
  int64_t export_time;  // unix seconds
  LevelTable level[kMaxLevels];  // level[i]: patterns of level i+1
  uint64_t data_checksum;        // checksum64 of bytes [header_bytes, file_bytes)
  uint64_t header_checksum;      // checksum64 of the header with this field 0
  // Version 3: where the learned model is (0, 0: none).  Zero in version 2.
  uint64_t model_offset;         // byte offset of a ModelSection, 8-byte aligned
  uint64_t model_bytes;          // sizeof(ModelSection) or 0
  char reserved[kHeaderBytes - 760];
};
static_assert(sizeof(Header) == kHeaderBytes, "header layout");

// One cache line of a level's hash table.
struct Bucket {
  uint32_t base;      // index in the level's counts array of keys[0]'s record
  uint8_t used;       // keys[0..used) are in use (at most kBucketKeys)
  uint8_t overflow;   // 1: some key whose search passes here lies further on
  uint16_t reserved;
  uint64_t keys[kBucketKeys];
};
static_assert(sizeof(Bucket) == 64, "bucket layout");

struct CountsRecord {
  uint64_t seen;
  uint32_t played;
  uint32_t wins;
};
static_assert(sizeof(CountsRecord) == 16, "record layout");

struct Counts {
  uint64_t played = 0;
  uint64_t seen = 0;
  uint64_t wins = 0;
};

// The high 64 bits of a * b.
inline uint64_t mul_high64(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;
  return uint64_t((u128(a) * b) >> 64);
#else
  uint64_t a_lo = uint32_t(a), a_hi = a >> 32, b_lo = uint32_t(b), b_hi = b >> 32;
  uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  uint64_t cross = (lo_lo >> 32) + uint32_t(hi_lo) + lo_hi;
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

// The home bucket of `key` in a table of `buckets` (> 0) buckets.  Keys with
// symmetry on are the least of 8 hashes, so their high bits are skewed toward
// 0: mix them before scaling the hash to [0, buckets).
inline uint64_t bucket_of(uint64_t key, uint64_t buckets) {
  uint64_t h = (key ^ (key >> 32)) * 0x9E3779B97F4A7C15ULL;
  return mul_high64(h, buckets);
}

// A fast 64-bit checksum over 8-byte words, fed in pieces whose sizes are
// multiples of 8 (the last piece may be shorter).
class Checksum64 {
 public:
  void update(const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h_ = (h_ ^ w) * 0x100000001b3ULL;
      h_ ^= h_ >> 29;
    }
    if (i < n) {
      uint64_t w = 0;
      std::memcpy(&w, p + i, n - i);
      h_ = (h_ ^ w) * 0x100000001b3ULL;
      h_ ^= h_ >> 29;
    }
    total_ += n;
  }
  uint64_t value() const {
    uint64_t h = (h_ ^ (total_ << 8)) * 0x100000001b3ULL;
    return h ^ (h >> 31);
  }

 private:
  uint64_t h_ = 0x736766707269ULL;
  uint64_t total_ = 0;
};

inline uint64_t checksum64(const void* data, size_t n) {
  Checksum64 c;
  c.update(data, n);
  return c.value();
}

// ---------------------------------------------------------------------------
// The model section (format version 3): the weights of the learned model's
// feature groups.  Group g has kGroupLevels[g] levels and level v of it the
// weight weights[group_offset(g) + v] (a natural logarithm).  What each
// group's level is, and how a candidate's strength follows from the
// weights, is sgfpat_features.h (feature set kFeatureSet).
enum FeatureGroup : int {
  kPatternBin = 0,
  kLevel,
  kCapture,
  kExtension,
  kAtari,
  kSelfAtari,
  kLiberties,
  kDistPrev,
  kDistPrev2,
  kEdge,
  kKo,
  kFeatureGroups
};
inline constexpr int kGroupLevels[kFeatureGroups] = {80, 17, 7, 5, 3, 3, 4, 17, 17, 5, 2};
inline constexpr int kModelWeights = 80 + 17 + 7 + 5 + 3 + 3 + 4 + 17 + 17 + 5 + 2;
inline constexpr uint32_t kFeatureSet = 1;
// A weight is in [-kMaxModelWeight, kMaxModelWeight] (training keeps it
// there, a reader refuses a model with one outside): a candidate's strength,
// its rate times exp(the sum of its kFeatureGroups weights), then stays
// finite (at most e^330), and so do the sums that normalise it.
inline constexpr double kMaxModelWeight = 30;

inline const char* feature_group_name(int g) {
  static const char* names[kFeatureGroups] = {"pattern", "level",     "capture",   "extension", "atari", "self-atari",
                                              "liberties", "dist-prev", "dist-prev2", "edge",      "ko"};
  return g >= 0 && g < kFeatureGroups ? names[g] : "?";
}
// The group named `name` (as feature_group_name() names it), or -1.
inline int feature_group_by_name(const std::string& name) {
  for (int g = 0; g < kFeatureGroups; ++g)
    if (name == feature_group_name(g)) return g;
  return -1;
}
// Index of group g's first weight in ModelSection::weights.
inline constexpr int group_offset(int g) {
  int o = 0;
  for (int i = 0; i < g; ++i) o += kGroupLevels[i];
  return o;
}

// The model section of a version-3 file (8-byte aligned, covered by the
// data checksum).
struct ModelSection {
  char magic[8];          // "SGFMODEL"
  uint32_t feature_set;   // kFeatureSet: the definitions of sgfpat_features.h
  uint32_t groups;        // kFeatureGroups
  uint32_t group_levels[16];  // kGroupLevels, then zeros
  double smoothing;       // `a` of smoothed_estimate() the weights go with
  uint64_t train_games;   // provenance: the training sample
  uint64_t train_positions;
  uint64_t train_seed;
  double weights[kModelWeights];  // group g, level v: weights[group_offset(g) + v]
};
inline constexpr char kModelMagic[8] = {'S', 'G', 'F', 'M', 'O', 'D', 'E', 'L'};

// p_0 = base; p_i = (played_i + a p_{i-1}) / (seen_i + a) for i = 1..m, with
// counts[i-1] the counts of level i.  Counts no export writes (a damaged or
// forged file: played above seen, a level never seen with a = 0) do not take
// p out of [0, 1] when base is in it: played counts as at most seen, and a
// level with seen + a = 0 leaves p as it was.
inline double smoothed_estimate(const Counts* counts, int m, double base, double a) {
  double p = base;
  for (int i = 0; i < m; ++i) {
    const uint64_t seen = counts[i].seen;
    const uint64_t played = counts[i].played < seen ? counts[i].played : seen;
    if (double(seen) + a > 0) p = (double(played) + a * p) / (double(seen) + a);
  }
  return p;
}

class Priors {
 public:
  Priors() = default;
  Priors(const Priors&) = delete;
  Priors& operator=(const Priors&) = delete;
  ~Priors() { close(); }

  // Maps and validates a priors file; false with *error set if it is not one.
  // Reads only the header: cost independent of the file's size.
  bool open(const std::string& path, std::string* error) {
    close();
#ifdef SGFPAT_PRIORS_MMAP
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return fail(error, path + ": cannot open: " + std::strerror(errno));
    struct stat st;
    if (::fstat(fd, &st) != 0 || st.st_size <= 0) {
      ::close(fd);
      return fail(error, path + ": empty or unreadable file");
    }
    void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) return fail(error, path + ": cannot map: " + std::strerror(errno));
    map_ = p;
    map_size_ = size_t(st.st_size);
    // Look-ups hit random buckets all over the file: on a cold file, start
    // reading it all in the background (it does not block) rather than fault
    // page by page (10x slower first look-ups than this, with MADV_RANDOM).
    ::madvise(p, map_size_, MADV_WILLNEED);
    return attach(p, map_size_, path, error);
#else
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return fail(error, path + ": cannot open");
    std::vector<unsigned char> buf;
    unsigned char chunk[1 << 16];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) buf.insert(buf.end(), chunk, chunk + n);
    std::fclose(f);
    owned_.assign(buf.size() / 8 + 1, 0);
    std::memcpy(owned_.data(), buf.data(), buf.size());
    return attach(owned_.data(), buf.size(), path, error);
#endif
  }

  void close() {
#ifdef SGFPAT_PRIORS_MMAP
    if (map_) ::munmap(map_, map_size_);
#endif
    map_ = nullptr;
    map_size_ = 0;
    base_ = nullptr;
    header_ = nullptr;
    model_ = nullptr;
  }

  bool is_open() const { return header_ != nullptr; }
  const Header& header() const { return *header_; }
  int levels() const { return int(header_->levels); }
  uint64_t seed() const { return header_->seed; }
  bool symmetry() const { return header_->symmetry != 0; }
  uint64_t count(int level) const { return level >= 1 && level <= levels() ? tables_[level - 1].patterns : 0; }
  // Overall play rate: positions / candidates (the prior of a move no level knows).
  double base_rate() const {
    return header_->candidates ? double(header_->positions) / double(header_->candidates) : 0.0;
  }

  // The learned model of a version-3 file, or null (version 2, or exported
  // without training).
  const ModelSection* model() const { return model_; }

  // Counts of the level-`level` pattern with this key, if present.
  bool lookup(int level, uint64_t key, Counts* out) const {
    int64_t i = find(level, key);
    if (i < 0) return false;
    *out = counts_at(level, uint64_t(i));
    return true;
  }
  bool contains(int level, uint64_t key) const { return find(level, key) >= 0; }

  // The largest m in 1..max_level with keys[m-1] present, by binary search:
  // presence is closed under smaller levels.  0 when level 1 is absent.
  int largest_level(const uint64_t* keys, int max_level) const {
    int lo = 0, hi = max_level < levels() ? max_level : levels();
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (contains(mid, keys[mid - 1])) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  // The same by scanning upward (for tests and comparison).
  int largest_level_linear(const uint64_t* keys, int max_level) const {
    int m = 0;
    int top = max_level < levels() ? max_level : levels();
    while (m < top && contains(m + 1, keys[m])) ++m;
    return m;
  }

  // Batched largest_level() for n candidates: out[c] =
  // largest_level(keys + c * stride, max_level) for c < n, where candidate
  // c's key of level l is keys[c * stride + l - 1] (stride >= the levels
  // searched).  The candidates' binary searches advance in lockstep and each
  // probe is prefetched a round ahead, so their cache misses overlap.
  void largest_levels(const uint64_t* keys, size_t stride, int max_level, size_t n, int* out) const {
    const int top = max_level < levels() ? max_level : levels();
    for (size_t c0 = 0; c0 < n; c0 += kBatch) {
      const size_t m = n - c0 < kBatch ? n - c0 : kBatch;
      const uint64_t* k = keys + c0 * stride;
      int lo[kBatch], hi[kBatch];
      uint64_t bucket[kBatch];
      size_t active[kBatch], n_active = 0;
      for (size_t i = 0; i < m; ++i) {
        lo[i] = 0;
        hi[i] = top;
        if (top > 0) {
          const int mid = (top + 1) / 2;
          bucket[i] = prefetch_bucket(mid, k[i * stride + size_t(mid) - 1]);
          active[n_active++] = i;
        }
      }
      while (n_active > 0) {
        size_t still = 0;
        for (size_t a = 0; a < n_active; ++a) {
          const size_t i = active[a];
          int mid = (lo[i] + hi[i] + 1) / 2;
          if (find_from(mid, bucket[i], k[i * stride + size_t(mid) - 1]) >= 0) lo[i] = mid;
          else hi[i] = mid - 1;
          if (lo[i] < hi[i]) {
            mid = (lo[i] + hi[i] + 1) / 2;
            bucket[i] = prefetch_bucket(mid, k[i * stride + size_t(mid) - 1]);
            active[still++] = i;
          }
        }
        n_active = still;
      }
      for (size_t i = 0; i < m; ++i) out[c0 + i] = lo[i];
    }
  }

  // Batched lookup(): found[i] = lookup(levels[i], keys[i], &out[i]) for
  // i < n, with the misses overlapped.  out[i] is left alone when the key is
  // absent; found may be null.
  void lookup_many(const int* levels, const uint64_t* keys, size_t n, Counts* out, bool* found) const {
    for (size_t i0 = 0; i0 < n; i0 += kBatch) {
      const size_t m = n - i0 < kBatch ? n - i0 : kBatch;
      uint64_t bucket[kBatch];
      int64_t record[kBatch];
      for (size_t i = 0; i < m; ++i) bucket[i] = prefetch_bucket(levels[i0 + i], keys[i0 + i]);
      for (size_t i = 0; i < m; ++i) {
        record[i] = find_from(levels[i0 + i], bucket[i], keys[i0 + i]);
        if (record[i] >= 0) SGFPAT_PRIORS_PREFETCH(&counts_[levels[i0 + i] - 1][record[i]]);
      }
      for (size_t i = 0; i < m; ++i) {
        if (found) found[i0 + i] = record[i] >= 0;
        if (record[i] >= 0) out[i0 + i] = counts_at(levels[i0 + i], uint64_t(record[i]));
      }
    }
  }

  // Checks the data checksum (reads every byte).
  bool verify(std::string* error) const {
    if (!header_) return fail(error, "no priors file open");
    const unsigned char* b = static_cast<const unsigned char*>(base_);
    if (checksum64(b + kHeaderBytes, size_t(header_->file_bytes) - kHeaderBytes) != header_->data_checksum)
      return fail(error, "priors data checksum mismatch (corrupt file)");
    return true;
  }

 private:
  // Candidates (or keys) in flight in the batched calls: enough misses to
  // keep the memory system busy, few enough for their lines to stay in L1.
  static constexpr size_t kBatch = 64;

  static bool fail(std::string* error, const std::string& msg) {
    if (error) *error = msg;
    return false;
  }

  bool attach(const void* data, size_t size, const std::string& name, std::string* error) {
    if (reinterpret_cast<uintptr_t>(data) % 8 != 0) return fail(error, name + ": data not 8-byte aligned");
    if (size < kHeaderBytes) return fail(error, name + ": too short to be a priors file (" + std::to_string(size) + " bytes)");
    const Header* h = static_cast<const Header*>(data);
    if (std::memcmp(h->magic, kMagic, 8) != 0) return fail(error, name + ": not an sgfpat priors file (bad magic)");
    if (h->byte_order != kByteOrderMark) return fail(error, name + ": written on a machine of another byte order");
    if (h->version < kOldestVersion || h->version > kVersion)
      return fail(error, name + ": priors format version " + std::to_string(h->version) + ", this reader reads " +
                             std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) +
                             " (export the priors again)");
    Header copy;
    std::memcpy(&copy, h, sizeof copy);
    copy.header_checksum = 0;
    if (checksum64(&copy, sizeof copy) != h->header_checksum) return fail(error, name + ": header checksum mismatch (corrupt file)");
    if (h->header_bytes != kHeaderBytes || h->file_bytes != size)
      return fail(error, name + ": truncated or extended file (header says " + std::to_string(h->file_bytes) +
                             " bytes, file has " + std::to_string(size) + ")");
    if (h->levels < 1 || h->levels > uint32_t(kMaxLevels)) return fail(error, name + ": bad level count");
    for (uint32_t l = 0; l < h->levels; ++l) {
      const LevelTable& t = h->level[l];
      // Sizes are bounded by the file before they are multiplied, so the
      // products below cannot wrap.
      bool ok = t.patterns <= size / 16 && t.patterns <= UINT32_MAX && t.buckets <= size / 64 &&
                (t.patterns == 0) == (t.buckets == 0) && t.patterns <= t.buckets * kBucketKeys &&
                t.max_probe <= t.buckets && (t.buckets == 0 || t.max_probe >= 1) &&
                in_bounds(t.buckets_offset, t.buckets * 64, size) && in_bounds(t.counts_offset, t.patterns * 16, size) &&
                t.buckets_offset % 64 == 0 && t.counts_offset % 8 == 0;
      if (!ok) return fail(error, name + ": level " + std::to_string(l + 1) + " table out of bounds (corrupt file)");
    }
    const ModelSection* model = nullptr;
    if (h->version >= 3 && (h->model_offset != 0 || h->model_bytes != 0)) {
      if (h->model_bytes != sizeof(ModelSection) || h->model_offset % 8 != 0 ||
          !in_bounds(h->model_offset, h->model_bytes, size))
        return fail(error, name + ": model section out of bounds (corrupt file)");
      model = reinterpret_cast<const ModelSection*>(static_cast<const unsigned char*>(data) + h->model_offset);
      std::string why = check_model(*model);
      if (!why.empty()) return fail(error, name + ": " + why);
    }
    model_ = model;
    base_ = data;
    header_ = h;
    const unsigned char* b = static_cast<const unsigned char*>(data);
    for (uint32_t l = 0; l < h->levels; ++l) {
      tables_[l] = h->level[l];
      buckets_[l] = reinterpret_cast<const Bucket*>(b + h->level[l].buckets_offset);
      counts_[l] = reinterpret_cast<const CountsRecord*>(b + h->level[l].counts_offset);
    }
    return true;
  }
  static std::string check_model(const ModelSection& m) {
    if (std::memcmp(m.magic, kModelMagic, 8) != 0) return "model section has a bad magic (corrupt file)";
    if (m.feature_set != kFeatureSet)
      return "model of feature set " + std::to_string(m.feature_set) + ", this reader knows " +
             std::to_string(kFeatureSet) + " (update sgfpat_priors.h and sgfpat_features.h)";
    if (m.groups != uint32_t(kFeatureGroups)) return "model has " + std::to_string(m.groups) + " feature groups";
    for (int g = 0; g < kFeatureGroups; ++g)
      if (m.group_levels[g] != uint32_t(kGroupLevels[g])) return "model feature group sizes differ (corrupt file)";
    if (!(m.smoothing >= 0 && m.smoothing < 1e9)) return "model smoothing out of range (corrupt file)";
    for (double w : m.weights)
      if (!(w >= -kMaxModelWeight && w <= kMaxModelWeight)) return "model weight out of range (corrupt file)";
    return "";
  }
  static bool in_bounds(uint64_t off, uint64_t len, uint64_t size) {
    return off >= kHeaderBytes && off <= size && len <= size - off;
  }

  Counts counts_at(int level, uint64_t record) const {
    const CountsRecord& r = counts_[level - 1][record];
    return Counts{r.played, r.seen, r.wins};
  }

  // Index of the key's counts record, or -1.
  int64_t find(int level, uint64_t key) const {
    if (level < 1 || level > levels() || tables_[level - 1].buckets == 0) return -1;
    return find_from(level, bucket_of(key, tables_[level - 1].buckets), key);
  }

  // The key's home bucket, its line prefetched; find_from() takes it on.
  uint64_t prefetch_bucket(int level, uint64_t key) const {
    if (level < 1 || level > levels() || tables_[level - 1].buckets == 0) return 0;
    uint64_t b = bucket_of(key, tables_[level - 1].buckets);
    SGFPAT_PRIORS_PREFETCH(&buckets_[level - 1][b]);
    return b;
  }

  // find() from the key's home bucket `b`.  A bucket without the overflow
  // mark ends the search; max_probe bounds it even in corrupt data.
  int64_t find_from(int level, uint64_t b, uint64_t key) const {
    if (level < 1 || level > levels()) return -1;
    const LevelTable& t = tables_[level - 1];
    const Bucket* buckets = buckets_[level - 1];
    for (uint32_t probe = 0; probe < t.max_probe; ++probe) {
      const Bucket& bk = buckets[b];
      const unsigned used = bk.used < kBucketKeys ? bk.used : unsigned(kBucketKeys);
      for (unsigned i = 0; i < used; ++i)
        if (bk.keys[i] == key) {
          uint64_t r = uint64_t(bk.base) + i;
          return r < t.patterns ? int64_t(r) : -1;
        }
      if (!bk.overflow) return -1;
      if (++b == t.buckets) b = 0;
    }
    return -1;
  }

  void* map_ = nullptr;
  size_t map_size_ = 0;
  std::vector<uint64_t> owned_;
  const void* base_ = nullptr;
  const Header* header_ = nullptr;
  const ModelSection* model_ = nullptr;
  LevelTable tables_[kMaxLevels] = {};
  const Bucket* buckets_[kMaxLevels] = {};
  const CountsRecord* counts_[kMaxLevels] = {};
};

}  // namespace sgfpat_priors

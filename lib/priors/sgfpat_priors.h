// sgfpat_priors.h: a self-contained reader of sgfpat priors files.
//
// Copy this one header into an engine; it needs only the C++17 standard
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
// `sgfpat train`, see "The learned model" below); version-2 files are read
// as files without a model.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cmath>
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
// The learned model (format version 3) and the features it scores.
//
// A candidate move's strength is
//     p * exp(sum over groups g of weight[g][level_g])
// and its probability is its strength over the sum of the strengths of all
// the legal moves of the position.  p is the smoothed play rate of the
// candidate's patterns (smoothed_estimate(): levels 1..m, m the largest
// level known, a = ModelSection::smoothing; the base rate when m = 0), and
// level_g is the candidate's level in feature group g, all defined below on
// the position *before* the move, for the player to move ("own" stones are
// that player's).  A chain is a maximal set of same-colored stones connected
// through their 4 neighbours; its liberties are the distinct empty points
// next to it.  "After the move" means after the stone is placed and the
// opponent chains left without a liberty are removed.
//
//   pattern    bin of p: min(79, floor(-4 log2 p)) (4 bins an octave)
//   level      m, the largest known pattern level (0..16)
//   capture    0 none; else by the stones removed by the move, 1: 1 stone,
//              2: 2-3, 3: 4 or more; plus 3 (4..6) when one of the removed
//              chains touched an own chain that had one liberty (the
//              capture saves it)
//   extension  the move touches an own chain with one liberty and the
//              move's chain has 2 or more liberties after the move:
//              1: that chain (the largest such) is 1 stone and 2 liberties
//              after, 2: 1 stone and 3+, 3: 2+ stones and 2, 4: 2+ stones
//              and 3+; otherwise 0
//   atari      the move touches an opponent chain with exactly two
//              liberties (it is left with one): 1 when the largest such is
//              1 stone, 2 when 2 or more; otherwise 0
//   self-atari the move's chain has at most one liberty after the move and
//              the move does not take a ko (below): 1 when that chain is
//              1 stone, 2 when it is 2 or more; otherwise 0.  The throw-in
//              of a snapback is 1, the capture that walks into it too.
//   liberties  the move's chain's liberties after the move: 0: 0 or 1,
//              1: 2, 2: 3, 3: 4 or more
//   dist-prev  d = |dx| + |dy| + max(|dx|, |dy|) from the previous move
//              (Coulom's distance): max(1, min(d, 17) - 1) (d = 0 happens
//              when that stone was captured), or 0 when there is no
//              previous move or it was a pass
//   dist-prev2 the same for the move before the previous one
//   edge       min(x, y, size-1-x, size-1-y) capped at 4 (0: first line)
//   ko         1 when the move takes a ko: it removes exactly one stone,
//              touches no own stone, and is left with exactly one
//              liberty; otherwise 0
//
// Weights are natural logarithms; an engine may drop a group by treating
// its weights as 0.  Tactics computes the tactical groups from a board
// array; the reader scores candidates with log_strength().

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
inline constexpr int kPatternBinsPerOctave = 4;

inline const char* feature_group_name(int g) {
  static const char* names[kFeatureGroups] = {"pattern", "level",     "capture",   "extension", "atari", "self-atari",
                                              "liberties", "dist-prev", "dist-prev2", "edge",      "ko"};
  return g >= 0 && g < kFeatureGroups ? names[g] : "?";
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
  uint32_t feature_set;   // kFeatureSet: the definitions above
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
// counts[i-1] the counts of level i.
inline double smoothed_estimate(const Counts* counts, int m, double base, double a) {
  double p = base;
  for (int i = 0; i < m; ++i) p = (double(counts[i].played) + a * p) / (double(counts[i].seen) + a);
  return p;
}

inline int pattern_bin(double p) {
  if (!(p > 0)) return kGroupLevels[kPatternBin] - 1;
  double b = -double(kPatternBinsPerOctave) * std::log2(p);
  if (b < 0) return 0;
  return b >= double(kGroupLevels[kPatternBin] - 1) ? kGroupLevels[kPatternBin] - 1 : int(b);
}

// Sum of the weights of a candidate's levels (levels[g] for every group),
// leaving out the groups whose bit is set in `skip` (ablation).
inline double log_strength(const ModelSection& m, const uint8_t* levels, uint32_t skip = 0) {
  double s = 0;
  int o = 0;
  for (int g = 0; g < kFeatureGroups; ++g) {
    if (!(skip >> g & 1u)) s += m.weights[o + levels[g]];
    o += kGroupLevels[g];
  }
  return s;
}

// Coulom's distance between two points of a size-wide board array.
inline int move_distance(int a, int b, int size) {
  int dx = a % size - b % size, dy = a / size - b / size;
  dx = dx < 0 ? -dx : dx;
  dy = dy < 0 ? -dy : dy;
  return dx + dy + (dx > dy ? dx : dy);
}

// The tactical feature groups (capture .. ko) of the moves of one position,
// from a board array: board[y * size + x] is 0 empty, 1 black, 2 white.
// setup() labels the chains once (O(points)); compute() then costs a few
// neighbour visits per candidate.  Not thread-safe; one per thread.
class Tactics {
 public:
  static constexpr int kMaxSize = 25;
  // prev1, prev2: points (y * size + x) of the previous move and the one
  // before, -1 for none or a pass.  to_move: 1 black, 2 white.
  void setup(const uint8_t* board, int size, int to_move, int prev1, int prev2) {
    n_ = size;
    s_ = size + 2;
    own_ = uint8_t(to_move);
    prev1_ = prev1;
    prev2_ = prev2;
    for (int i = 0; i < s_ * s_; ++i) color_[i] = kOff;
    for (int y = 0; y < n_; ++y)
      for (int x = 0; x < n_; ++x) color_[(y + 1) * s_ + x + 1] = board[y * n_ + x];
    int chains = 0;
    for (int i = 0; i < s_ * s_; ++i) mark_[i] = 0xFFFF;
    for (int i = s_; i < s_ * (s_ - 1); ++i) {
      if (color_[i] != 1 && color_[i] != 2) continue;
      if (mark_[i] != 0xFFFF) continue;
      // Flood the chain, linking its stones through next_.
      const uint16_t id = uint16_t(chains++);
      Chain& ch = chain_[id];
      ch = Chain{};
      ch.first = uint16_t(i);
      int stack[kPad * kPad];
      int top = 0, last = i;
      stack[top++] = i;
      mark_[i] = id;
      next_[i] = uint16_t(i);
      while (top > 0) {
        const int p = stack[--top];
        ch.stones++;
        const int nb[4] = {p - s_, p + 1, p + s_, p - 1};
        for (int q : nb)
          if (color_[q] == color_[i] && mark_[q] == 0xFFFF) {
            mark_[q] = id;
            next_[last] = uint16_t(q);
            next_[q] = uint16_t(i);
            last = q;
            stack[top++] = q;
          }
      }
    }
    // Liberties, each counted once: lib_mark_ remembers the last chain that counted it.
    for (int i = 0; i < s_ * s_; ++i) lib_mark_[i] = 0xFFFF;
    for (int id = 0; id < chains; ++id) {
      Chain& ch = chain_[id];
      int p = ch.first;
      do {
        const int nb[4] = {p - s_, p + 1, p + s_, p - 1};
        for (int q : nb)
          if (color_[q] == 0 && lib_mark_[q] != id) {
            lib_mark_[q] = uint16_t(id);
            if (ch.libs < 4) ch.lib[ch.libs] = uint16_t(q);
            ch.libs++;
          }
        p = next_[p];
      } while (p != ch.first);
    }
  }

  // Sets out[kCapture .. kKo] for a legal move of the player to move at
  // point (y * size + x); the other entries are left alone.
  void compute(int point, uint8_t* out) const {
    const int q = (point / n_ + 1) * s_ + point % n_ + 1;
    const uint8_t opp = uint8_t(3 - own_);
    uint16_t seen_ids[4];
    int n_seen = 0;
    uint16_t own_ids[4];
    int n_own = 0;
    uint16_t cap_ids[4];
    int n_cap = 0;
    int libs[24];
    int n_libs = 0;
    bool many = false;
    int merged = 1, captured = 0, own_atari = 0, atari = 0;
    auto add_lib = [&](int p) {
      if (p == q || many) return;
      for (int i = 0; i < n_libs; ++i)
        if (libs[i] == p) return;
      libs[n_libs++] = p;
      if (n_libs >= 4) many = true;
    };
    const int nb[4] = {q - s_, q + 1, q + s_, q - 1};
    for (int p : nb) {
      const uint8_t c = color_[p];
      if (c == 0) {
        add_lib(p);
        continue;
      }
      if (c == kOff) continue;
      const uint16_t id = mark_[p];
      bool dup = false;
      for (int i = 0; i < n_seen; ++i) dup |= seen_ids[i] == id;
      if (dup) continue;
      seen_ids[n_seen++] = id;
      const Chain& ch = chain_[id];
      if (c == own_) {
        own_ids[n_own++] = id;
        merged += ch.stones;
        if (ch.libs == 1 && ch.stones > own_atari) own_atari = ch.stones;
        if (ch.libs > 4) many = true;
        else
          for (int i = 0; i < ch.libs; ++i) add_lib(ch.lib[i]);
      } else if (c == opp) {
        if (ch.libs == 1) {
          cap_ids[n_cap++] = id;
          captured += ch.stones;
        } else if (ch.libs == 2 && ch.stones > atari) {
          atari = ch.stones;
        }
      }
    }
    bool saves = false;
    for (int k = 0; k < n_cap; ++k) {
      // A removed stone becomes a liberty when it touches the move's chain.
      int p = chain_[cap_ids[k]].first;
      do {
        const int nb2[4] = {p - s_, p + 1, p + s_, p - 1};
        for (int r : nb2) {
          if (r == q) add_lib(p);
          else if (color_[r] == own_) {
            const uint16_t id = mark_[r];
            if (chain_[id].libs == 1) saves = true;
            for (int i = 0; i < n_own; ++i)
              if (own_ids[i] == id) add_lib(p);
          }
        }
        p = next_[p];
      } while (p != chain_[cap_ids[k]].first);
    }
    const int after = many ? 4 : n_libs;
    const bool ko = captured == 1 && merged == 1 && after == 1;
    out[kCapture] = uint8_t(captured == 0 ? 0 : (captured == 1 ? 1 : captured <= 3 ? 2 : 3) + (saves ? 3 : 0));
    out[kExtension] =
        uint8_t(own_atari == 0 || after < 2 ? 0 : (own_atari == 1 ? 1 : 3) + (after >= 3 ? 1 : 0));
    out[kAtari] = uint8_t(atari == 0 ? 0 : atari == 1 ? 1 : 2);
    out[kSelfAtari] = uint8_t(after > 1 || ko ? 0 : merged == 1 ? 1 : 2);
    out[kLiberties] = uint8_t(after <= 1 ? 0 : after - 1);
    out[kDistPrev] = distance_level(point, prev1_);
    out[kDistPrev2] = distance_level(point, prev2_);
    const int x = point % n_, y = point / n_;
    out[kEdge] = uint8_t(std::min(std::min(std::min(x, y), std::min(n_ - 1 - x, n_ - 1 - y)), 4));
    out[kKo] = ko ? 1 : 0;
  }

 private:
  uint8_t distance_level(int point, int prev) const {
    if (prev < 0) return 0;
    const int d = move_distance(point, prev, n_);
    return uint8_t(d <= 2 ? 1 : d >= 17 ? 16 : d - 1);
  }
  static constexpr int kPad = kMaxSize + 2;
  static constexpr uint8_t kOff = 3;
  struct Chain {
    uint16_t first = 0;   // a stone; next_ links the others in a cycle
    uint16_t stones = 0;
    uint16_t libs = 0;    // exact liberty count
    uint16_t lib[4] = {};  // the first 4 liberties found
  };
  int n_ = 0, s_ = 0;
  uint8_t own_ = 1;
  int prev1_ = -1, prev2_ = -1;
  uint8_t color_[kPad * kPad];
  uint16_t mark_[kPad * kPad];      // chain id of a stone
  uint16_t lib_mark_[kPad * kPad];
  uint16_t next_[kPad * kPad];
  Chain chain_[kPad * kPad];
};

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
             std::to_string(kFeatureSet) + " (update sgfpat_priors.h)";
    if (m.groups != uint32_t(kFeatureGroups)) return "model has " + std::to_string(m.groups) + " feature groups";
    for (int g = 0; g < kFeatureGroups; ++g)
      if (m.group_levels[g] != uint32_t(kGroupLevels[g])) return "model feature group sizes differ (corrupt file)";
    if (!(m.smoothing >= 0 && m.smoothing < 1e9)) return "model smoothing out of range (corrupt file)";
    for (double w : m.weights)
      if (!(w > -100 && w < 100)) return "model weight out of range (corrupt file)";
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

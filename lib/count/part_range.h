// Which part of the kept set a pattern belongs to when it is counted in
// parts (key_parts.h): a range of its level-kSplitLevel pattern's key.
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace sgfpat {

inline constexpr int kSplitLevel = 3;

// Where a split-level key falls in [0, 2^64): the keys of canonical
// (symmetric) patterns are minima of several hashes, so they are spread
// first (an odd multiplier: a bijection).
inline uint64_t part_hash(uint64_t split_key) { return split_key * 0x9E3779B97F4A7C15ull; }

// Where a kept list has to name a pattern's part before the parts are
// chosen (the shards' kept lists, count/record_file.h): one of 64 buckets,
// the top bits of part_hash(); parts are then runs of buckets.
inline constexpr int kPartBucketBits = 6;
inline constexpr int kPartBuckets = 1 << kPartBucketBits;
inline int part_bucket(uint64_t split_key) { return int(part_hash(split_key) >> (64 - kPartBucketBits)); }

// The split-level keys whose part_hash() is in [lo, hi] (also the keys of
// one level the frontier index's build reads in ranges, count/kept_keys.h).
struct PartRange {
  uint64_t lo = 0, hi = ~uint64_t(0);
  bool contains(uint64_t split_key) const {
    const uint64_t h = part_hash(split_key);
    return h >= lo && h <= hi;
  }
  // Part `p` (0-based) of `parts` equal ranges.
  static PartRange share(int p, int parts) {
    const unsigned __int128 span = (unsigned __int128)1 << 64;
    PartRange r;
    r.lo = uint64_t(span * unsigned(p) / unsigned(parts));
    r.hi = uint64_t(span * unsigned(p + 1) / unsigned(parts) - 1);
    return r;
  }
  // The keys of buckets first..last.
  static PartRange buckets(int first, int last) {
    PartRange r;
    r.lo = uint64_t(first) << (64 - kPartBucketBits);
    r.hi = last + 1 >= kPartBuckets ? ~uint64_t(0) : (uint64_t(last + 1) << (64 - kPartBucketBits)) - 1;
    return r;
  }
};

// Parts of the buckets for work that holds a part in memory (a night's
// crossing, a catch-up): runs of consecutive buckets, each as long as its
// sizes sum to at most `fit` (a larger bucket alone), every bucket with a
// size in one run and a run starting at one (buckets without a size cost a
// part nothing); each such bucket alone when `one_each`.  (first, last)
// bucket of each run, in order.
inline std::vector<std::pair<int, int>> bucket_runs(const std::array<uint64_t, kPartBuckets>& sizes, uint64_t fit,
                                                    bool one_each) {
  std::vector<std::pair<int, int>> runs;
  for (int b = 0; b < kPartBuckets;) {
    if (sizes[size_t(b)] == 0) {
      ++b;
      continue;
    }
    int e = b;
    uint64_t n = sizes[size_t(b)];
    while (!one_each && e + 1 < kPartBuckets && n + sizes[size_t(e) + 1] <= fit) n += sizes[size_t(++e)];
    runs.push_back({b, e});
    b = e + 1;
  }
  return runs;
}

}  // namespace sgfpat

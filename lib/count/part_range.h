// Which part of the kept set a pattern belongs to when it is counted in
// parts (key_parts.h): a range of its level-kSplitLevel pattern's key.
#pragma once
#include <cstdint>

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

}  // namespace sgfpat

// A count-min sketch with conservative update and saturating cells, for
// "has this pattern been played at least K times?" in fixed memory.
// It never under-counts: estimate(x) >= min(true count(x), cap()).
//
// Cells are only as wide as the question needs (2 bits for K <= 3, 4 bits
// for K <= 15, else 8): the same memory then holds 4x more cells for the
// default K = 2, so far fewer patterns played once look like kept ones.
// Blocked layout: an item's kRows cells share one 64-byte cache line (one
// 128-bit row each), so a look-up costs one cache miss, not kRows.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/hash.h"
#include "core/prefetch.h"
#include "count/huge_array.h"

namespace sgfpat {

class CountMinSketch {
 public:
  static constexpr int kRows = 4;
  // Uses about `bytes` of memory; cells count up to at least `threshold`.
  CountMinSketch(size_t bytes, int threshold);
  // Bits per cell for questions up to `threshold`.
  static int cell_bits_for(int threshold) { return threshold <= 3 ? 2 : threshold <= 15 ? 4 : 8; }

  // Counts one more `item`; returns its estimate from before.
  unsigned add(uint64_t item);
  // The estimated count, capped at cap().
  unsigned estimate(uint64_t item) const;
  // Starts fetching the cache line of `item`, for a look-up soon after.
  void prefetch(uint64_t item) const { prefetch_line(&words_[block_of(mix(item)) * 8]); }
  // The same for an add() soon after: the line comes exclusive, as the add
  // writes it.  (Estimates keep prefetch(): threads that only read would
  // take an exclusive line from each other.)
  void prefetch_for_add(uint64_t item) const { prefetch_line_for_write(&words_[block_of(mix(item)) * 8]); }
  unsigned cap() const { return cap_; }
  int cell_bits() const { return bits_; }
  size_t bytes() const { return words_.bytes(); }
  // The raw cells, for saving and loading a sketch (count/played_sketch_file.h):
  // a sketch made with the same bytes() and threshold reads them alike.
  uint64_t* words() { return words_.data(); }
  const uint64_t* words() const { return words_.data(); }
  size_t word_count() const { return words_.size(); }
  // Adds `other`'s cells to these, saturating at cap(): the sketch of the
  // union of both sketches' items.  Every cell of a conservative-update
  // sketch is at least the true count of every item that maps to it, so the
  // sums are too, and the sum never under-counts either.  False (nothing
  // changed) when `other` has another size or cell width.
  bool add_cells(const CountMinSketch& other);
  // Fraction of non-zero cells: how crowded the sketch is.
  double fill_ratio() const;

 private:
  static uint64_t mix(uint64_t z) { return mix64(z); }
  // High bits choose the block (multiply-shift range reduction); the low
  // bits choose one cell in each row of it.
  size_t block_of(uint64_t h) const { return size_t((unsigned __int128)(h >> 24) * blocks_ >> 40); }
  struct Cells {
    uint64_t* word[kRows];
    unsigned shift[kRows];
  };
  Cells cells(uint64_t item) const;

  int bits_;
  unsigned cap_;
  uint64_t mask_;  // one cell's bits
  int index_bits_;  // log2(cells per row)
  size_t blocks_;
  HugeArray<uint64_t> words_;  // blocks_ blocks of kRows rows of 2 words
};

// One 64-bit item for (level, key): keys of different levels are different
// items even when the raw keys coincide.
inline uint64_t level_item(int level, uint64_t key) {
  return key ^ (kGoldenGamma * uint64_t(level + 1));
}

}  // namespace sgfpat

// A count-min sketch with conservative update and saturating 8-bit cells,
// for "has this pattern been played at least K times?" in fixed memory.
// It never under-counts: estimate(x) >= true count(x) (capped at 255).
// Blocked layout: an item's kRows cells share one 64-byte cache line (one
// 16-cell row each), so a look-up costs one cache miss, not kRows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sgfpat {

class CountMinSketch {
 public:
  static constexpr int kRows = 4;
  // Uses about `bytes` of memory (rounded down to a power of two per row).
  explicit CountMinSketch(size_t bytes);

  void add(uint64_t item);
  uint8_t estimate(uint64_t item) const;
  size_t bytes() const { return cells_.size(); }
  // Fraction of non-zero cells: how crowded the sketch is.
  double fill_ratio() const;

 private:
  void slots(uint64_t item, size_t out[kRows]) const;
  size_t blocks_;
  std::vector<uint8_t> cells_;  // blocks_ blocks of kRows x 16 cells
};

// One 64-bit item for (level, key): keys of different levels are different
// items even when the raw keys coincide.
inline uint64_t level_item(int level, uint64_t key) {
  return key ^ (0x9e3779b97f4a7c15ULL * uint64_t(level + 1));
}

}  // namespace sgfpat

#include "count/sketch.h"

#include <algorithm>

namespace sgfpat {

namespace {
uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
  z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return z ^ (z >> 33);
}
}  // namespace

CountMinSketch::CountMinSketch(size_t bytes) {
  static_assert(kRows * 16 == 64, "one block per cache line");
  blocks_ = std::max<size_t>(16, bytes / 64);
  cells_.assign(blocks_ * 64, 0);
}

void CountMinSketch::slots(uint64_t item, size_t out[kRows]) const {
  uint64_t h = mix64(item);
  // High bits choose the block (multiply-shift range reduction), the low
  // 16 bits choose one cell in each row of it.
  size_t block = size_t((unsigned __int128)(h >> 16) * blocks_ >> 48);
  for (int r = 0; r < kRows; ++r) out[r] = block * 64 + size_t(r) * 16 + ((h >> (4 * r)) & 15);
}

void CountMinSketch::add(uint64_t item) {
  size_t s[kRows];
  slots(item, s);
  uint8_t m = 255;
  for (size_t i : s) m = std::min(m, cells_[i]);
  if (m == 255) return;
  // Conservative update: raise only the cells that hold the minimum.
  for (size_t i : s)
    if (cells_[i] == m) cells_[i] = uint8_t(m + 1);
}

uint8_t CountMinSketch::estimate(uint64_t item) const {
  size_t s[kRows];
  slots(item, s);
  uint8_t m = 255;
  for (size_t i : s) m = std::min(m, cells_[i]);
  return m;
}

double CountMinSketch::fill_ratio() const {
  size_t nz = 0;
  for (uint8_t c : cells_) nz += c != 0;
  return double(nz) / double(cells_.size());
}

}  // namespace sgfpat

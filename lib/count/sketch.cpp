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
  size_t width = 1024;
  while (width * 2 * kRows <= bytes) width *= 2;
  mask_ = width - 1;
  cells_.assign(width * kRows, 0);
}

void CountMinSketch::slots(uint64_t item, size_t out[kRows]) const {
  uint64_t h = mix64(item);
  uint64_t h1 = h & 0xffffffffULL, h2 = (h >> 32) | 1;
  uint64_t g = mix64(item ^ 0x5bd1e9955bd1e995ULL);
  for (int r = 0; r < kRows; ++r) out[r] = size_t(r) * (mask_ + 1) + ((h1 + r * h2 + (g >> (r * 8))) & mask_);
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

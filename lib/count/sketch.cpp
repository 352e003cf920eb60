#include "count/sketch.h"

#include <algorithm>
#include <bit>

namespace sgfpat {

CountMinSketch::CountMinSketch(size_t bytes, int threshold) {
  bits_ = cell_bits_for(threshold);
  cap_ = (1u << bits_) - 1;
  mask_ = cap_;
  index_bits_ = std::countr_zero(unsigned(128 / bits_));
  blocks_ = std::max<size_t>(16, bytes / 64);
  words_ = HugeArray<uint64_t>(blocks_ * 8);
}

CountMinSketch::Cells CountMinSketch::cells(uint64_t item) const {
  const uint64_t h = mix(item);
  uint64_t* block = const_cast<uint64_t*>(&words_[block_of(h) * 8]);
  Cells c;
  for (int r = 0; r < kRows; ++r) {
    const unsigned bit = unsigned((h >> (index_bits_ * r)) & ((1u << index_bits_) - 1)) * unsigned(bits_);
    c.word[r] = block + 2 * r + (bit >> 6);
    c.shift[r] = bit & 63;
  }
  return c;
}

unsigned CountMinSketch::add(uint64_t item) {
  Cells c = cells(item);
  unsigned v[kRows], m = cap_;
  for (int r = 0; r < kRows; ++r) {
    v[r] = unsigned((*c.word[r] >> c.shift[r]) & mask_);
    m = std::min(m, v[r]);
  }
  if (m == cap_) return m;
  // Conservative update: raise only the cells that hold the minimum (two
  // rows may share a word, so each update reads the word afresh).
  for (int r = 0; r < kRows; ++r)
    if (v[r] == m) *c.word[r] += uint64_t(1) << c.shift[r];
  return m;
}

unsigned CountMinSketch::estimate(uint64_t item) const {
  Cells c = cells(item);
  unsigned m = cap_;
  for (int r = 0; r < kRows; ++r) m = std::min(m, unsigned((*c.word[r] >> c.shift[r]) & mask_));
  return m;
}

bool CountMinSketch::add_cells(const CountMinSketch& other) {
  if (other.bits_ != bits_ || other.words_.size() != words_.size()) return false;
  for (size_t w = 0; w < words_.size(); ++w) {
    uint64_t a = words_[w], b = other.words_[w], sum = 0;
    for (int i = 0; i < 64; i += bits_) {
      const uint64_t c = std::min<uint64_t>(((a >> i) & mask_) + ((b >> i) & mask_), cap_);
      sum |= c << i;
    }
    words_[w] = sum;
  }
  return true;
}

double CountMinSketch::fill_ratio() const {
  // A cell is non-zero when any of its bits is: fold them onto its lowest.
  uint64_t low = 0;
  for (int i = 0; i < 64; i += bits_) low |= uint64_t(1) << i;
  size_t nz = 0;
  for (size_t w = 0; w < words_.size(); ++w) {
    uint64_t x = words_[w];
    for (int s = 1; s < bits_; ++s) x |= words_[w] >> s;
    nz += size_t(std::popcount(x & low));
  }
  return double(nz) / double(words_.size() * size_t(64 / bits_));
}

}  // namespace sgfpat

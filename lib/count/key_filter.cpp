#include "count/key_filter.h"

#include <algorithm>

namespace sgfpat {

size_t KeyFilter::bytes_for(size_t keys, unsigned bits_per_key) {
  const size_t bits = std::max<size_t>(512, keys * bits_per_key);
  return (bits + 511) / 512 * sizeof(Block);
}

void KeyFilter::reserve(int level, size_t keys, unsigned bits_per_key) {
  Level& lv = levels_[size_t(level - 1)];
  lv.blocks.assign(bytes_for(keys, bits_per_key) / sizeof(Block), Block{});
  // The fewest absent keys pass at ln 2 bits set a key per bit a key.
  lv.probes = std::clamp((bits_per_key * 69 + 50) / 100, 1u, kMaxProbes);
}

size_t KeyFilter::bytes() const {
  size_t n = 0;
  for (const Level& lv : levels_) n += lv.blocks.size() * sizeof(Block);
  return n;
}

}  // namespace sgfpat

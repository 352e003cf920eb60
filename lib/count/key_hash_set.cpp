#include "count/key_hash_set.h"

#include <bit>

namespace sgfpat {

namespace {
// Slots for `keys` keys at most 5/8 full.
size_t slots_for(size_t keys) { return std::bit_ceil(std::max<size_t>(16, keys + keys / 2 + keys / 8 + 1)); }
}  // namespace

size_t KeyHashSet::bytes_for(size_t keys) { return slots_for(keys) * sizeof(uint64_t); }

void KeyHashSet::grow(Level& lv, size_t keys) {
  const size_t n = slots_for(keys);
  if (n <= lv.slots.size()) return;
  std::vector<uint64_t> old;
  old.swap(lv.slots);
  lv.slots.assign(n, 0);
  lv.mask = n - 1;
  lv.bits = std::countr_zero(n);
  for (uint64_t k : old) {
    if (k == 0) continue;
    size_t i = fibonacci_slot(k, lv.bits);
    while (lv.slots[i] != 0) i = (i + 1) & lv.mask;
    lv.slots[i] = k;
  }
}

void KeyHashSet::reserve(int level, size_t n) { grow(levels_[size_t(level - 1)], n); }

void KeyHashSet::insert(int level, uint64_t key) {
  Level& lv = levels_[size_t(level - 1)];
  if (key == 0) {
    lv.count += !lv.has_zero;
    lv.has_zero = true;
    return;
  }
  if (slots_for(lv.count + 1) > lv.slots.size()) grow(lv, (lv.count + 1) * 2);
  size_t i = fibonacci_slot(key, lv.bits);
  while (lv.slots[i] != 0) {
    if (lv.slots[i] == key) return;
    i = (i + 1) & lv.mask;
  }
  lv.slots[i] = key;
  ++lv.count;
}

size_t KeyHashSet::size() const {
  size_t n = 0;
  for (const Level& lv : levels_) n += lv.count;
  return n;
}

size_t KeyHashSet::bytes() const {
  size_t n = 0;
  for (const Level& lv : levels_) n += lv.slots.size() * sizeof(uint64_t);
  return n;
}

}  // namespace sgfpat

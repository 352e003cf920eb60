#include "count/resident_table.h"

#include <stdexcept>

namespace sgfpat {

namespace {
// Load 0.7: linear probing then ends within a line or two, and the table
// takes ~34 bytes per pattern.
size_t slots_for(size_t keys) { return keys + keys * 3 / 7 + 16; }
}  // namespace

size_t ResidentTable::bytes_for(size_t keys) {
  const size_t slots = slots_for(keys) + 1;
  return slots * sizeof(Entry) + slots / 8 + 8;
}

ResidentTable::ResidentTable(const std::vector<std::vector<uint64_t>>& keys,
                             const std::vector<std::vector<uint64_t>>& extended)
    : levels_(keys.size()) {
  for (size_t l = 0; l < keys.size(); ++l) {
    Level& lv = levels_[l];
    lv.n = slots_for(keys[l].size());
    if (lv.n >= (size_t(1) << 31)) throw std::length_error("resident table: too many patterns in one level");
    lv.slots = HugeArray<Entry>(lv.n + 1);
    for (uint64_t key : keys[l]) {
      ++size_;
      if (key == 0) {
        lv.has_zero = true;
        continue;
      }
      size_t i = home(int(l + 1), key);
      while (lv.slots[i].key != 0 && lv.slots[i].key != key) i = i + 1 == lv.n ? 0 : i + 1;
      lv.slots[i].key = key;
    }
    lv.extended.assign((lv.n + 1 + 63) / 64, 0);
    if (l < extended.size())
      for (uint64_t key : extended[l]) {
        const int32_t s = find(int(l + 1), key);
        if (s >= 0) lv.extended[size_t(s) >> 6] |= uint64_t(1) << (s & 63);
      }
  }
}

int32_t ResidentTable::find(int level, uint64_t key) const {
  const Level& lv = levels_[size_t(level - 1)];
  if (key == 0) return lv.has_zero ? int32_t(lv.n) : -1;
  for (size_t i = home(level, key);; i = i + 1 == lv.n ? 0 : i + 1) {
    const uint64_t k = lv.slots[i].key;
    if (k == key) return int32_t(i);
    if (k == 0) return -1;
  }
}

size_t ResidentTable::bytes() const {
  size_t b = 0;
  for (const Level& lv : levels_) b += lv.slots.bytes() + lv.extended.size() * 8;
  return b;
}

}  // namespace sgfpat

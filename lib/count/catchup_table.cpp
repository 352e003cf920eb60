#include "count/catchup_table.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "pattern/diamond.h"

namespace sgfpat {

namespace {
// At most half full, at least 16 entries: a miss ends at the first or
// second entry, nearly always in the same cache line.
size_t capacity_for(size_t keys) { return std::bit_ceil(std::max<size_t>(16, keys * 2)); }
}  // namespace

size_t CatchupTable::bytes_for(size_t keys) {
  // A level of n keys takes at most max(16, 4n) entries.
  return keys * (4 * sizeof(Entry) + sizeof(Counts)) + size_t(kMaxLevels) * 16 * sizeof(Entry);
}

CatchupTable::Entry& CatchupTable::entry_of(Level& lv, uint64_t key) {
  size_t i = home(lv, key);
  while (lv.entries[i].handle >= 0 && lv.entries[i].key != key) i = (i + 1) & lv.mask;
  return lv.entries[i];
}

CatchupTable::CatchupTable(const std::vector<std::vector<uint64_t>>& keys,
                           const std::vector<std::vector<uint64_t>>& extended,
                           const std::vector<std::vector<uint64_t>>* counted)
    : counts_(keys.size()) {
  auto levels = std::make_shared<std::vector<Level>>(keys.size());
  for (size_t l = 0; l < keys.size(); ++l) {
    Level& lv = (*levels)[l];
    if (keys[l].size() >= (size_t(1) << 28)) throw std::length_error("catch-up table: too many patterns in one level");
    const size_t cap = capacity_for(keys[l].size());
    lv.entries.assign(cap, Entry{0, -1, 0});
    lv.mask = cap - 1;
    lv.shift = 64 - std::countr_zero(cap);
    // Reserved, as copy_bytes_for() and the callers' budgets count sizes.
    counts_[l].reserve(counted ? (l < counted->size() ? (*counted)[l].size() : 0) : keys[l].size());
    for (uint64_t key : keys[l]) {
      Entry& e = entry_of(lv, key);
      if (e.handle >= 0) continue;  // a repeat
      e = Entry{key, 0, 0};
      ++size_;
      if (!counted) {
        e.handle = int32_t(counts_[l].size() << 2) | 2;
        counts_[l].emplace_back();
      }
    }
    if (counted && l < counted->size())
      for (uint64_t key : (*counted)[l]) {
        Entry& e = entry_of(lv, key);
        if (e.handle < 0 || (e.handle & 2)) continue;  // not a key, or a repeat
        e.handle = int32_t(counts_[l].size() << 2) | 2;
        counts_[l].emplace_back();
      }
    if (l >= extended.size()) continue;
    for (uint64_t key : extended[l]) {
      Entry& e = entry_of(lv, key);
      if (e.handle >= 0) e.handle |= 1;
    }
  }
  levels_ = std::move(levels);
}

size_t CatchupTable::bytes() const {
  size_t b = 0;
  for (const Level& lv : *levels_) b += lv.entries.size() * sizeof(Entry);
  for (const auto& c : counts_) b += c.size() * sizeof(Counts);
  return b;
}

}  // namespace sgfpat

#include "count/count_table.h"

#include "count/sketch.h"

namespace sgfpat {

namespace {
inline size_t slot_hash(int level, uint64_t key) {
  uint64_t z = level_item(level, key);
  z = (z ^ (z >> 31)) * 0x7fb5d329728ea185ULL;
  return size_t(z ^ (z >> 27));
}
}  // namespace

CountTable::CountTable(size_t max_entries) : max_entries_(max_entries ? max_entries : 1) { rehash(1024); }

void CountTable::rehash(size_t slots) {
  index_.assign(slots, 0);
  mask_ = slots - 1;
  for (size_t e = 0; e < entries_.size(); ++e) {
    size_t i = slot_hash(entries_[e].level, entries_[e].key) & mask_;
    while (index_[i]) i = (i + 1) & mask_;
    index_[i] = uint32_t(e + 1);
  }
}

int32_t CountTable::find(int level, uint64_t key) const {
  size_t i = slot_hash(level, key) & mask_;
  while (uint32_t e = index_[i]) {
    const Entry& en = entries_[e - 1];
    if (en.key == key && en.level == level) return int32_t(e - 1);
    i = (i + 1) & mask_;
  }
  return -1;
}

int32_t CountTable::add(int level, uint64_t key) {
  int32_t found = find(level, key);
  if (found >= 0) return found;
  if ((entries_.size() + 1) * 2 > index_.size()) rehash(index_.size() * 2);
  size_t i = slot_hash(level, key) & mask_;
  while (index_[i]) i = (i + 1) & mask_;
  entries_.push_back(Entry{key, level, PatternCounts{}});
  index_[i] = uint32_t(entries_.size());
  return int32_t(entries_.size() - 1);
}

std::vector<std::tuple<int, uint64_t, PatternCounts>> CountTable::drain() {
  std::vector<std::tuple<int, uint64_t, PatternCounts>> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.emplace_back(e.level, e.key, e.counts);
  entries_.clear();
  entries_.shrink_to_fit();
  rehash(1024);
  return out;
}

}  // namespace sgfpat

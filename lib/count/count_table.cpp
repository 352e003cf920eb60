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

CountTable::CountTable(size_t max_entries) : max_entries_(max_entries ? max_entries : 1) {
  slots_.assign(1024, Entry{});
  mask_ = slots_.size() - 1;
}

PatternCounts& CountTable::at(int level, uint64_t key) {
  size_t i = slot_hash(level, key) & mask_;
  while (true) {
    Entry& e = slots_[i];
    if (e.level == uint32_t(level) && e.key == key) return e.counts;
    if (e.level == 0) break;
    i = (i + 1) & mask_;
  }
  if ((size_ + 1) * 2 > slots_.size()) {
    grow();
    return at(level, key);
  }
  Entry& e = slots_[i];
  e.level = uint32_t(level);
  e.key = key;
  ++size_;
  return e.counts;
}

PatternCounts* CountTable::find(int level, uint64_t key) {
  size_t i = slot_hash(level, key) & mask_;
  while (true) {
    Entry& e = slots_[i];
    if (e.level == uint32_t(level) && e.key == key) return &e.counts;
    if (e.level == 0) return nullptr;
    i = (i + 1) & mask_;
  }
}

void CountTable::grow() {
  std::vector<Entry> old(slots_.size() * 2, Entry{});
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (const Entry& e : old) {
    if (e.level == 0) continue;
    size_t i = slot_hash(int(e.level), e.key) & mask_;
    while (slots_[i].level != 0) i = (i + 1) & mask_;
    slots_[i] = e;
  }
}

std::vector<std::tuple<int, uint64_t, PatternCounts>> CountTable::drain() {
  std::vector<std::tuple<int, uint64_t, PatternCounts>> out;
  out.reserve(size_);
  for (const Entry& e : slots_)
    if (e.level != 0) out.emplace_back(int(e.level), e.key, e.counts);
  slots_.assign(1024, Entry{});
  mask_ = slots_.size() - 1;
  size_ = 0;
  return out;
}

}  // namespace sgfpat

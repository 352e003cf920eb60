#include "count/count_table.h"

#include <algorithm>
#include <bit>

#include "core/hash.h"

namespace sgfpat {

CountTable::CountTable(size_t max_entries) : max_entries_(std::max<size_t>(max_entries, kMinEntries)) {
  // Load at most 1/2 when full(), 3/4 at the hard limit: linear probing
  // stays within a cache line or two.
  const size_t slots = std::min(std::bit_ceil(max_entries_ * 2), size_t(1) << 31);  // slots are int32
  max_entries_ = std::min(max_entries_, slots / 2);
  mask_ = slots - 1;
  hard_limit_ = slots / 4 * 3;
  slots_ = HugeArray<Entry>(slots);
}

// The slot of (level, key), or the empty one ending its search.
size_t CountTable::probe(int level, uint64_t key) const {
  return probe_linear(hash(level, key), mask_, [&](size_t i) {
    const Entry& e = slots_[i];
    return e.level == 0 || (e.key == key && e.level == uint32_t(level));
  });
}

int32_t CountTable::find(int level, uint64_t key) const {
  const size_t i = probe(level, key);
  return slots_[i].level == 0 ? -1 : int32_t(i);
}

int32_t CountTable::add(int level, uint64_t key) {
  const size_t i = probe(level, key);
  Entry& e = slots_[i];
  if (e.level == 0) {
    e.key = key;
    e.level = uint32_t(level);
    ++size_;
  }
  return int32_t(i);
}

void CountTable::drain(const std::function<void(int, uint64_t, const PatternCounts&)>& sink) {
  for (size_t i = 0; i < slots_.size(); ++i) {
    const Entry& e = slots_[i];
    if (e.level) sink(int(e.level), e.key, PatternCounts{e.played, e.seen, e.wins});
  }
  slots_.clear();
  size_ = 0;
}

}  // namespace sgfpat

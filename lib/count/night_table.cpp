#include "count/night_table.h"

#include <algorithm>
#include <bit>

namespace sgfpat {

void NightTable::grow(Level& lv) {
  const size_t n = std::max<size_t>(1024, lv.entries.size() * 2);
  std::vector<Entry> old;
  old.swap(lv.entries);
  lv.entries.assign(n, Entry{0, -2, 0});
  lv.mask = n - 1;
  lv.bits = std::countr_zero(n);
  for (const Entry& e : old) {
    if (e.slot == -2) continue;
    size_t i = fibonacci_slot(e.key, lv.bits);
    while (lv.entries[i].slot != -2) i = (i + 1) & lv.mask;
    lv.entries[i] = e;
  }
}

int32_t NightTable::lookup(int level, uint64_t key) {
  Level& lv = levels_[size_t(level - 1)];
  if ((lv.used + 1) * 2 > lv.entries.size()) grow(lv);
  size_t i = fibonacci_slot(key, lv.bits);
  for (;; i = (i + 1) & lv.mask) {
    const Entry& e = lv.entries[i];
    if (e.slot == -2) break;
    if (e.key == key) return e.slot;
  }
  // A key the filter stops is not remembered: most walks end on a pattern
  // seen once (tens of millions a night), and asking the filter again costs
  // what a slot here would.
  if (!kept_->may_contain(level, key)) return -1;
  const int32_t slot = int32_t(lv.counts.size());
  lv.keys.push_back(key);
  lv.counts.push_back({});
  lv.entries[i] = Entry{key, slot, 0};
  ++lv.used;
  return slot;
}

size_t NightTable::bytes() const {
  size_t n = 0;
  for (const Level& lv : levels_)
    n += lv.entries.capacity() * sizeof(Entry) + lv.keys.capacity() * sizeof(uint64_t) +
         lv.counts.capacity() * sizeof(PatternCounts);
  return n;
}

std::vector<std::tuple<int, uint64_t, PatternCounts>> NightTable::sorted_counts(std::span<const NightTable> tables) {
  std::vector<std::tuple<int, uint64_t, PatternCounts>> all;
  for (const NightTable& t : tables)
    for (size_t l = 0; l < t.levels_.size(); ++l)
      for (size_t s = 0; s < t.levels_[l].keys.size(); ++s) {
        const PatternCounts& c = t.levels_[l].counts[s];
        if (c.seen || c.played || c.wins) all.emplace_back(int(l + 1), t.levels_[l].keys[s], c);
      }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  std::vector<std::tuple<int, uint64_t, PatternCounts>> out;
  for (const auto& t : all) {
    if (!out.empty() && std::get<0>(out.back()) == std::get<0>(t) && std::get<1>(out.back()) == std::get<1>(t)) {
      PatternCounts& c = std::get<2>(out.back());
      c.seen += std::get<2>(t).seen;
      c.played += std::get<2>(t).played;
      c.wins += std::get<2>(t).wins;
    } else {
      out.push_back(t);
    }
  }
  return out;
}

}  // namespace sgfpat

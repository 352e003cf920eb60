#include "export/pattern_table.h"

#include <algorithm>

#include "core/hash.h"
#include "pattern/pattern_string.h"

namespace sgfpat {

std::string export_form(std::string_view pattern, const KeyScheme& scheme) {
  return scheme.symmetry ? canonical_pattern(pattern) : std::string(pattern);
}

// ---- PatternTable ----

namespace {
uint8_t code_of(char c) { return c == '#' ? 0 : c == '.' ? 1 : c == 'O' ? 2 : 3; }
}  // namespace

PatternTable::PatternTable(int levels) : levels_(size_t(levels)) {
  for (int l = 1; l <= levels; ++l) levels_[size_t(l - 1)].bytes_per = size_t(level_points(l) + 3) / 4;
}

void PatternTable::add(int level, uint64_t key, const PatternCounts& counts) {
  Level& L = levels_[size_t(level - 1)];
  L.keys.push_back(key);
  L.counts.push_back(counts);
}

void PatternTable::seal() {
  missing_ = 0;
  for (Level& L : levels_) {
    const size_t n = L.keys.size();
    L.found.assign(n, false);
    L.packed.assign(n * L.bytes_per, 0);
    missing_ += n;
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    L.slots.assign(cap, 0);
    const size_t mask = cap - 1;
    for (size_t i = 0; i < n; ++i) L.slots[probe_linear(mix64(L.keys[i]), mask, [&](size_t s) { return !L.slots[s]; })] = uint32_t(i + 1);
  }
}

size_t PatternTable::total() const {
  size_t t = 0;
  for (const Level& L : levels_) t += L.keys.size();
  return t;
}

size_t PatternTable::missing(int level) const {
  const Level& L = levels_[size_t(level - 1)];
  size_t m = 0;
  for (bool f : L.found) m += !f;
  return m;
}

int64_t PatternTable::find(int level, uint64_t key) const {
  const Level& L = levels_[size_t(level - 1)];
  if (L.keys.empty()) return -1;
  const size_t s = probe_linear(mix64(key), L.slots.size() - 1,
                                [&](size_t s) { return !L.slots[s] || L.keys[L.slots[s] - 1] == key; });
  return int64_t(L.slots[s]) - 1;
}

std::string PatternTable::string(int level, size_t i) const {
  const Level& L = levels_[size_t(level - 1)];
  if (!L.found[i]) return "";
  std::string s(size_t(level_points(level)), '#');
  const uint8_t* p = &L.packed[i * L.bytes_per];
  for (size_t o = 0; o < s.size(); ++o) s[o] = kPStateChar[(p[o / 4] >> (2 * (o % 4))) & 3];
  return s;
}

void PatternTable::set_string(int level, size_t i, std::string_view pattern) {
  Level& L = levels_[size_t(level - 1)];
  uint8_t* p = &L.packed[i * L.bytes_per];
  std::fill(p, p + L.bytes_per, 0);
  for (size_t o = 0; o < pattern.size(); ++o) p[o / 4] |= uint8_t(code_of(pattern[o]) << (2 * (o % 4)));
  if (!L.found[i]) {
    L.found[i] = true;
    --missing_;
  }
}

}  // namespace sgfpat

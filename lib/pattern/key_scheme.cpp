#include "pattern/key_scheme.h"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

#include "core/hash.h"

namespace sgfpat {

std::string KeyScheme::describe() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "seed=0x%016llx levels=%d symmetry=%s", (unsigned long long)seed, levels,
                symmetry ? "on" : "off");
  return buf;
}

ZobristTable::ZobristTable(uint64_t seed) {
  const int n = level_points(kMaxLevels);
  for (auto& w : words_) w.assign(n, 0);
  uint64_t s = seed;
  for (int o = 0; o < n; ++o) {
    uint64_t own = splitmix64(s);
    uint64_t off = splitmix64(s) & 0xffffffffULL;
    words_[int(PState::Own)][o] = own;
    words_[int(PState::Opp)][o] = swap_halves(own);
    words_[int(PState::Off)][o] = off | (off << 32);
  }
  for (int st = 0; st < 4; ++st) {
    sym_[st].assign(size_t(n) * 8, 0);
    for (int o = 0; o < n; ++o)
      for (int sy = 0; sy < 8; ++sy) sym_[st][size_t(o) * 8 + sy] = words_[st][sym_index(sy, o)];
  }
}

uint64_t ZobristTable::word(PState st, int offset) const { return words_[int(st)][offset]; }

const ZobristTable& zobrist_table(uint64_t seed) {
  static std::mutex mu;
  static std::map<uint64_t, std::unique_ptr<ZobristTable>> tables;
  std::lock_guard<std::mutex> lock(mu);
  auto& t = tables[seed];
  if (!t) t = std::make_unique<ZobristTable>(seed);
  return *t;
}

}  // namespace sgfpat

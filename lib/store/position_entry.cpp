#include "store/position_entry.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace sgfpat {

namespace {
// The first 8 key bytes as a big-endian number: they order nearly every
// pair (a hash leads the key), and comparing them costs one instruction.
uint64_t head(const PositionEntry& e) {
  uint64_t h;
  std::memcpy(&h, e.key.data(), sizeof h);
  return __builtin_bswap64(h);
}
}  // namespace

void sort_by_key(PositionEntries* entries) {
  std::sort(entries->begin(), entries->end(), [](const PositionEntry& a, const PositionEntry& b) {
    const uint64_t ha = head(a), hb = head(b);
    if (ha != hb) return ha < hb;
    return std::memcmp(a.key.data() + 8, b.key.data() + 8, PositionEntry::kKeyBytes - 8) < 0;
  });
}

}  // namespace sgfpat

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

void sort_by_key(std::span<PositionEntry> entries) {
  std::sort(entries.begin(), entries.end(), [](const PositionEntry& a, const PositionEntry& b) {
    const uint64_t ha = head(a), hb = head(b);
    if (ha != hb) return ha < hb;
    return std::memcmp(a.key.data() + 8, b.key.data() + 8, PositionEntry::kKeyBytes - 8) < 0;
  });
}

std::vector<std::span<PositionEntry>> split_by_key_quantiles(PositionEntries* entries, size_t parts) {
  auto prefix = [](const PositionEntry& e) {
    return unsigned(static_cast<unsigned char>(e.key[0])) << 8 | unsigned(static_cast<unsigned char>(e.key[1]));
  };
  parts = std::max<size_t>(parts, 1);
  std::vector<size_t> below(65537, 0);  // below[p]: entries whose prefix is below p
  for (const PositionEntry& e : *entries) ++below[prefix(e) + 1];
  for (size_t p = 1; p < below.size(); ++p) below[p] += below[p - 1];
  std::vector<std::span<PositionEntry>> out;
  auto begin = entries->begin();
  size_t cut = 0;  // prefixes below it are placed
  for (size_t k = 1; k <= parts && begin != entries->end(); ++k) {
    // The first prefix at which a k-th of the entries lie below.
    const size_t want = entries->size() * k / parts;
    while (cut < 65536 && below[cut] < want) ++cut;
    const unsigned end_prefix = unsigned(cut);
    const auto end = k == parts ? entries->end() : std::partition(begin, entries->end(), [&](const PositionEntry& e) {
      return prefix(e) < end_prefix;
    });
    if (end != begin) out.emplace_back(begin, end);
    begin = end;
  }
  return out;
}

}  // namespace sgfpat

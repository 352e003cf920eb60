// One entry of the position index as the store holds it before writing:
// fixed-size key and value bytes (their layout is lib/search's, see
// search/position_index.h), so that an import's entries take no allocation
// each and sort as plain records.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

namespace sgfpat {

struct PositionEntry {
  static constexpr size_t kKeyBytes = 18, kValueBytes = 5;
  std::array<char, kKeyBytes> key;
  std::array<char, kValueBytes> value;
};
using PositionEntries = std::vector<PositionEntry>;

// Sorts entries by key bytes (unsigned, as RocksDB's bytewise order).
void sort_by_key(PositionEntries* entries);

}  // namespace sgfpat

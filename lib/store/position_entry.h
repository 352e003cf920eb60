// One entry of the position index as the store holds it before writing:
// fixed-size key and value bytes (their layout is lib/search's, see
// search/position_index.h), so that an import's entries take no allocation
// each and sort as plain records.  The entries carry no version of their
// own: they exist only in a database's positions family, whose layout the
// database's format version covers (core/format_version.h).
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace sgfpat {

struct PositionEntry {
  static constexpr size_t kKeyBytes = 18, kValueBytes = 5;
  std::array<char, kKeyBytes> key;
  std::array<char, kValueBytes> value;
};
using PositionEntries = std::vector<PositionEntry>;

// Sorts entries by key bytes (unsigned, as RocksDB's bytewise order).
void sort_by_key(std::span<PositionEntry> entries);

// Reorders `entries` into at most `parts` ranges of keys, in key order
// (every entry of a range sorts before every entry of the next, and equal
// keys share a range), and returns the ranges that are not empty.  The
// ranges are cut at quantiles of the keys' first two bytes: about equal in
// size whatever their distribution (canonical hashes, the smallest of 16,
// crowd at the low end), unless one two-byte prefix holds many of them.
std::vector<std::span<PositionEntry>> split_by_key_quantiles(PositionEntries* entries, size_t parts);

}  // namespace sgfpat

// The position index's entries are sorted by the store before they are
// written as a table file: the order must be RocksDB's bytewise order
// (unsigned bytes, the whole key), or writing the file fails.
#include <algorithm>
#include <random>
#include <string>

#include <doctest/doctest.h>
#include "store/position_entry.h"

using namespace sgfpat;

TEST_CASE("position entries sort by their key's unsigned bytes, the first 8 and the rest") {
  std::mt19937_64 rng(7);
  PositionEntries entries;
  for (int i = 0; i < 20000; ++i) {
    PositionEntry e;
    // Each byte 0x00 or 0x80 (negative as char): keys tie down to the last
    // byte often, and the order must read every byte unsigned.
    for (size_t b = 0; b < e.key.size(); ++b) e.key[b] = char(rng() & 0x80);
    for (size_t b = 0; b < e.value.size(); ++b) e.value[b] = char(i >> (8 * b));
    entries.push_back(e);
  }
  PositionEntries sorted = entries;
  sort_by_key(&sorted);
  auto key = [](const PositionEntry& e) { return std::string(e.key.begin(), e.key.end()); };
  std::vector<std::string> want;
  for (const PositionEntry& e : entries) want.push_back(key(e));
  std::sort(want.begin(), want.end());  // std::string compares as unsigned bytes
  REQUIRE(sorted.size() == want.size());
  size_t differ = 0;
  for (size_t i = 0; i < sorted.size(); ++i) differ += key(sorted[i]) != want[i];
  CHECK(differ == 0);
  // The values moved with their keys.
  std::vector<std::string> before, after;
  for (const PositionEntry& e : entries) before.push_back(key(e) + std::string(e.value.begin(), e.value.end()));
  for (const PositionEntry& e : sorted) after.push_back(key(e) + std::string(e.value.begin(), e.value.end()));
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  CHECK(before == after);
}

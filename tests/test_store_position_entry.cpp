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
  sort_by_key(sorted);
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

TEST_CASE("position entries split at key quantiles: ranges in key order, equal keys together, even with skewed keys") {
  std::mt19937_64 rng(11);
  auto key_of = [](const PositionEntry& e) { return std::string(e.key.begin(), e.key.end()); };
  // Uniform hashes, and canonical ones (the smallest of 16: most of them
  // begin with a low byte).
  for (bool skewed : {false, true}) {
    for (size_t parts : {size_t(1), size_t(2), size_t(3), size_t(7)}) {
      INFO("parts " << parts << (skewed ? ", skewed" : ", uniform"));
      PositionEntries entries;
      for (int i = 0; i < 20000; ++i) {
        PositionEntry e;
        uint64_t h = rng();
        for (int j = 1; skewed && j < 16; ++j) h = std::min(h, uint64_t(rng()));
        for (size_t b = 0; b < 8; ++b) e.key[b] = char(h >> (56 - 8 * b));
        for (size_t b = 8; b < e.key.size(); ++b) e.key[b] = char(rng());
        e.value.fill(char(i));
        entries.push_back(e);
        if (i % 10 == 0) entries.push_back(e);  // the same key twice
      }
      const PositionEntries before = entries;
      const auto ranges = split_by_key_quantiles(&entries, parts);
      CHECK(ranges.size() == parts);
      size_t total = 0;
      std::string last_max;
      for (size_t r = 0; r < ranges.size(); ++r) {
        std::string lo(18, '\xff'), hi;
        for (const PositionEntry& e : ranges[r]) {
          lo = std::min(lo, key_of(e));
          hi = std::max(hi, key_of(e));
        }
        if (r > 0) CHECK(lo > last_max);
        last_max = hi;
        total += ranges[r].size();
        // About equal: within a tenth of the even share.
        const double share = double(entries.size()) / double(parts);
        CHECK(double(ranges[r].size()) > share * 0.9);
        CHECK(double(ranges[r].size()) < share * 1.1);
      }
      CHECK(total == entries.size());
      auto all = [&](const PositionEntries& v) {
        std::vector<std::string> s;
        for (const PositionEntry& e : v) s.push_back(key_of(e) + std::string(e.value.begin(), e.value.end()));
        std::sort(s.begin(), s.end());
        return s;
      };
      CHECK(all(entries) == all(before));
    }
  }
  // One two-byte prefix for all: one range, no empty ones.
  PositionEntries same(100);
  for (size_t i = 0; i < same.size(); ++i) {
    same[i].key.fill(char(i));
    same[i].key[0] = char(0xc0);
    same[i].key[1] = char(0x01);
  }
  const auto one = split_by_key_quantiles(&same, 4);
  REQUIRE(one.size() == 1);
  CHECK(one[0].size() == 100);
}

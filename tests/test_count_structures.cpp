// The counting pass's building blocks against plain std::map references:
// the packed count-min sketch, the ResidentTable,
// the catch-up table and the tracker's level cursor.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "board/replay.h"
#include "count/candidate_counter.h"
#include "count/catchup_table.h"
#include "count/kept_set.h"
#include "count/resident_table.h"
#include "count/sketch.h"
#include "pattern/tracker.h"
#include "sgf/parser.h"
#include "test_util.h"

using namespace sgfpat;

namespace {
// Skewed item stream: a few hot items and a long tail, like patterns.
std::vector<uint64_t> skewed_items(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = rng();
    out.push_back((r & 3) == 0 ? r % 97 : (r & 3) == 1 ? r % 5003 : r);
  }
  return out;
}
}  // namespace

TEST_CASE("sketch: never under-counts, for every cell width") {
  for (int k : {1, 2, 3, 4, 15, 16, 200}) {
    CAPTURE(k);
    // Small on purpose: many collisions.
    CountMinSketch sketch(64 * 1024, k);
    CHECK(sketch.cap() >= unsigned(k));
    std::map<uint64_t, unsigned> truth;
    for (uint64_t it : skewed_items(200000, uint64_t(k))) {
      sketch.add(it);
      ++truth[it];
    }
    size_t false_kept = 0, below = 0;
    for (auto& [it, c] : truth) {
      unsigned e = sketch.estimate(it);
      CHECK(e >= std::min(c, sketch.cap()));
      if (c < unsigned(k)) {
        ++below;
        false_kept += e >= unsigned(k);
      }
    }
    if (below) MESSAGE("k=" << k << ": " << false_kept << " of " << below << " items below k look kept");
    CHECK(sketch.fill_ratio() > 0.0);
    CHECK(sketch.fill_ratio() <= 1.0);
  }
}

TEST_CASE("sketch: a roomy sketch is nearly exact at the threshold") {
  CountMinSketch sketch(size_t(16) << 20, 2);
  CHECK(sketch.cell_bits() == 2);
  std::map<uint64_t, unsigned> truth;
  for (uint64_t it : skewed_items(100000, 7)) {
    sketch.add(it);
    ++truth[it];
  }
  size_t wrong = 0;
  for (auto& [it, c] : truth) wrong += (sketch.estimate(it) >= 2) != (c >= 2);
  CHECK(wrong * 1000 < truth.size());  // under 0.1% false "kept"
}

TEST_CASE("key set: the distinct keys of each level, in memory within 1.5x of them") {
  std::mt19937_64 rng(7);
  constexpr int kLevels = 3;
  KeySet set(kLevels);
  std::vector<std::set<uint64_t>> truth(kLevels);
  size_t worst_excess = 0;
  for (int i = 0; i < 400000; ++i) {
    const int level = int(rng() % kLevels) + 1;
    // Many repeats (as the kept set's listings have), key 0 included.
    const uint64_t key = rng() % 3 == 0 ? rng() % 1000 : rng() % 150000;
    set.add(level, key);
    truth[size_t(level - 1)].insert(key);
    if (i == 200000) {  // listed half-way, then added to again
      const auto& mid = set.by_level();
      for (int l = 0; l < kLevels; ++l)
        CHECK(mid[size_t(l)] == std::vector<uint64_t>(truth[size_t(l)].begin(), truth[size_t(l)].end()));
    }
    if (i % 997 == 0) {
      size_t distinct = 0;
      for (const auto& t : truth) distinct += t.size();
      // Room for half as many keys again, and never below 4096 a level.
      const size_t bound = sizeof(uint64_t) * (distinct + distinct / 2 + 2 * 4096 * kLevels);
      if (set.bytes() > bound) worst_excess = std::max(worst_excess, set.bytes() - bound);
    }
  }
  CHECK(worst_excess == 0);
  const auto& levels = set.by_level();
  REQUIRE(levels.size() == size_t(kLevels));
  size_t distinct = 0;
  for (int l = 0; l < kLevels; ++l) {
    CHECK(levels[size_t(l)] == std::vector<uint64_t>(truth[size_t(l)].begin(), truth[size_t(l)].end()));
    distinct += truth[size_t(l)].size();
  }
  // Once listed, no room is left over.
  CHECK(set.bytes() == distinct * sizeof(uint64_t));

  // Another set's keys merged in: the union, listed.
  KeySet other(kLevels);
  for (int i = 0; i < 50000; ++i) {
    const int level = int(rng() % kLevels) + 1;
    const uint64_t key = rng() % 200000;
    other.add(level, key);
    truth[size_t(level - 1)].insert(key);
  }
  set.merge(std::move(other));
  const auto& merged = set.by_level();
  for (int l = 0; l < kLevels; ++l)
    CHECK(merged[size_t(l)] == std::vector<uint64_t>(truth[size_t(l)].begin(), truth[size_t(l)].end()));
  // A set merged away is empty and can be filled again.
  other.add(1, 7);
  other.add(1, 5);
  other.add(1, 7);
  CHECK(other.by_level()[0] == std::vector<uint64_t>{5, 7});
}

TEST_CASE("resident table: exactly the given keys, key 0 included, counts add up") {
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint64_t>> keys(4);
  std::set<std::pair<int, uint64_t>> in;
  for (int l = 0; l < 4; ++l) {
    for (int i = 0; i < 1000 * (l + 1); ++i) keys[size_t(l)].push_back(rng());
    if (l == 2) keys[size_t(l)].push_back(0);
    for (uint64_t k : keys[size_t(l)]) in.insert({l + 1, k});
  }
  ResidentTable table(keys, {});
  CHECK(table.size() == in.size());
  CHECK(table.bytes() <= ResidentTable::bytes_for(in.size()) + 4 * 24 * 17);
  for (auto [level, key] : in) {
    int32_t s = table.find(level, key);
    REQUIRE(s >= 0);
    table.add_seen(level, s, uint64_t(level) + key % 7);
    table.add_played(level, s, 1, key % 2 == 0);
  }
  for (int i = 0; i < 10000; ++i) {
    uint64_t key = rng();
    int level = int(rng() % 4) + 1;
    CHECK((table.find(level, key) >= 0) == (in.count({level, key}) == 1));
  }
  CHECK(table.find(1, 0) == -1);
  size_t visited = 0;
  for (int level = 1; level <= table.levels(); ++level) table.for_each_at(level, [&](uint64_t key, const PatternCounts& c) {
    ++visited;
    CHECK(in.count({level, key}) == 1);
    CHECK(c.seen == uint64_t(level) + key % 7);
    CHECK(c.played == 1);
    CHECK(c.wins == (key % 2 == 0 ? 1u : 0u));
  });
  CHECK(visited == in.size());
}

TEST_CASE("resident table: extends() is true exactly for the keys said to be extended") {
  std::mt19937_64 rng(12);
  std::vector<std::vector<uint64_t>> keys(3), extended(3);
  std::set<std::pair<int, uint64_t>> ext;
  for (int l = 0; l < 3; ++l)
    for (int i = 0; i < 5000; ++i) {
      const uint64_t k = rng();
      keys[size_t(l)].push_back(k);
      if (k % 3 == 0) {
        // Listed twice, as the counting pass may list a key once per move.
        extended[size_t(l)].push_back(k);
        extended[size_t(l)].push_back(k);
        ext.insert({l + 1, k});
      }
    }
  extended[1].push_back(rng());  // not a kept key: ignored
  ResidentTable table(keys, extended);
  size_t yes = 0;
  for (int l = 0; l < 3; ++l)
    for (uint64_t k : keys[size_t(l)]) {
      const int32_t s = table.find(l + 1, k);
      REQUIRE(s >= 0);
      CHECK(table.extends(l + 1, s) == (ext.count({l + 1, k}) == 1));
      yes += table.extends(l + 1, s);
    }
  CHECK(yes == ext.size());
  CHECK(yes > 4000);
  // Repeated keys take one entry.
  std::vector<std::vector<uint64_t>> twice = keys;
  for (auto& v : twice) v.insert(v.end(), v.begin(), v.end());
  ResidentTable dedup(twice, extended);
  CHECK(dedup.size() == table.size());
  size_t entries = 0;
  for (int l = 1; l <= dedup.levels(); ++l) dedup.for_each_at(l, [&](uint64_t, const PatternCounts&) { ++entries; });
  CHECK(entries == 15000);
  // Without the list, nothing is extended.
  ResidentTable plain(keys, {});
  for (uint64_t k : keys[0]) CHECK_FALSE(plain.extends(1, plain.find(1, k)));
  // Built from lists it frees as it goes: the same handles, lists emptied.
  std::vector<std::vector<uint64_t>> keys_copy = keys, ext_copy = extended;
  ResidentTable freeing(std::move(keys_copy), std::move(ext_copy));
  CHECK(freeing.size() == table.size());
  for (int l = 0; l < 3; ++l)
    for (uint64_t k : keys[size_t(l)]) CHECK(freeing.find(l + 1, k) == table.find(l + 1, k));
  for (size_t l = 0; l < 3; ++l) {
    CHECK(keys_copy[l].capacity() == 0);
    CHECK(ext_copy[l].capacity() == 0);
  }
}

TEST_CASE("resident table: the freeing build's peak is the levels built beside the lists not yet freed") {
  // One level: the whole table beside its lists.
  CHECK(ResidentTable::build_peak_bytes(std::vector<size_t>{7000}, std::vector<size_t>{3000}) ==
        ResidentTable::bytes_for(7000) + 8 * 10000);
  // A big level first, small ones after: the first level's table beside
  // every list, more than the whole table beside the last list.
  const std::vector<size_t> keys = {100000, 1000, 1000};
  const size_t first = ResidentTable::bytes_for(100000) + 8 * 102000;
  CHECK(ResidentTable::build_peak_bytes(keys, {}) == first);
  // The big level last: the whole table beside its list, far less than
  // the whole table beside all the lists.
  const std::vector<size_t> rev = {keys[2], keys[1], keys[0]};
  const size_t last = ResidentTable::bytes_for(1000) * 2 + ResidentTable::bytes_for(100000) + 8 * 100000;
  CHECK(ResidentTable::build_peak_bytes(rev, {}) == last);
}

TEST_CASE("key set: release() hands over by_level() and leaves the set empty") {
  KeySet set(3);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) set.add(int(rng() % 3) + 1, rng() % 5000);
  const std::vector<std::vector<uint64_t>> expected = set.by_level();
  set.add(2, 7);  // after by_level(): release() compacts again
  std::vector<std::vector<uint64_t>> got = set.release();
  REQUIRE(got.size() == 3);
  CHECK(got[0] == expected[0]);
  CHECK(got[2] == expected[2]);
  CHECK(std::find(got[1].begin(), got[1].end(), 7) != got[1].end());
  CHECK(std::is_sorted(got[1].begin(), got[1].end()));
  CHECK(set.distinct() == 0);
  set.add(1, 9);
  CHECK(set.distinct() == 1);
}

TEST_CASE("tracker cursor: next_key gives walk()'s keys level by level") {
  KeyScheme scheme;
  scheme.levels = 8;
  PatternTracker tracker(scheme, 13);
  Board board(13);
  std::mt19937_64 rng(5);
  for (int n = 0; n < 60; ++n) {
    Point p{int8_t(rng() % 13), int8_t(rng() % 13)};
    Color c = n % 2 ? Color::White : Color::Black;
    if (board.play(p, c) != MoveError::None) continue;
    tracker.after_play(board, board.index(p));
  }
  for (int y = 0; y < 13; ++y)
  for (int x = 0; x < 13; ++x) {
    const int idx = board.index(Point{int8_t(x), int8_t(y)});
    for (Color mover : {Color::Black, Color::White}) {
      std::vector<uint64_t> want;
      tracker.walk(idx, mover, [&](int, uint64_t k) { want.push_back(k); return true; });
      PatternTracker::Cursor c;
      tracker.fold(idx, &c);  // skip level 1 without its key
      for (int l = 2; l <= 8; ++l) CHECK(tracker.next_key(idx, mover, &c) == want[size_t(l - 1)]);
      CHECK(c.level == 8);
    }
  }
}

TEST_CASE("catch-up table: exactly the given keys, key 0 included, extended bits, counts add up") {
  std::mt19937_64 rng(13);
  std::vector<std::vector<uint64_t>> keys(4), extended(4);
  std::set<std::pair<int, uint64_t>> in, ext;
  for (int l = 0; l < 4; ++l) {
    for (int i = 0; i < 700 * (l + 1); ++i) keys[size_t(l)].push_back(rng());
    if (l == 2) keys[size_t(l)].push_back(0);
    for (uint64_t k : keys[size_t(l)]) {
      in.insert({l + 1, k});
      if (k % 3 == 0) {
        extended[size_t(l)].push_back(k);
        extended[size_t(l)].push_back(k);  // repeats allowed
        ext.insert({l + 1, k});
      }
    }
    keys[size_t(l)].push_back(keys[size_t(l)].front());  // a repeat takes no entry
  }
  extended[1].push_back(rng());  // not a key: ignored
  CatchupTable table(keys, extended);
  CHECK(table.size() == in.size());
  CHECK(table.bytes() <= CatchupTable::bytes_for(in.size()));
  for (auto [level, key] : in) {
    const int32_t s = table.find(level, key);
    REQUIRE(s >= 0);
    CHECK(table.extends(level, s) == (ext.count({level, key}) == 1));
    table.add_seen(level, s, uint64_t(level) + key % 7);
    table.add_played(level, s, 1, key % 2 == 0);
  }
  for (int i = 0; i < 10000; ++i) {
    const uint64_t key = rng();
    const int level = int(rng() % 4) + 1;
    CHECK((table.find(level, key) >= 0) == (in.count({level, key}) == 1));
  }
  CHECK(table.find(1, 0) == -1);
  for (auto [level, key] : in) {
    const PatternCounts c = table.counts_at(level, table.find(level, key));
    CHECK(c.seen == uint64_t(level) + key % 7);
    CHECK(c.played == 1);
    CHECK(c.wins == (key % 2 == 0 ? 1u : 0u));
  }
  // A copy counts apart (one table per thread).
  CatchupTable copy = table;
  const auto [level, key] = *in.begin();
  copy.add_played(level, copy.find(level, key), 1, 1);
  CHECK(copy.counts_at(level, copy.find(level, key)).played == 2);
  CHECK(table.counts_at(level, table.find(level, key)).played == 1);
}

TEST_CASE("catch-up counting: a tracker of fewer levels counts as one of L, and as the resident table does") {
  // The catch-up hashes only the levels up to the largest one it counts:
  // the keys of levels 1..m must not depend on L.  Counted patterns: the
  // played ones of levels 1..4 of some games (with their chains), over
  // other games; the L = 10 resident count is the reference.
  KeyScheme full;
  full.levels = 10;
  KeyScheme four = full;
  four.levels = 4;
  const auto lines = testutil::sample_lines(0, 60);
  std::vector<Game> games(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) REQUIRE(parse_game(lines[i], &games[i]).ok());
  std::vector<std::vector<uint64_t>> keys(10), extended(10);
  {
    std::vector<uint64_t> played;
    PlayedKeys obs(full, &played);
    Board board(19);
    for (size_t g = 0; g < 20; ++g) {
      ReplayResult r;
      obs.start_game(games[g]);
      REQUIRE(replay(games[g], &board, &r, &obs).ok());
    }
    for (size_t m = 0; m + 10 <= played.size(); m += 10)
      for (int l = 1; l <= 4; ++l) {
        keys[size_t(l - 1)].push_back(played[m + size_t(l - 1)]);
        if (l < 4 && m % 3 == 0) extended[size_t(l - 1)].push_back(played[m + size_t(l - 1)]);
      }
  }
  ResidentTable resident(keys, extended);
  std::vector<std::vector<uint64_t>> keys4(keys.begin(), keys.begin() + 4), ext4(extended.begin(), extended.begin() + 4);
  CatchupTable at10(keys, extended), at4(keys4, ext4);
  // A table that counts a quarter of its keys (as the catch-up counts only
  // the newly kept ones, the others leading the walks to them).
  std::vector<std::vector<uint64_t>> quarter(4);
  for (int l = 1; l <= 4; ++l)
    for (uint64_t key : keys[size_t(l - 1)])
      if (key % 4 == 0) quarter[size_t(l - 1)].push_back(key);
  CatchupTable some(keys4, ext4, &quarter);
  CandidateCounter<ResidentTable> c_resident(full, &resident);
  CandidateCounter<CatchupTable> c10(full, &at10), c4(four, &at4), c_some(four, &some);
  Board board(19);
  for (size_t g = 20; g < games.size(); ++g) {
    auto count = [&](auto& counter) {
      ReplayResult r;
      counter.start_game(games[g]);
      REQUIRE(replay(games[g], &board, &r, &counter).ok());
      counter.finish_game();
    };
    count(c_resident);
    count(c10);
    count(c4);
    count(c_some);
  }
  size_t nonzero = 0;
  for (int l = 1; l <= 4; ++l)
    for (uint64_t key : keys[size_t(l - 1)]) {
      const PatternCounts want = resident.counts_at(l, resident.find(l, key));
      const PatternCounts a = at10.counts_at(l, at10.find(l, key)), b = at4.counts_at(l, at4.find(l, key));
      CHECK(a.seen == want.seen);
      CHECK(a.played == want.played);
      CHECK(a.wins == want.wins);
      CHECK(b.seen == want.seen);
      CHECK(b.played == want.played);
      CHECK(b.wins == want.wins);
      nonzero += want.seen > 0 && want.played > 0;
      const int32_t q = some.find(l, key);
      REQUIRE(q >= 0);
      CHECK(CatchupTable::extends(l, q) == CatchupTable::extends(l, at4.find(l, key)));
      CHECK(CatchupTable::counted(l, q) == (key % 4 == 0));
      if (key % 4 == 0) {
        const PatternCounts c = some.counts_at(l, q);
        CHECK(c.seen == want.seen);
        CHECK(c.played == want.played);
        CHECK(c.wins == want.wins);
      }
    }
  CHECK(nonzero > 100);  // the games were really counted, at several levels
}

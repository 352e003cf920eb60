// The frontier index's facts (count/frontier.h, docs/nightly.md) against a
// brute-force count of every played pattern of every stored move: each
// move not kept at every level has one entry, at its first level outside
// the kept set, and the entries under a pattern are all of its plays.
#include <algorithm>
#include <map>

#include "count/frontier.h"
#include "count/kept_keys.h"
#include "count/sketch_pass.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace testutil;

namespace {

struct Played {
  uint64_t played = 0, wins = 0;
};

struct Corpus {
  sgfpat::KeyScheme scheme;
  int min_played = 0;
  std::vector<std::string> records;
  std::map<CountKey, sgfpat::PatternCounts> kept;
};

Corpus counted_corpus(const TempDir& tmp, size_t games, const std::vector<std::string>& flags) {
  const std::string db = tmp / "db";
  const std::string f = tmp / "games.sgf";
  write_file(f, join(sample_lines(0, games)));
  ingest_ok(db, flags, {f}, tmp.path());
  DbSnapshot s = read_db(db);
  INFO(s.error);
  REQUIRE(s.opened);
  Corpus c;
  c.scheme = s.settings.scheme;
  c.min_played = s.settings.min_played;
  c.kept = s.reported();
  sgfpat::OpenOptions o;
  o.secondary = true;
  std::unique_ptr<sgfpat::PatternDb> pdb;
  REQUIRE(sgfpat::PatternDb::Open(db, o, &pdb).ok());
  REQUIRE(pdb->for_each_game([&](const sgfpat::Fingerprint&, std::string_view rec) {
                c.records.emplace_back(rec);
                return true;
              })
              .ok());
  REQUIRE(c.records.size() == s.game_count);
  return c;
}

void check_frontier(const Corpus& c) {
  const int L = c.scheme.levels;
  sgfpat::KeyHashSet kept(L);
  for (const auto& [k, counts] : c.kept) kept.insert(k.first, k.second);
  CHECK(kept.size() == c.kept.size());

  std::vector<sgfpat::FrontierEntry> entries;
  REQUIRE(sgfpat::frontier_entries(c.scheme, c.records, kept, &entries).ok());

  // Brute force: the keys of every level of every played move.
  std::vector<uint64_t> chains;
  REQUIRE(sgfpat::played_keys(c.scheme, c.records, &chains).ok());
  REQUIRE(chains.size() % size_t(L) == 0);
  std::map<CountKey, uint64_t> played;
  size_t not_kept_moves = 0;
  std::map<CountKey, uint64_t> first_out;  // (level, key) of each move's first level outside K
  for (size_t m = 0; m < chains.size(); m += size_t(L)) {
    bool out = false;
    for (int l = 1; l <= L; ++l) {
      const uint64_t key = chains[m + size_t(l - 1)];
      ++played[{l, key}];
      if (!out && !c.kept.count({l, key})) {
        out = true;
        ++first_out[{l, key}];
      }
    }
    not_kept_moves += out;
  }
  MESSAGE(c.records.size() << " games, " << chains.size() / size_t(L) << " moves, " << c.kept.size()
                           << " kept patterns, " << entries.size() << " frontier entries");
  CHECK(entries.size() == not_kept_moves);

  std::map<CountKey, uint64_t> under;
  for (const auto& e : entries) ++under[{e.level, e.key}];
  CHECK(under == first_out);
  size_t wrong = 0;
  for (const auto& [k, n] : under) {
    // Outside K, so played fewer than min_played times over all games, and
    // every play of it is indexed under it.
    if (c.kept.count(k) || played[k] != n || n >= uint64_t(c.min_played)) ++wrong;
  }
  CHECK(wrong == 0);
  // The keys of a move, replayed alone, are those of the whole replay (one
  // PlayedKeysAt for every game, as a thread of a night uses it).
  sgfpat::PlayedKeysAt replay(c.scheme);
  size_t checked = 0;
  for (size_t i = 0; i < entries.size() && checked < 50; i += entries.size() / 50 + 1, ++checked) {
    const auto& e = entries[i];
    size_t game = 0;
    for (; game < c.records.size(); ++game) {
      sgfpat::Game g;
      REQUIRE(sgfpat::decode_game(c.records[game], &g).ok());
      if (sgfpat::game_prefix(sgfpat::game_fingerprint(g)) == e.move.game) break;
    }
    REQUIRE(game < c.records.size());
    std::vector<std::vector<uint64_t>> at;
    const uint32_t number = e.move.number;
    REQUIRE(replay.keys(c.records[game], std::span(&number, 1), &at).ok());
    const std::vector<uint64_t>& keys = at[0];
    REQUIRE(keys.size() == size_t(L));
    CHECK(keys[size_t(e.level - 1)] == e.key);
    CHECK(e.above == (e.level < L ? keys[size_t(e.level)] : 0));
    for (int l = 1; l < e.level; ++l) CHECK(c.kept.count({l, keys[size_t(l - 1)]}) == 1);
  }
  // With min_played 1 every played pattern is kept: no move has a frontier.
  if (c.min_played == 1) CHECK(entries.empty());
  else CHECK(checked > 0);

  // By groups of levels and ranges of one level's keys (as the index is
  // built past the resident size), each pass knowing K only at its own
  // levels, the moves earlier passes listed marked: the same entries, each
  // once.
  std::sort(entries.begin(), entries.end());
  const std::vector<std::vector<sgfpat::LevelGroup>> partitions = {
      {{1, 1, 1}, {2, 2, 1}, {3, 3, 1}, {4, 4, 1}, {5, 5, 1}, {6, 6, 1}, {7, 7, 1}, {8, 8, 1}},
      {{1, 2, 1}, {3, 3, 3}, {4, 5, 1}, {6, 6, 2}, {7, 8, 1}},
      {{1, 4, 1}, {5, 8, 1}}};
  for (const auto& groups : partitions) {
    std::vector<sgfpat::FrontierEntry> by_groups;
    // Room for a third of the games: the others' marks go to its set.
    sgfpat::MoveMarks marks(c.records.size() / 3);
    for (const sgfpat::LevelGroup& g : groups)
      for (int p = 0; p < g.parts; ++p) {
        sgfpat::FrontierPass pass;
        pass.first = g.first;
        pass.last = g.last;
        pass.range = sgfpat::PartRange::share(p, g.parts);
        pass.listed = &marks;
        sgfpat::KeyHashSet part(L);
        for (const auto& [k, counts] : c.kept)
          if (k.first >= g.first && k.first <= g.last && pass.range.contains(k.second)) part.insert(k.first, k.second);
        sgfpat::KeyHashSet none(L);
        // In two batches, the second's games numbered after the first's.
        const size_t half = c.records.size() / 2;
        const std::span<const std::string> all(c.records);
        REQUIRE(sgfpat::frontier_entries(c.scheme, all.first(half), part, &by_groups, &none, nullptr, &pass).ok());
        pass.first_game = half;
        REQUIRE(sgfpat::frontier_entries(c.scheme, all.subspan(half), part, &by_groups, &none, nullptr, &pass).ok());
      }
    std::sort(by_groups.begin(), by_groups.end());
    CAPTURE(groups.size());
    CHECK(by_groups.size() == entries.size());
    CHECK((by_groups == entries));
  }
}

}  // namespace

TEST_CASE("the frontier of every move: one entry, at its first level outside the kept set, all plays under it") {
  for (int min_played : {1, 2, 3}) {
    CAPTURE(min_played);
    TempDir tmp("sgfpat-frontier");
    Corpus c = counted_corpus(tmp, 300, {"--levels", "8", "--min-played", std::to_string(min_played), "--threads", "2"});
    check_frontier(c);
  }
}

TEST_CASE("a move past the end has no keys") {
  TempDir tmp("sgfpat-frontier");
  Corpus c = counted_corpus(tmp, 3, {"--levels", "4", "--min-played", "2", "--threads", "1"});
  std::vector<std::vector<uint64_t>> keys;
  const uint32_t past = 100000;
  CHECK(sgfpat::PlayedKeysAt(c.scheme).keys(c.records[0], std::span(&past, 1), &keys).is_not_found());
}

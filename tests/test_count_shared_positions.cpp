// Positions shared by consecutive games (count/shared_positions.h): the
// plan's weights, and counting with it against counting every game apart.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "board/replay.h"
#include "count/candidate_counter.h"
#include "count/count_games.h"
#include "count/game_feed.h"
#include "count/kept_set.h"
#include "count/resident_table.h"
#include "count/shared_positions.h"
#include "sgf/parser.h"
#include "store/game_record.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace sgfpat;

namespace {

Game parse(const std::string& sgf) {
  Game g;
  REQUIRE(parse_game(sgf, &g).ok());
  return g;
}

std::vector<uint32_t> w(std::initializer_list<uint32_t> v) { return v; }

}  // namespace

TEST_CASE("shared positions: the last position two games have in common, passes and setups included") {
  const Game a = parse("(;SZ[19];B[pd];W[dp];B[pp];W[dd])");
  const Game b = parse("(;SZ[19];B[pd];W[dp];B[pp];W[dc])");
  // Moves 1-3 the same: positions 1..4 are the same boards.
  CHECK(shared_positions(a, b, 64) == 4);
  CHECK(shared_positions(a, a, 64) == 4);  // a game has no position after its last move
  CHECK(shared_positions(a, b, 2) == 2);
  CHECK(shared_positions(a, parse("(;SZ[19];B[dd])"), 64) == 1);  // the empty board
  CHECK(shared_positions(a, parse("(;SZ[13];B[dd];W[jj])"), 64) == 0);
  CHECK(shared_positions(a, parse("(;SZ[19]RU[NZ];B[pd];W[dp])"), 64) == 0);  // suicide rules differ
  CHECK(shared_positions(a, parse("(;SZ[19]AB[dd];B[pd];W[dp])"), 64) == 0);  // setup before move 1
  // A pass is no position: the last shared one is the one before it, or
  // after it when both passed.
  const Game p = parse("(;SZ[19];B[pd];W[];B[pp];W[dd])");
  CHECK(shared_positions(p, parse("(;SZ[19];B[pd];W[];B[pp];W[cc])"), 64) == 4);
  CHECK(shared_positions(p, parse("(;SZ[19];B[pd];W[];B[];W[cc])"), 64) == 1);
  CHECK(shared_positions(p, parse("(;SZ[19];B[pd];W[dp])"), 64) == 1);
}

TEST_CASE("shared positions: each position counted once, weighted by the games that have it") {
  std::vector<Game> games = {
      parse("(;SZ[19]RE[B+R];B[aa];W[bb];B[cc];W[dd])"),  // 0
      parse("(;SZ[19]RE[W+R];B[aa];W[bb];B[cc];W[ee])"),  // 1: positions 1..4 as game 0
      parse("(;SZ[19]RE[B+R];B[aa];W[bb];B[ff];W[gg])"),  // 2: 1..3
      parse("(;SZ[19]RE[W+R];B[hh];W[ii])"),              // 3: the empty board only
      parse("(;SZ[19]RE[0];B[jj];W[kk])"),                // 4: the same
  };
  std::vector<SharedPlan> plans;
  plan_shared_positions(games, 64, &plans);
  REQUIRE(plans.size() == 5);
  // Game 0 counts the seen of position 1 for all five games, of position 2
  // for three; its own move 1 (B aa) for three games, two of them won by
  // Black (0 and 2); move 2 (W bb) for three, won by White in game 1 only.
  CHECK(plans[0].restore_at == 0);
  CHECK(plans[0].seen == w({1, 5, 3, 3, 2}));
  CHECK(plans[0].played == w({1, 3, 3, 2, 1}));
  CHECK(plans[0].wins == w({0, 2, 1, 1, 0}));
  CHECK(plans[0].keep == std::vector<int>{1, 3, 4});
  // Game 1 restores position 4 and counts only its own move there on.
  CHECK(plans[1].restore_at == 4);
  CHECK(plans[1].restore_last);
  CHECK(plans[1].keep.empty());
  CHECK(plans[1].played[4] == 1);
  CHECK(plans[1].wins == w({0, 0, 1, 0, 1}));
  CHECK(plans[2].restore_at == 3);
  CHECK(plans[2].restore_last);
  // Games 3 and 4 both restore the empty board: the first of them copies it.
  CHECK(plans[3].restore_at == 1);
  CHECK_FALSE(plans[3].restore_last);
  CHECK(plans[4].restore_at == 1);
  CHECK(plans[4].restore_last);
  CHECK(plans[4].wins == w({0, 0, 0}));  // no winner
}

TEST_CASE("shared positions: a batch counted with its plans gives the counts of every game counted apart") {
  // Real games sorted by their moves (openings side by side), with a copy
  // of one, a game cut short that another continues, and variants that
  // pass where the other plays, so that every kind of shared beginning
  // is there.  Counted: every played pattern of levels 1..10.
  KeyScheme scheme;
  scheme.levels = 10;
  const auto lines = testutil::sample_lines(0, 300);
  std::vector<Game> games;
  for (const std::string& line : lines) games.push_back(parse(line));
  games.push_back(games[5]);
  Game cut = games[7];
  cut.actions.resize(30);
  games.push_back(cut);
  Game passes = games[9];
  passes.actions.resize(20);
  passes.actions.push_back(Action{Action::Kind::Play, games[9].actions[20].color, kPass});
  games.push_back(passes);
  Game late = games[11];
  late.actions.resize(60);
  late.actions.push_back(Action{Action::Kind::Play, late.actions[58].color, kPass});
  games.push_back(late);
  std::sort(games.begin(), games.end(), [](const Game& a, const Game& b) {
    return std::lexicographical_compare(a.actions.begin(), a.actions.end(), b.actions.begin(), b.actions.end(),
                                        [](const Action& x, const Action& y) {
                                          return std::tie(x.point.y, x.point.x, x.color) <
                                                 std::tie(y.point.y, y.point.x, y.color);
                                        });
  });
  std::vector<std::string> records;
  for (const Game& g : games) records.push_back(encode_game(g));

  std::vector<std::vector<uint64_t>> keys(10), extended(10);
  {
    std::vector<uint64_t> played;
    PlayedKeys obs(scheme, &played);
    Board board(19);
    for (const Game& g : games) {
      ReplayResult r;
      obs.start_game(g);
      REQUIRE(replay(g, &board, &r, &obs).ok());
    }
    for (size_t m = 0; m + 10 <= played.size(); m += 10)
      for (int l = 1; l <= 10; ++l) {
        keys[size_t(l - 1)].push_back(played[m + size_t(l - 1)]);
        if (l < 10) extended[size_t(l - 1)].push_back(played[m + size_t(l - 1)]);
      }
  }
  ResidentTable apart(keys, extended), shared(keys, extended);
  CandidateCounter<ResidentTable> c_apart(scheme, &apart), c_shared(scheme, &shared);
  REQUIRE(count_batch(records, &c_apart).ok());
  REQUIRE(count_batch_shared(records, &c_shared).ok());
  CHECK(c_shared.positions() == c_apart.positions());
  CHECK(c_shared.candidates() == c_apart.candidates());

  // The plans did share: most games restore a position past the first.
  std::vector<SharedPlan> plans;
  plan_shared_positions(games, kMaxSharedPositions, &plans);
  size_t deep = 0, copies = 0;
  for (const SharedPlan& p : plans) {
    deep += p.restore_at > 1;
    copies += p.restore_at > 0 && !p.restore_last;
  }
  CHECK(deep > games.size() / 2);
  CHECK(copies > 0);

  size_t differ = 0, counted = 0;
  for (int l = 1; l <= 10; ++l)
    for (uint64_t key : keys[size_t(l - 1)]) {
      const PatternCounts a = apart.counts_at(l, apart.find(l, key));
      const PatternCounts b = shared.counts_at(l, shared.find(l, key));
      differ += a.seen != b.seen || a.played != b.played || a.wins != b.wins;
      counted += a.seen > 0;
    }
  CHECK(differ == 0);
  CHECK(counted > 10000);
}

TEST_CASE("games by opening: stored games come back sorted so that alike beginnings are side by side") {
  testutil::TempDir tmp("sgfpat-by-opening");
  OpenOptions o;
  o.create_if_missing = true;
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(tmp / "db", o, &db).ok());
  // Twelve games in four openings, stored in fingerprint order (which
  // mixes them).
  const char* openings[] = {"B[pd];W[dp]", "B[pd];W[dd]", "B[qd];W[dp]", "B[dd];W[pp]"};
  std::vector<std::pair<Fingerprint, std::string>> records;
  std::vector<std::pair<Fingerprint, int>> opening_of;
  for (int i = 0; i < 12; ++i) {
    const Game g = parse(std::string("(;SZ[19];") + openings[i % 4] + ";B[" + char('a' + i) + "a])");
    records.emplace_back(game_fingerprint(g), encode_game(g));
    opening_of.emplace_back(game_fingerprint(g), i % 4);
  }
  REQUIRE(db->add_games(records, 36).ok());
  std::vector<Fingerprint> order;
  REQUIRE(games_by_opening(*db, &order).ok());
  REQUIRE(order.size() == 12);
  // Each opening's games are consecutive: the opening changes three times.
  auto opening = [&](const Fingerprint& fp) {
    return std::find_if(opening_of.begin(), opening_of.end(), [&](const auto& p) { return p.first == fp; })->second;
  };
  int changes = 0;
  for (size_t i = 1; i < order.size(); ++i) changes += opening(order[i]) != opening(order[i - 1]);
  CHECK(changes == 3);
  // Read back in that order, every record once.
  std::vector<Fingerprint> visited;
  REQUIRE(for_each_game_in(*db, order, [&](const Fingerprint& fp, std::string_view rec) {
            Game g;
            CHECK(decode_game(rec, &g).ok());
            CHECK(game_fingerprint(g) == fp);
            visited.push_back(fp);
            return true;
          }).ok());
  CHECK(visited == order);
  // A fingerprint that is not stored is damage, not an empty record.
  std::vector<Fingerprint> missing = {order[0], Fingerprint{}};
  std::vector<std::string> got;
  CHECK(db->get_games(missing, &got).is_corruption());
  // An unreadable record has no opening key.
  uint8_t key[kOpeningKeyBytes];
  CHECK_FALSE(opening_key("garbage", key));
  CHECK(opening_key(records[0].second, key));
}

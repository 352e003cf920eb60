// The engine's search (PUCT-RAVE over tactical playouts): tactical
// positions as board diagrams with the expected move, the playout's
// judgements (captures, escapes, self-atari), AMAF statistics, tree reuse,
// the memory bound, the time budget and thread scaling (printed, not
// asserted: the machine is shared).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>

#include "board_diagram.h"
#include "mcts/ladder.h"
#include "mcts/mcts.h"
#include "mcts/patterns3x3.h"

using namespace sgfpat;
using namespace sgfpat::mcts;
using sgfpat::test::make_board;
using sgfpat::test::pt;

namespace {

// The options the GTP engine uses, with a budget.
SearchOptions engine_opts(int64_t playouts, uint64_t seed = 1, int threads = 1) {
  SearchOptions o;
  o.iterations = playouts;
  o.seed = seed;
  o.threads = threads;
  o.skip_own_eyes = true;
  o.expand_visits = 2;
  return o;
}

Point best_move(const std::string& diagram, Color mover, int64_t playouts, double komi, uint64_t seed = 1) {
  SearchOptions o = engine_opts(playouts, seed);
  o.komi = komi;
  Search s(nullptr, {}, o);
  SearchResult r = s.run(make_board(diagram), mover);
  REQUIRE(r.has_move);
  return r.best;
}

}  // namespace

TEST_CASE("check_move: captures, liberties, self-atari") {
  // The white stone C3 (r2,c2) is in atari, its liberty D3 (r2,c3).
  Board b = make_board(
      ".....|"
      "..X..|"
      ".XO..|"
      "..X..|"
      ".....");
  MoveCheck cap = check_move(b, b.index(pt(2, 3)), Color::Black);
  CHECK(cap.captures);
  CHECK(cap.captured_stones == 1);
  CHECK_FALSE(cap.self_atari());
  // White's extension at D3 leaves two liberties: not self-atari.
  MoveCheck ext = check_move(b, b.index(pt(2, 3)), Color::White);
  CHECK(ext.saves);
  CHECK(ext.libs >= 2);
  // A white stone at A1 corner next to black: one liberty, self-atari.
  Board c = make_board("X....|.....|.....|.....|.....");
  MoveCheck sa = check_move(c, c.index(pt(0, 1)), Color::White);
  CHECK(sa.libs == 2);
  Board d = make_board(".X...|.....|.....|.....|.....");
  MoveCheck corner = check_move(d, d.index(pt(0, 0)), Color::White);
  CHECK(corner.self_atari());
  CHECK_FALSE(corner.joins);
}

TEST_CASE("tactical factor: capture and escape up, self-atari down") {
  Board b = make_board(
      ".........|"
      ".........|"
      "..X......|"
      ".XO......|"
      "..X......|"
      ".........|"
      ".........|"
      ".........|"
      ".........");
  const int key = b.index(pt(3, 3));
  CHECK(tactical_factor(b, key, Color::Black) > 2);  // captures
  CHECK(tactical_factor(b, key, Color::White) > 2);  // escapes
  CHECK(tactical_factor(b, b.index(pt(0, 8)), Color::Black) < 0.5);  // empty corner, first line
}

TEST_CASE("playout policy: results, ownership and first movers") {
  Rng rng(3);
  Board b(9);
  PlayoutOptions po;
  Playout p(po, nullptr, nullptr);
  Owners owners{};
  std::array<uint8_t, Board::kMaxIndex> first{};
  Board copy = b;
  int r = p.run(copy, Color::Black, -1, 7.5, rng, &owners, &first);
  CHECK((r == 0 || r == 2));
  int black = 0, white = 0, firsts = 0;
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) {
      const int idx = b.index(pt(y, x));
      black += owners[size_t(idx)] == uint8_t(Color::Black);
      white += owners[size_t(idx)] == uint8_t(Color::White);
      firsts += first[size_t(idx)] != 0;
    }
  CHECK(black + white <= 81);
  CHECK(black + white >= 70);  // a finished playout leaves few neutral points
  CHECK(r == (double(black) - white - 7.5 > 0 ? 2 : 0));
  CHECK(firsts > 40);
}

TEST_CASE("tactics: captures to win a capturing race") {
  const char* race = ".......|.......|.......|.......|XXXXXXX|XOOOOOO|XOXXXX.";
  for (uint64_t seed : {1, 2})
    CHECK(best_move(race, Color::Black, 2000, 30, seed) == pt(6, 6));
}

TEST_CASE("tactics: escapes from atari (both colors)") {
  const char* white = ".......|..XXX..|.XOOOX.|.XOOOX.|..XOX..|.......|.......";
  const char* black = ".......|..OOO..|.OXXXO.|.OXXXO.|..OXO..|.......|.......";
  CHECK(best_move(white, Color::White, 2000, 7.5) == pt(5, 3));
  CHECK(best_move(black, Color::Black, 2000, -7.5) == pt(5, 3));
}

TEST_CASE("AMAF statistics are gathered for the root's children") {
  Search s(nullptr, {}, engine_opts(500));
  SearchResult r = s.run(Board(7), Color::Black);
  int64_t amaf = 0;
  for (const ChildStats& c : r.children) amaf += c.amaf_visits;
  CHECK(amaf > 500);  // every playout credits many root moves
  SearchOptions o = engine_opts(500);
  o.rave_equiv = 0;
  Search plain(nullptr, {}, o);
  SearchResult p = plain.run(Board(7), Color::Black);
  amaf = 0;
  for (const ChildStats& c : p.children) amaf += c.amaf_visits;
  CHECK(amaf == 0);
}

TEST_CASE("tree reuse: the subtree of the moves played becomes the root") {
  SearchOptions o = engine_opts(2000);
  o.reuse_tree = true;
  Search s(nullptr, {}, o);
  Board b(9);
  SearchResult r1 = s.run(b, Color::Black);
  CHECK(r1.reused_visits == 0);
  // Black plays the best move, White the reply the tree explored most.
  const Node* root = s.root();
  const Node* a = nullptr;
  for (int i = 0; i < root->num_children; ++i)
    if (root->children[size_t(i)].move == r1.best) a = &root->children[size_t(i)];
  REQUIRE(a != nullptr);
  REQUIRE(a->state.load() == Node::kExpanded);
  const Node* reply = &a->children[0];
  for (int i = 0; i < a->num_children; ++i)
    if (a->children[size_t(i)].n.load() > reply->n.load()) reply = &a->children[size_t(i)];
  const int32_t kept = reply->n.load();
  REQUIRE(kept > 1);
  b.play(r1.best, Color::Black);
  b.play(reply->move, Color::White);
  SearchResult r2 = s.run(b, Color::Black);
  CHECK(r2.reused_visits == kept);
  CHECK(r2.root_visits == kept + r2.iterations);
  // A position that does not follow: a fresh tree.
  Board other(9);
  other.play(pt(0, 0), Color::Black);
  other.play(pt(8, 8), Color::White);
  SearchResult r3 = s.run(other, Color::Black);
  CHECK(r3.reused_visits == 0);
}

TEST_CASE("memory bound: the tree stops growing at max_tree_mb") {
  SearchOptions o = engine_opts(20000);
  o.expand_visits = 1;
  o.max_tree_mb = 1;
  Search s(nullptr, {}, o);
  SearchResult r = s.run(Board(9), Color::Black);
  CHECK(r.tree_full);
  // One expansion may overshoot by one node's children.
  CHECK(r.nodes <= s.max_nodes() + 81);
  CHECK(r.iterations == 20000);
  CHECK(r.root_visits == 20000);
}

TEST_CASE("time budget: a run stops at max_seconds") {
  SearchOptions o = engine_opts(100000000);
  o.max_seconds = 0.3;
  Search s(nullptr, {}, o);
  SearchResult r = s.run(Board(9), Color::Black);
  CHECK(r.iterations < 100000000);
  CHECK(r.iterations > 0);
  CHECK(r.seconds < 10);  // generous: the machine is shared
}

TEST_CASE("pass in the tree: a seki's shared liberty is not filled, a won game not thrown away") {
  // Top edge: Black's corner group (one eye, A7) and White's group (one
  // eye, E7) share their last liberty C7.  Both outer groups live.  Black
  // wins by 29 - 19 - 7.5 as it stands; C7 is Black's only move besides
  // its own eyes, and it loses the corner and the game.  Without a pass in
  // the tree the search has to play it.
  const char* seki =
      ".X.O.OX|"
      "XXOOOOX|"
      "OOXXXXX|"
      ".OOX.X.|"
      "OOOXXXX|"
      ".OXX.X.|"
      "OOX.XXX";
  SearchOptions o = engine_opts(2000);
  Search s(nullptr, {}, o);
  SearchResult r = s.run(make_board(seki), Color::Black);
  REQUIRE(r.has_move);
  CHECK(r.best == kPass);
  CHECK(r.win_rate > 0.8);
  o.pass_in_tree = false;
  Search forced(nullptr, {}, o);
  CHECK(forced.run(make_board(seki), Color::Black).best == pt(0, 2));
}

namespace {
// The move with the largest prior the tree gives `mover`.
Point top_prior(const Board& b, Color mover) {
  Search s(nullptr, {}, engine_opts(1));
  Point best = kPass;
  double top = -1;
  for (const MovePrior& m : s.priors_of(b, mover))
    if (m.prior > top) {
      top = m.prior;
      best = m.point;
    }
  return best;
}
}  // namespace

TEST_CASE("ladders: an escape into a working ladder is not urged; a ladder breaker makes it the move") {
  // White's stone C3 is in atari (Black has just played C2); pulling it
  // out at D3 runs a ladder toward the upper right, which the edge ends.
  const char* ladder =
      ".........|"
      ".........|"
      ".........|"
      ".........|"
      ".........|"
      "..X......|"
      ".XO......|"
      "..XX.....|"
      ".........";
  // The same with a white stone on the ladder's path (G7): the ladder breaker.
  const Board a = make_board(ladder);
  Board b = a;
  b.setup(pt(2, 6), Color::White);
  const int stone = a.index(pt(6, 2)), escape = a.index(pt(6, 3));
  CHECK(atari_holds(a, stone));
  CHECK_FALSE(atari_holds(b, stone));
  Board pulled = a;
  REQUIRE(pulled.play(pt(6, 3), Color::White) == MoveError::None);
  CHECK(ladder_captures(pulled, stone, Color::Black));
  Board pulled_b = b;
  REQUIRE(pulled_b.play(pt(6, 3), Color::White) == MoveError::None);
  CHECK_FALSE(ladder_captures(pulled_b, stone, Color::Black));
  CHECK(tactical_factor(a, escape, Color::White) < 1);
  CHECK(tactical_factor(b, escape, Color::White) > 2);
  // The tree's first choice for White: the escape only with the breaker.
  CHECK(top_prior(b, Color::White) == pt(6, 3));
  CHECK(top_prior(a, Color::White) != pt(6, 3));
  // Black, before its atari: either atari works (C2 toward the upper
  // right, D3 toward the lower edge) and is urged as a capture would be;
  // with the breaker only D3 still works.
  const Board start = make_board(
      ".........|.........|.........|.........|.........|..X......|.XO......|...X.....|.........");
  CHECK(ladder_captures(start, stone, Color::Black));
  CHECK(tactical_factor(start, start.index(pt(7, 2)), Color::Black) > 4);
  Board start_b = start;
  start_b.setup(pt(2, 6), Color::White);
  CHECK(tactical_factor(start_b, start_b.index(pt(7, 2)), Color::Black) < 2);
  CHECK(tactical_factor(start_b, start_b.index(pt(6, 3)), Color::Black) > 4);
}

TEST_CASE("3x3 shapes: hane and cut answered, empty surroundings not") {
  // A white stone D5 attached to black D4: the hane points C5/E5 match.
  const Board b = make_board(
      ".........|.........|.........|.........|...O.....|...X.....|.........|.........|.........");
  CHECK(is_pattern3x3_move(b, b.index(pt(4, 2))));
  CHECK(is_pattern3x3_move(b, b.index(pt(4, 4))));
  CHECK_FALSE(is_pattern3x3_move(b, b.index(pt(1, 1))));
  // Colours swapped and rotated: the same answer.
  const Board c = make_board(
      ".........|.........|.........|.........|...XO....|.........|.........|.........|.........");
  CHECK(is_pattern3x3_move(c, c.index(pt(3, 3))));
  CHECK(is_pattern3x3_move(c, c.index(pt(5, 4))));
  // A cut: X O / O . with the cutting point empty and no support.
  const Board cut = make_board(".....|.XO..|.O...|.....|.....");
  CHECK(is_pattern3x3_move(cut, cut.index(pt(2, 2))));
}

TEST_CASE("early stop: a run ends when the leader cannot be overtaken") {
  SearchOptions o = engine_opts(20000);
  o.early_stop = true;
  o.komi = 30;
  Search s(nullptr, {}, o);
  SearchResult r = s.run(make_board(".......|.......|.......|.......|XXXXXXX|XOOOOOO|XOXXXX."), Color::Black);
  CHECK(r.best == pt(6, 6));
  CHECK(r.iterations < 20000);
}

TEST_CASE("threads: visits add up, and playouts per second on 1 and 2 threads") {
  Board b(9);
  b.play(pt(4, 4), Color::Black);
  double rate[3] = {0, 0, 0};
  for (int threads : {1, 2}) {
    SearchOptions o = engine_opts(4000, 5, threads);
    Search s(nullptr, {}, o);
    SearchResult r = s.run(b, Color::White);
    CHECK(r.root_visits == 4000);
    int64_t sum = 0;
    for (const ChildStats& c : r.children) sum += c.visits;
    CHECK(sum == 4000);
    rate[threads] = r.playouts_per_second;
  }
  // A figure, not an assertion: the machine is shared.
  MESSAGE("9x9 playouts/s: 1 thread " << rate[1] << ", 2 threads " << rate[2] << " (x" << rate[2] / rate[1] << ")");
}

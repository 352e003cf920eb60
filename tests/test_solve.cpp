// The atari-go rules of lib/solve checked against the rules engine, the
// tactics (forced replies, capture search) and the proving search on
// hand-made positions whose answers are worked out in the comments.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <string>

#include "board/board.h"
#include "solve/atari_board.h"
#include "solve/flat_key_set.h"
#include "solve/proof_search.h"
#include "solve/tactics.h"

using namespace sgfpat;
using namespace sgfpat::solve;

namespace {

struct Diagram {
  Geometry g;
  Position pos;
};

Diagram diagram(const std::string& rows, Color to_move) {
  Diagram d;
  Status st = parse_rows(rows, &d.g, &d.pos);
  REQUIRE_MESSAGE(st.ok(), st.message());
  d.pos.to_move = to_move;
  return d;
}

// The rules engine's point for bit index p of g.
Point engine_point(const Geometry& g, int p) { return Point{int8_t(g.x_of(p)), int8_t(g.y_of(p))}; }

int pt(const Geometry& g, const char* name) {
  int p = -1;
  REQUIRE(g.parse(name, &p));
  return p;
}

SolveResult solve_diagram(const Diagram& d, double seconds = 20) {
  SolveOptions o;
  o.seconds = seconds;
  o.table_mb = 16;
  Solver s(d.g, o);
  return s.solve(d.pos);
}

}  // namespace

TEST_CASE("geometry: names and rows round trip on a rectangular board") {
  Geometry g(7, 5);
  CHECK(g.points() == 35);
  CHECK(popcount(g.board()) == 35);
  CHECK(g.name(g.index(0, 0)) == "A5");
  CHECK(g.name(g.index(6, 4)) == "G1");
  int p;
  CHECK(g.parse("g1", &p));
  CHECK(p == g.index(6, 4));
  CHECK_FALSE(g.parse("H1", &p));  // off a 7-wide board
  CHECK_FALSE(g.parse("A6", &p));
  Diagram d = diagram("X.O.../....../......", Color::Black);
  CHECK(d.g.width() == 6);
  CHECK(d.g.height() == 3);
  CHECK(to_rows(d.g, d.pos) == "X.O...\n......\n......\n");
  Geometry g2;
  Position p2;
  CHECK_FALSE(parse_rows("XO/O.", &g2, &p2).ok());    // X has no liberty
  CHECK_FALSE(parse_rows("X../..", &g2, &p2).ok());   // ragged rows
  CHECK_FALSE(parse_rows("X?./...", &g2, &p2).ok());  // unknown point
}

// Every point's neighbours in a set, counted for the whole board at once,
// against one point at a time; boards on one word and on two.
TEST_CASE("geometry: neighbour counts of every point at once match each point's") {
  std::mt19937_64 rng(21);
  for (auto [w, h] : {std::pair{6, 6}, {7, 5}, {2, 9}, {9, 9}}) {
    Geometry g(w, h);
    for (int trial = 0; trial < 200; ++trial) {
      Bits b = 0;
      for (Bits e = g.board(); e; e &= e - 1)
        if (rng() % 3) b |= bit(lowest(e));
      Bits two, three, four;
      g.neighbour_counts(b, &two, &three, &four);
      for (int p = 0; p < 128; ++p) {
        const int n = (g.board() & bit(p)) ? popcount(g.neighbours(bit(p)) & b) : 0;
        CHECK(bool(two & bit(p)) == (n >= 2));
        CHECK(bool(three & bit(p)) == (n >= 3));
        CHECK(bool(four & bit(p)) == (n >= 4));
      }
    }
  }
}

// Random atari-go games on the rules engine: every move's kind (capture,
// suicide, normal) must be what the engine says, until the first capture.
TEST_CASE("rules agree with the rules engine on random games") {
  std::mt19937 rng(15);
  int captures = 0, suicides = 0, moves = 0;
  for (int game = 0; game < 400; ++game) {
    int n = 3 + game % 5;
    Board board(n);
    Geometry g(n, n);
    Position pos;
    Color c = Color::Black;
    for (int ply = 0; ply < n * n; ++ply) {
      std::vector<int> empty;
      for (Bits e = g.board() & ~pos.occupied(); e; e &= e - 1) empty.push_back(lowest(e));
      if (empty.empty()) break;
      int p = empty[rng() % empty.size()];
      Point bp = engine_point(g, p);
      MoveKind k = classify_move(g, pos, c, p);
      MoveError err = board.check(bp, c);
      if (k == MoveKind::Suicide) {
        ++suicides;
        CHECK(err == MoveError::Suicide);
        continue;
      }
      REQUIRE(err == MoveError::None);
      REQUIRE(board.play(bp, c) == MoveError::None);
      ++moves;
      CHECK((k == MoveKind::Capture) == !board.last_removed().empty());
      if (k == MoveKind::Capture) {
        ++captures;
        break;
      }
      pos.stones(c) |= bit(p);
      c = opponent(c);
      Geometry g3;
      Position from_engine;
      REQUIRE(from_board(board, c, &g3, &from_engine).ok());
      CHECK(from_engine.black == pos.black);
      CHECK(from_engine.white == pos.white);
    }
  }
  CHECK(captures > 300);
  CHECK(suicides > 10);
  CHECK(moves > 2000);
}

// On positions of random games, boards 3x3 to 9x9 (the 9x9 ones past 64
// bits): the moves analyse_node() lists are exactly those the rules engine
// says leave the mover's chain at least two liberties (and, with a chain of
// the mover in atari, only its liberty), best first (higher score, then the
// lower point); a move next to no enemy stone scores 3 a liberty (up to
// four) plus 8 next to an own stone, 4 two steps from one.
TEST_CASE("tactics: the listed moves are the engine's non-self-ataris, in order of their scores") {
  std::mt19937 rng(16);
  int positions = 0, listed = 0, left_out = 0, scored = 0;
  for (int game = 0; game < 300; ++game) {
    const int n = 3 + game % 7;
    Board board(n);
    Geometry g(n, n);
    Position pos;
    Color c = Color::Black;
    for (int ply = 0; ply < n * n; ++ply) {
      NodeTactics t;
      analyse_node(g, pos.stones(c), pos.stones(opponent(c)), &t);
      if (t.verdict == Verdict::Win) break;  // the next move would capture
      if (t.verdict == Verdict::Unknown) {
        ++positions;
        int saving = -1;  // the liberty of the mover's chain in atari, if any
        for (Bits s = pos.stones(c); s; s &= s - 1) {
          const Point sp = engine_point(g, lowest(s));
          if (board.liberties(sp) == 1) board.chain_liberties(board.index(sp), &saving, 1);
        }
        for (Bits e = g.board() & ~pos.occupied(); e; e &= e - 1) {
          const int p = lowest(e);
          const Point bp = engine_point(g, p);
          Board after = board;
          bool expect = after.play(bp, c) == MoveError::None && after.liberties(bp) >= 2;
          if (saving >= 0 && board.index(bp) != saving) expect = false;
          const Candidate* listed_as = nullptr;
          for (const Candidate& m : t.moves)
            if (m.point == p) listed_as = &m;
          CHECK_MESSAGE((listed_as != nullptr) == expect, to_rows(g, pos), " ", g.name(p));
          ++(expect ? listed : left_out);
          const Bits around = g.neighbours(bit(p));
          if (listed_as && !(around & pos.stones(opponent(c)))) {
            const Bits own = pos.stones(c);
            const int near = (around & own) ? 8 : (g.neighbours(around) & own) ? 4 : 0;
            CHECK_MESSAGE(listed_as->score == std::min(after.liberties(bp), 4) * 3 + near, to_rows(g, pos), " ",
                          g.name(p));
            ++scored;
          }
        }
        for (int i = 1; i < t.moves.size(); ++i)
          CHECK_MESSAGE((t.moves[i - 1].score > t.moves[i].score ||
                         (t.moves[i - 1].score == t.moves[i].score && t.moves[i - 1].point < t.moves[i].point)),
                        to_rows(g, pos), " ", g.name(t.moves[i].point));
      }
      std::vector<int> normal;  // moves that neither capture nor are suicide
      for (Bits e = g.board() & ~pos.occupied(); e; e &= e - 1)
        if (classify_move(g, pos, c, lowest(e)) == MoveKind::Normal) normal.push_back(lowest(e));
      if (normal.empty()) break;
      const int p = normal[rng() % normal.size()];
      REQUIRE(board.play(engine_point(g, p), c) == MoveError::None);
      pos.stones(c) |= bit(p);
      c = opponent(c);
    }
  }
  CHECK(positions > 2000);
  CHECK(listed > 20000);
  CHECK(left_out > 1000);
  CHECK(scored > 10000);
}

TEST_CASE("tactics: capture now, forced extension, two chains in atari, only self-ataris") {
  NodeTactics t;
  // White's O at B4 has one liberty: A4, B5 and B3 are Black's, C4 is empty.
  Diagram d = diagram(".X.../XO.../.X.../...../.....", Color::Black);
  analyse_node(d.g, d.pos.black, d.pos.white, &t);
  CHECK(t.verdict == Verdict::Win);
  CHECK(t.capture_point == pt(d.g, "C4"));
  // Same shape, White to move: its only move that does not lose is C4.
  analyse_node(d.g, d.pos.white, d.pos.black, &t);
  CHECK(t.verdict == Verdict::Unknown);
  REQUIRE(t.moves.size() == 1);
  CHECK(t.moves[0].point == pt(d.g, "C4"));
  // White's corner stones are both in atari, at A4 and E4: White to move
  // saves one, Black captures the other.
  Diagram two = diagram("OX.XO/...../...../...../.....", Color::White);
  analyse_node(two.g, two.pos.white, two.pos.black, &t);
  CHECK(t.verdict == Verdict::Loss);
  // Ordering: the atari on a two-liberty chain comes first.
  Diagram order = diagram("....../..XO../...X../....../....../......", Color::Black);
  analyse_node(order.g, order.pos.black, order.pos.white, &t);
  REQUIRE(!t.moves.empty());
  int first = t.moves[0].point;
  CHECK((first == pt(order.g, "D6") || first == pt(order.g, "E5")));
}

// A ladder: White's O at C5 (7x7) has two liberties, D5 and C4; Black's
// stones at B5, C6 and D4 make it run down to the left edge:
// B D5 W C4, B C3 W B4, B B3 W A4, B A3 W A5 (now in atari), B captures.
TEST_CASE("capture search: a working ladder needs its full depth") {
  Diagram d = diagram(".......\n..X....\n.XO....\n...X...\n.......\n.......\n.......", Color::Black);
  uint64_t played = 0;
  int first = -1;
  CHECK(capture_search(d.g, d.pos.black, d.pos.white, 11, &played, &first));
  CHECK(played > 0);
  CHECK((first == pt(d.g, "D5") || first == pt(d.g, "C4")));
  CHECK_FALSE(capture_search(d.g, d.pos.black, d.pos.white, 5, &played, &first));
  // The proving search agrees: Black to move wins.
  SolveResult r = solve_diagram(d);
  CHECK(r.verdict == Verdict::Win);
}

// The zone of a capture: a defender's stone anywhere off it (not a capture,
// not suicide) leaves the capture working.  The proving search settles the
// moves off the zone as lost without playing them, so this must hold on every
// position; checked on the positions of random games with the search run
// again, stone by stone.
TEST_CASE("capture search: a defender's stone off the zone never stops the capture") {
  std::mt19937 rng(1515);
  int captures = 0, off_zone = 0, ladder_zone = 0;
  for (int game = 0; game < 300; ++game) {
    int n = 5 + game % 3;
    Geometry g(n, n);
    Position pos;
    Color c = Color::Black;
    for (int ply = 0; ply < n * n; ++ply) {
      Bits mine = pos.stones(c), theirs = pos.stones(opponent(c));
      uint64_t played = 0;
      int first = -1;
      Bits zone = 0;
      Bits empty = g.board() & ~pos.occupied();
      if (capture_search(g, mine, theirs, 13, &played, &first, -1, &zone)) {
        ++captures;
        CHECK((zone & bit(first)) != 0);
        if (played > 6) ++ladder_zone;
        for (Bits e = empty & ~zone; e; e &= e - 1) {
          int q = lowest(e);
          if (classify_move(g, pos, opponent(c), q) != MoveKind::Normal) continue;
          ++off_zone;
          int again = -1;
          CHECK_MESSAGE(capture_search(g, mine, theirs | bit(q), 13, &played, &again),
                        to_rows(g, pos) << "defender at " << g.name(q));
        }
      }
      std::vector<int> moves;
      for (Bits e = empty; e; e &= e - 1)
        if (classify_move(g, pos, c, lowest(e)) == MoveKind::Normal) moves.push_back(lowest(e));
      if (moves.empty()) break;
      pos.stones(c) |= bit(moves[rng() % moves.size()]);
      c = opponent(c);
    }
  }
  CHECK(captures > 1000);
  CHECK(off_zone > 10000);
  CHECK(ladder_zone > 10);
}

// Ko in atari-go: the first capture wins, so whoever may take the ko stone
// wins at once; no ko rule ever applies.
TEST_CASE("ko shape: taking the ko is the first capture and wins") {
  // White's O at B3 (4x4) is in atari in a ko shape: Black takes at C3 (and
  // would stand in atari there himself, which no longer matters).
  Diagram d = diagram(".XO./XO.O/.XO./....", Color::Black);
  SolveResult r = solve_diagram(d);
  CHECK(r.verdict == Verdict::Win);
  CHECK(r.move == pt(d.g, "C3"));
  CHECK(r.proof_size == 1);
}

// Snapback in atari-go: the throw-in that sets up a snapback is captured,
// which ends the game: the sacrifice loses instead of winning.
TEST_CASE("snapback shape: the throw-in is a losing self-atari") {
  // White's chain has two liberties, E4 and E3, inside its eye.  Black's
  // throw-in at E4 puts it in atari but stands in atari itself: White
  // captures it at E3 first and wins.
  Diagram d = diagram("..XO.O/..XO.O/..XOOO/..XXXX", Color::Black);
  NodeTactics t;
  analyse_node(d.g, d.pos.black, d.pos.white, &t);
  int throw_in = pt(d.g, "E4");
  for (const Candidate& c : t.moves) CHECK(c.point != throw_in);
  SolveOptions o;
  o.seconds = 30;
  o.table_mb = 16;
  Solver s(d.g, o);
  auto all = s.solve_all_moves(d.pos);
  bool seen = false;
  for (const MoveResult& m : all)
    if (m.move == throw_in) {
      seen = true;
      CHECK(m.verdict == Verdict::Loss);
      CHECK(m.reason == "self-atari");
    }
  CHECK(seen);
}

TEST_CASE("all moves restricted to some: the asked moves and their images, the same answers") {
  // The empty 4x4: every first move of Black loses.  Asking for B3 searches
  // its class (B3, C3, B2, C2) only; the others are not asked, except moves
  // the tactics settle without a search (none on the empty board).
  Geometry g(4, 4);
  SolveOptions o;
  o.seconds = 30;
  o.table_mb = 16;
  auto all = Solver(g, o).solve_all_moves(Position{});
  o.only_moves = {pt(g, "B3")};
  auto some = Solver(g, o).solve_all_moves(Position{});
  REQUIRE(all.size() == some.size());
  int asked = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string name = g.name(some[i].move);
    CHECK(some[i].move == all[i].move);
    if (name == "B3" || name == "C3" || name == "B2" || name == "C2") {
      ++asked;
      CHECK(some[i].verdict == all[i].verdict);
      CHECK(some[i].verdict == Verdict::Loss);
      CHECK(some[i].asked);
      CHECK(some[i].proof_size == all[i].proof_size);
    } else {
      CHECK(some[i].verdict == Verdict::Unknown);
      CHECK_FALSE(some[i].asked);
      CHECK(some[i].reason == "not asked");
      CHECK(all[i].verdict == Verdict::Loss);
    }
  }
  CHECK(asked == 4);
}

TEST_CASE("all moves: each searched move is reported once as it is classified, as the result says") {
  Geometry g(5, 4);
  SolveOptions o;
  o.seconds = 60;
  o.table_mb = 16;
  o.split_depth = 2;
  std::vector<std::pair<int, Verdict>> told;
  o.on_classified = [&](int move, Verdict v, uint64_t) { told.emplace_back(move, v); };
  auto all = Solver(g, o).solve_all_moves(Position{});
  size_t searched = 0;
  for (const MoveResult& m : all) {
    if (!m.reason.empty()) continue;  // tactics or a symmetric copy
    ++searched;
    int times = 0;
    for (const auto& [move, v] : told)
      if (move == m.move) {
        ++times;
        CHECK(v == m.verdict);
      }
    CHECK(times == 1);
  }
  CHECK(searched >= 3);
  CHECK(told.size() == searched);
}

TEST_CASE("split: with one thread the searches of growing budgets are the same every time (budgets in nodes)") {
  // 6x4 with two plies split: some 180,000 nodes, its leaves searched
  // again and again with growing budgets.  Budgets in seconds gave other
  // counts at every run.
  SolveOptions o;
  o.seconds = 120;
  o.table_mb = 64;
  o.split_depth = 2;
  std::vector<SolveStats> runs;
  for (int i = 0; i < 3; ++i) {
    SolveResult r = Solver(Geometry(6, 4), o).solve(Position{});
    REQUIRE(r.verdict == Verdict::Win);
    runs.push_back(r.stats);
  }
  CHECK(runs[0].nodes > 20'000);
  for (const SolveStats& s : runs) {
    CHECK(s.nodes == runs[0].nodes);
    CHECK(s.moves_played == runs[0].moves_played);
  }
}

// Every move of the empty 5x4, split two plies, its lines searched again
// and again (the first budget 20 nodes, doubling), each search reported
// to `on_leaf`.
void split_5x4_doubling(double stick, const std::function<void(const LeafSearch&)>& on_leaf) {
  SolveOptions o;
  o.seconds = 0;
  o.table_mb = 8;
  o.split_depth = 2;
  o.split_first_nodes = 20;
  o.split_growth = 2;
  o.split_stick = stick;
  o.on_leaf_searched = on_leaf;
  Solver solver(Geometry(5, 4), o);  // 4x4 is too small: its lines settle in their first search
  for (const MoveResult& m : solver.solve_all_moves(Position{})) CHECK(m.verdict != Verdict::Unknown);
}

// Per parent line, how often a line's search came after a sibling's when
// that line had been searched before (the lines took turns).
int split_returns(double stick) {
  std::map<std::vector<int>, std::vector<int>> order;  // parent line -> its lines' last moves, as searched
  split_5x4_doubling(stick, [&](const LeafSearch& l) {
    REQUIRE(l.line.size() == 2);
    order[{l.line[0]}].push_back(l.line[1]);
  });
  int returns = 0;
  for (const auto& [parent, seq] : order) {
    std::set<int> seen;
    for (size_t i = 0; i < seq.size(); ++i) {
      if (i > 0 && seq[i] != seq[i - 1] && seen.count(seq[i])) ++returns;
      seen.insert(seq[i]);
    }
  }
  return returns;
}

TEST_CASE("split: a line searched longest keeps its turn with split_stick; without it, lines take turns") {
  CHECK(split_returns(0) > 0);
  // Each line is searched until settled before the next: disproof
  // numbers stay below 2^31, never 10^12 times another's.
  CHECK(split_returns(1e12) == 0);
}

TEST_CASE("FlatKeySet: each key counted once, 0 among them, across its growths") {
  FlatKeySet set;
  std::set<uint64_t> reference;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    // Keys that share their low bits and repeat, as a search's keys can.
    const uint64_t key = i % 5 == 0 ? uint64_t(i % 1000) << 40 : rng() % 150000;
    CHECK(set.insert(key) == reference.insert(key).second);
  }
  CHECK(!set.insert(0));
  CHECK(set.size() == reference.size());
}

TEST_CASE("tactics cache: its size changes the moves played, never the nodes or the answer") {
  // A split solve: its many short searches borrow the same caches in turn.
  SolveOptions o;
  o.seconds = 120;
  o.table_mb = 64;
  o.split_depth = 2;
  SolveResult small = Solver(Geometry(6, 4), o).solve(Position{});
  o.tactics_cache_mb = 64;
  SolveResult large = Solver(Geometry(6, 4), o).solve(Position{});
  REQUIRE(small.verdict == Verdict::Win);
  CHECK(large.verdict == Verdict::Win);
  CHECK(large.stats.nodes == small.stats.nodes);
  CHECK(large.stats.moves_played < small.stats.moves_played);
  MESSAGE("6x4, moves played with a 1 MB and a 64 MB cache: ", small.stats.moves_played, " ",
          large.stats.moves_played);
}

namespace {

// An exact saving (`saving`, a SolveOptions flag) on and off, on the empty
// 6x4 split two plies deep, with two-move threats at 13 plies and without
// them at 5: the same search (answer and nodes), fewer moves played with it.
// The options of the exactness tests here: two-move threats at 13 plies,
// or none at 5.
SolveOptions exactness_options(SolveOptions::Threat2 threat2) {
  SolveOptions o;
  o.seconds = 120;
  o.table_mb = 64;
  o.threat2 = threat2;
  o.capture_plies = threat2 == SolveOptions::Threat2::Off ? 5 : 13;
  return o;
}

void check_same_search_fewer_moves(bool SolveOptions::*saving, const char* what) {
  for (auto threat2 : {SolveOptions::Threat2::Every, SolveOptions::Threat2::Off}) {
    SolveOptions o = exactness_options(threat2);
    o.split_depth = 2;
    SolveResult with = Solver(Geometry(6, 4), o).solve(Position{});
    o.*saving = false;
    SolveResult without = Solver(Geometry(6, 4), o).solve(Position{});
    INFO("threat2 ", int(threat2));
    REQUIRE(without.verdict == Verdict::Win);
    CHECK(with.verdict == Verdict::Win);
    CHECK(with.move == without.move);
    CHECK(with.stats.nodes == without.stats.nodes);
    CHECK(with.stats.moves_played < without.stats.moves_played);
    MESSAGE("6x4, moves played without and with ", std::string(what), ": ", without.stats.moves_played, " ",
            with.stats.moves_played);
  }
}

}  // namespace

TEST_CASE("screening from the table: the same search, fewer moves played") {
  // What an earlier visit's screening found (the opponent had no capture,
  // no two-move threat) and the children's entries answer searches the
  // screening would otherwise play again.
  check_same_search_fewer_moves(&SolveOptions::screen_from_table, "the table's answers");
}

TEST_CASE("narrowed capture zones: the same search, fewer moves played") {
  // A move off the zone of any of the opponent's capture lines loses as a
  // move tested against the first line's zone does: the same moves are
  // lost, so the same nodes are searched, with fewer tests.
  check_same_search_fewer_moves(&SolveOptions::narrow_zones, "narrowed zones");
}

TEST_CASE("proof walk: its shortcuts count the same proof as the tactics at every node") {
  // A child the screening found lost to a capture is a leaf of the proof,
  // and a won node's entry keeps the move its proof goes on with: the walk
  // counts them without running the tactics again.  Every first move of
  // the empty 5x5 board, and the 6x4 board split two plies deep, with and
  // without two-move threats (lost to a threat, a child is walked in full).
  for (auto threat2 : {SolveOptions::Threat2::Every, SolveOptions::Threat2::Off}) {
    auto proofs = [&](bool shortcuts) {
      SolveOptions so = exactness_options(threat2);
      so.walk_shortcuts = shortcuts;
      std::vector<uint64_t> sizes;
      for (const MoveResult& m : Solver(Geometry(5, 5), so).solve_all_moves(Position{})) {
        REQUIRE(m.verdict != Verdict::Unknown);
        sizes.push_back(m.proof_size);
      }
      so.split_depth = 2;
      SolveResult split = Solver(Geometry(6, 4), so).solve(Position{});
      REQUIRE(split.verdict == Verdict::Win);
      sizes.push_back(split.proof_size);
      return sizes;
    };
    const auto with = proofs(true), without = proofs(false);
    INFO("threat2 ", int(threat2));
    CHECK(with == without);
    CHECK(std::count_if(with.begin(), with.end(), [](uint64_t s) { return s > 1000; }) >= 3);
  }
}

TEST_CASE("tactics cache pool: a cache given back is lent again, never two at once") {
  TacticsCachePool<uint64_t> pool(1);
  const TacticsCache<uint64_t>* first = nullptr;
  {
    auto a = pool.lease();
    auto b = pool.lease();
    CHECK(a.operator->() != b.operator->());
    CHECK(a->slots() == 32768);  // 24-byte slots in 1 MB
    a->put(42, true, 7, nullptr);
    first = a.operator->();
  }
  auto c = pool.lease();
  auto d = pool.lease();
  CHECK((c.operator->() == first || d.operator->() == first));
  bool hit = false;
  int move = -1;
  const TacticsCache<uint64_t>* kept = c.operator->() == first ? c.operator->() : d.operator->();
  CHECK(kept->find(42, &hit, &move, nullptr));
  CHECK(hit);
  CHECK(move == 7);
}

TEST_CASE("budget: an exhausted budget says unknown, never loss") {
  Geometry g(7, 7);
  SolveOptions o;
  o.max_nodes = 2000;
  o.seconds = 0;
  o.table_mb = 16;
  Solver s(g, o);
  SolveResult r = s.solve(Position{});
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.move == -1);
  CHECK(r.stats.nodes >= 2000);
  // How far it got: the root's numbers as the search left them (the
  // table keeps the root's older entry: none here), which a split reads
  // to choose its next line.
  CHECK(r.pn + r.dn > 2);
  CHECK(r.pn < kInfiniteNumber);
  CHECK(r.dn < kInfiniteNumber);
  // Ten times the budget, further on: larger numbers.
  o.max_nodes = 20'000;
  SolveResult longer = Solver(g, o).solve(Position{});
  CHECK(longer.verdict == Verdict::Unknown);
  CHECK(uint64_t(longer.pn) + longer.dn > uint64_t(r.pn) + r.dn);
}

TEST_CASE("split: a line's next search is chosen by the numbers its last search got to") {
  // Where a line's search never came back up to its root's children, the
  // table kept their entries of its first search whatever the budget: the
  // line's numbers read from the table stayed the same, search after search.
  std::map<std::vector<int>, std::vector<std::pair<uint32_t, uint32_t>>> numbers;  // line -> its open searches' numbers
  split_5x4_doubling(SolveOptions{}.split_stick, [&](const LeafSearch& l) {
    if (l.verdict == Verdict::Unknown) numbers[l.line].push_back({l.pn, l.dn});
  });
  int searched_again = 0, same = 0;
  for (const auto& [line, seq] : numbers)
    for (size_t i = 1; i < seq.size(); ++i) {
      ++searched_again;
      same += seq[i] == seq[i - 1];
    }
  CHECK(searched_again > 0);
  CHECK(same == 0);
}

TEST_CASE("symmetries of a position") {
  Geometry sq(5, 5);
  CHECK(position_symmetries(sq, Position{}).size() == 8);
  Geometry rect(5, 4);
  CHECK(position_symmetries(rect, Position{}).size() == 4);
  Diagram d = diagram("X..../...../...../...../.....", Color::White);
  CHECK(position_symmetries(d.g, d.pos).size() == 2);  // identity and the diagonal
}

// The crosscut on 5x5 and 6x6 with one and two threads: same answers.
TEST_CASE("threads agree") {
  Diagram d = diagram("....../....../..XO../..OX../....../......", Color::Black);
  SolveOptions o;
  o.seconds = 60;
  o.table_mb = 32;
  Solver one(d.g, o);
  SolveResult r1 = one.solve(d.pos);
  o.threads = 2;
  Solver two(d.g, o);
  SolveResult r2 = two.solve(d.pos);
  CHECK(r1.verdict == Verdict::Win);  // Black wins the 6x6 crosscut (Boissac & Cazenave 2006)
  CHECK(r2.verdict == r1.verdict);
}

// The crosscuts of issue 15, one thread (moves played is then deterministic):
// Black wins each, with fewer moves played than the 2006 solver's figures
// (52,806 / 28,635 / 80,938).  Before the capture-zone screening and the
// capture cache these took 80,093 / 57,849 / 108,626.
TEST_CASE("crosscuts: proved with fewer moves played than the 2006 solver") {
  struct Case {
    const char* rows;
    uint64_t moves_2006;
  } cases[] = {
      {"....../....../..XO../..OX../....../......", 52'806},
      {"......./......./..XO.../..OX.../......./......./.......", 28'635},
      {"......./......./......./..XO.../..OX.../......./.......", 80'938},
  };
  for (const Case& c : cases) {
    CAPTURE(c.rows);
    Diagram d = diagram(c.rows, Color::Black);
    SolveOptions o;
    o.seconds = 60;
    o.table_mb = 32;
    Solver s(d.g, o);
    SolveResult r = s.solve(d.pos);
    CHECK(r.verdict == Verdict::Win);
    CHECK(r.stats.moves_played > 0);
    CHECK(r.stats.moves_played < c.moves_2006);
  }
}

// The table is keyed by the smallest key over the board's symmetries: a
// mirror image of a solved position is answered from the table, and the
// winning move read back (stored in the canonical image's coordinates) is
// the mirror image of the first answer.  Without symmetric keys the image is
// searched again.
TEST_CASE("symmetric keys: a mirror image is answered from the table with the mirrored move") {
  // The upper 7x7 crosscut: its vertical mirror is the lower variant.  It
  // is its own image under the main diagonal, where any image of the
  // winning move may come back.
  Diagram d = diagram("......./......./..XO.../..OX.../......./......./.......", Color::Black);
  BoardSymmetries sym(d.g);
  REQUIRE(sym.count() == 8);
  auto same = [](const Position& a, const Position& b) { return a.black == b.black && a.white == b.white; };
  int distinct = 0;
  for (bool symmetric : {true, false}) {
    CAPTURE(symmetric);
    SolveOptions o;
    o.seconds = 60;
    o.table_mb = 32;
    o.symmetric_keys = symmetric;
    Solver s(d.g, o);
    SolveResult first = s.solve(d.pos);
    REQUIRE(first.verdict == Verdict::Win);
    std::vector<Position> done = {d.pos};
    for (int k = 1; k < sym.count(); ++k) {
      CAPTURE(k);
      Position img = sym.image(k, d.pos);
      SolveResult r = s.solve(img);
      CHECK(r.verdict == Verdict::Win);
      bool again = false;
      for (const Position& p : done) again |= same(p, img);
      if (again) continue;  // the same position as an earlier image
      done.push_back(img);
      if (!symmetric) {
        ++distinct;
        CHECK(r.stats.nodes > 10);  // searched again
        continue;
      }
      CHECK(r.stats.nodes <= 1);  // the root's entry, read at once
      bool mirrored = false;
      for (int j = 0; j < sym.count(); ++j)
        if (same(sym.image(j, d.pos), d.pos) && r.move == sym.image(k, sym.image(j, first.move))) mirrored = true;
      CHECK(mirrored);
      // The move read back wins in the image (checked by a fresh search).
      Diagram after{d.g, with_stone(img, r.move)};
      CHECK(solve_diagram(after).verdict == Verdict::Loss);
    }
  }
  CHECK(distinct == 3);  // the 4 distinct images: the diagonal leaves it as it is
}

TEST_CASE("symmetric keys: the keys of an image are the image's keys, in some order") {
  Geometry g(5, 4);
  BoardSymmetries sym(g);
  REQUIRE(sym.count() == 4);
  std::mt19937_64 rng(15);
  Position pos;
  KeySet ks = sym.keys(pos);
  for (int ply = 0; ply < 12; ++ply) {
    int p;
    do p = g.index(int(rng() % 5), int(rng() % 4));
    while (pos.occupied() & bit(p));
    const uint64_t child = sym.canonical_after(ks, pos.to_move, p);
    ks = sym.after(ks, pos.to_move, p);
    pos = with_stone(pos, p);
    KeySet fresh = sym.keys(pos);
    int f1, f2;
    CHECK(sym.canonical(ks, &f1) == sym.canonical(fresh, &f2));
    CHECK(child == sym.canonical(fresh, &f2));  // a child's key without its keys
    for (int s = 0; s < sym.count(); ++s) {
      CHECK(ks.k[s] == fresh.k[s]);  // incremental = from scratch
      CHECK(ks.k[s] == position_key(sym.image(s, pos)));
      CHECK(sym.preimage(s, sym.image(s, p)) == p);
      int f;
      CHECK(sym.canonical(sym.keys(sym.image(s, pos)), &f) == sym.canonical(fresh, &f2));
    }
  }
}

TEST_CASE("transposition table: a full bucket gives up its smallest subtree, not the open nodes to settled leaves; settled stays settled") {
  TranspositionTable tt(0);  // the smallest table: 1024 buckets of three
  REQUIRE(TranspositionTable::kWays == 3);
  REQUIRE(tt.capacity() == 1024 * 3);
  // Keys with the same low 32 bits share a bucket; bucket i of the 1024
  // holds the low halves from i << 22 on.
  const uint64_t stride = uint64_t(1) << 32;
  auto in_bucket = [&](uint64_t bucket) {
    const uint64_t key = bucket << 22;
    REQUIRE(tt.bucket_of(key) == bucket);
    REQUIRE(tt.bucket_of(key + 5 * stride) == bucket);
    return key;
  };
  auto entry = [](uint64_t key, uint32_t work, bool settled) {
    TTEntry e;
    e.key = key;
    e.pn = settled ? 0 : 5;
    e.dn = settled ? 0x7fffffff : 7;
    e.work = work;
    return e;
  };
  auto has = [&](uint64_t key) {
    TTEntry e;
    return tt.lookup(key, &e);
  };
  const uint64_t b = in_bucket(17);
  // Two settled leaves and one open node of a large subtree.
  tt.store(entry(b, 1, true));
  tt.store(entry(b + stride, 1, true));
  tt.store(entry(b + 2 * stride, 5000, false));
  // Further settled leaves replace leaves: the open node stays.
  for (uint64_t k = 3; k < 40; ++k) {
    tt.store(entry(b + k * stride, 1, true));
    CHECK(has(b + k * stride));
    CHECK(has(b + 2 * stride));
  }
  // An open node of a larger subtree than a settled one's replaces it.
  const uint64_t c = in_bucket(18);
  tt.store(entry(c, 3, true));
  tt.store(entry(c + stride, 200, false));
  tt.store(entry(c + 2 * stride, 300, false));
  tt.store(entry(c + 3 * stride, 100, false));
  CHECK_FALSE(has(c));
  CHECK(has(c + stride));
  CHECK(has(c + 3 * stride));
  // The same key again updates its entry in place.
  tt.store(entry(c + 3 * stride, 900, true));
  CHECK(has(c + stride));
  CHECK(has(c + 2 * stride));
  TTEntry e;
  REQUIRE(tt.lookup(c + 3 * stride, &e));
  CHECK(e.work == 900);
  CHECK(e.pn == 0);
  // Settled, it stays settled: open numbers of the same key leave it.
  tt.store(entry(c + 3 * stride, 5000, false));
  REQUIRE(tt.lookup(c + 3 * stride, &e));
  CHECK(e.pn == 0);
  CHECK(e.work == 900);
  // Large subtrees are stored coarsely but keep their order: the smallest
  // of three goes.
  const uint64_t big = in_bucket(20);
  tt.store(entry(big, 40'000, false));
  tt.store(entry(big + stride, 2'000'000, false));
  tt.store(entry(big + 2 * stride, 41'500, false));
  tt.store(entry(big + 3 * stride, 1'000'000, false));
  CHECK_FALSE(has(big));
  CHECK(has(big + stride));
  CHECK(has(big + 2 * stride));
  REQUIRE(tt.lookup(big + stride, &e));
  CHECK(e.work <= 2'000'000);
  CHECK(e.work > 1'990'000);
  // A bucket with room keeps every entry, even an open node that stopped at
  // once (work 0, which once counted as an empty slot and was overwritten).
  const uint64_t d = in_bucket(19);
  tt.store(entry(d, 0, false));
  tt.store(entry(d + stride, 0, false));
  tt.store(entry(d + 2 * stride, 0, true));
  CHECK(has(d));
  CHECK(has(d + stride));
  CHECK(has(d + 2 * stride));
}

TEST_CASE("transposition table: every bucket of a size that is no power of two is used") {
  TranspositionTable tt(1);  // 1 MB: 16,384 buckets of 64 bytes
  const size_t buckets = tt.capacity() / TranspositionTable::kWays;
  CHECK(buckets == 16384);
  std::vector<int> hits(buckets);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 400'000; ++i) {
    const size_t bk = tt.bucket_of(rng());
    REQUIRE(bk < buckets);
    ++hits[bk];
  }
  CHECK(*std::min_element(hits.begin(), hits.end()) > 0);
  TranspositionTable odd(3);  // 49,152 buckets: not a power of two
  CHECK(odd.capacity() == 49152 * 3);
}

// A table of more than 1 GB is mapped as 1 GB pieces (on 1 GB pages where
// the system has them reserved) and a 2 MB-page tail: every bucket, the
// first of the range and the last of the tail, holds its entries.  Only the
// pages touched are ever backed, so the test costs a few MB.
TEST_CASE("transposition table: a table over 1 GB keeps entries in its first and last buckets") {
  TranspositionTable tt(1536);
  const size_t buckets = tt.capacity() / TranspositionTable::kWays;
  CHECK(buckets == size_t(1536) << 14);
  CHECK(tt.gb_pages() <= 1);
  // bucket_of() scales the key's low 32 bits: the bucket of the low half b
  // is b x buckets / 2^32, so these low halves land on the buckets named.
  auto low_half_of = [&](size_t bucket) { return uint64_t(((uint64_t(bucket) << 32) + buckets - 1) / buckets); };
  for (size_t bucket : {size_t(0), size_t(1) << 24, buckets / 2, buckets - 1}) {
    const uint64_t lo = low_half_of(bucket);
    REQUIRE(tt.bucket_of(lo) == bucket);
    for (uint64_t i = 0; i < 3; ++i) {
      TTEntry e;
      e.key = lo | ((i + 1) << 40);
      e.pn = uint32_t(bucket % 1000 + 1 + i);
      e.dn = 7;
      e.work = 5;
      tt.store(e);
    }
    for (uint64_t i = 0; i < 3; ++i) {
      TTEntry got;
      REQUIRE(tt.lookup(lo | ((i + 1) << 40), &got));
      CHECK(got.pn == uint32_t(bucket % 1000 + 1 + i));
      CHECK(got.dn == 7);
    }
  }
}

TEST_CASE("transposition table: the fill estimate follows the slots in use") {
  TranspositionTable tt(0);  // 1024 buckets of three
  CHECK(tt.fill_estimate(1) == 0.0);
  const uint64_t stride = uint64_t(1) << 32;
  auto fill = [&](int per_bucket) {
    for (uint64_t b = 0; b < 1024; ++b)
      for (int i = 0; i < per_bucket; ++i) {
        TTEntry e;
        e.key = (b << 22) + uint64_t(i) * stride;
        e.pn = 3;
        e.dn = 4;
        e.work = 10;
        tt.store(e);
      }
  };
  fill(1);  // one slot of three in every bucket, whichever buckets the estimate samples
  for (uint64_t seed : {1, 99, 12345}) CHECK(tt.fill_estimate(seed) == doctest::Approx(1.0 / 3));
  fill(3);
  CHECK(tt.fill_estimate(7) == 1.0);
}

// Look-ups take no lock: a reader that meets a writer must see the entry
// as it was before or after the write, never half of each.  Every entry
// written here has its dn, work, move and flags derived from its key and
// pn, so a torn copy (one entry's key with another's numbers, or two
// writes of one key mixed) shows as a mismatch.  Few keys share a small
// table, so that writes replace entries all the time.
TEST_CASE("transposition table: readers beside writers never see half of an entry") {
  TranspositionTable tt(0);  // 1024 buckets of three
  auto h = [](uint64_t x) {
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
  };
  auto expect = [&](uint64_t key, uint32_t pn) {
    TTEntry e;
    e.key = key;
    e.pn = pn;
    const uint64_t d = h(key ^ pn);
    e.dn = uint32_t(d) | 1;
    e.work = uint32_t(d >> 32) & 0x7fff;  // below 32,768: stored exactly
    e.best = int16_t((d >> 48) % 100);
    e.flags = uint8_t((d >> 56) & 7);
    return e;
  };
  constexpr uint64_t kKeys = 8192;  // 8 keys a bucket on average, 3 slots
  auto key_of = [&](uint64_t i) { return h(i + 1); };
  std::atomic<bool> done{false};
  std::atomic<uint64_t> found{0}, torn{0};
  auto writer = [&](uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (int n = 0; n < 2'000'000; ++n) {
      const uint64_t key = key_of(rng() % kKeys);
      tt.store(expect(key, uint32_t(rng() % 1000 + 1)));
    }
  };
  auto reader = [&](uint64_t seed) {
    std::mt19937_64 rng(seed);
    while (!done.load()) {
      const uint64_t key = key_of(rng() % kKeys);
      TTEntry got;
      if (!tt.lookup(key, &got)) continue;
      ++found;
      const TTEntry want = expect(key, got.pn);
      if (got.pn == 0 || got.dn != want.dn || got.work != want.work || got.best != want.best ||
          got.flags != want.flags)
        ++torn;
    }
  };
  std::thread r1(reader, 1), r2(reader, 2);
  std::thread w1(writer, 3), w2(writer, 4);
  w1.join();
  w2.join();
  done = true;
  r1.join();
  r2.join();
  CHECK(found.load() > 100'000);
  CHECK(torn.load() == 0);
}

// A helper's entries push out the open nodes of the search it helps once the
// table cannot hold both: past helper_max_fill it works no more.  The empty
// 6x4 board takes hundreds of thousands of nodes with the smallest table
// (3,072 entries), which fills at once.
TEST_CASE("threads: a helper stands down once the table is full, and the answer stays the same") {
  Geometry g(6, 4);
  Position empty;
  empty.to_move = Color::Black;
  SolveOptions o;
  o.seconds = 120;
  o.table_mb = 0;
  o.count_proof = false;
  Solver one(g, o);
  const SolveResult r1 = one.solve(empty);
  REQUIRE(r1.verdict == Verdict::Win);
  CHECK(r1.stats.helper_nodes == 0);
  REQUIRE(r1.stats.nodes > 100'000);
  o.threads = 2;
  o.helper_max_fill = 0.5;
  Solver stands_down(g, o);
  const SolveResult r2 = stands_down.solve(empty);
  CHECK(r2.verdict == Verdict::Win);
  CHECK(r2.stats.helper_nodes < r1.stats.nodes / 20);
  o.helper_max_fill = 1;  // never stands down
  Solver helps(g, o);
  const SolveResult r3 = helps.solve(empty);
  CHECK(r3.verdict == Verdict::Win);
  CHECK(r3.stats.helper_nodes > r1.stats.nodes / 20);
}

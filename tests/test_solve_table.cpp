// The retrograde tables against the proving search: every position of the
// 3x3, 4x3 and 3x4 boards reachable from the empty board, and a large sample
// of the 4x4 ones; the claimed winning moves replayed against every reply;
// the RocksDB copy of a table read back whole.
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <random>
#include <unordered_set>

#include "core/format_version.h"
#include "solve/proof_search.h"
#include "solve/retrograde.h"
#include "solve/table_build.h"
#include "solve/table_store.h"
#include "test_util.h"

using namespace sgfpat;
using namespace sgfpat::solve;

namespace {

const RetroTable& table(int w, int h) {
  static std::map<std::pair<int, int>, RetroTable> tables;
  auto it = tables.find({w, h});
  if (it != tables.end()) return it->second;
  RetroTable& t = tables[{w, h}];
  Status st = RetroTable::build(w, h, &t);
  REQUIRE_MESSAGE(st.ok(), st.message());
  return t;
}

Position play(const Position& pos, int p) {
  Position next = pos;
  next.stones(pos.to_move) |= bit(p);
  next.to_move = opponent(pos.to_move);
  return next;
}

// Every position reachable from the empty board by legal moves that capture
// nothing (the game goes on), as table numbers.
// Computed once per table (the test cases share them).
const std::vector<uint64_t>& reachable(const RetroTable& t) {
  static std::map<const RetroTable*, std::vector<uint64_t>> done;
  auto it = done.find(&t);
  if (it != done.end()) return it->second;
  std::vector<uint64_t>& out = done[&t];
  const Geometry& g = t.geometry();
  std::unordered_set<uint64_t> seen;
  std::vector<Position> stack{Position{}};
  seen.insert(0);
  out.push_back(0);
  while (!stack.empty()) {
    Position pos = stack.back();
    stack.pop_back();
    for (Bits e = g.board() & ~pos.occupied(); e; e &= e - 1) {
      int p = lowest(e);
      if (classify_move(g, pos, pos.to_move, p) != MoveKind::Normal) continue;
      Position next = play(pos, p);
      uint64_t idx = t.index(next);
      if (seen.insert(idx).second) {
        out.push_back(idx);
        stack.push_back(next);
      }
    }
  }
  return out;
}

// The reachable positions (reachable()) with at most `stones` stones.
std::vector<uint64_t> reachable_up_to(const RetroTable& t, int stones) {
  std::vector<uint64_t> out;
  for (uint64_t idx : reachable(t))
    if (popcount(t.position(idx).occupied()) <= stones) out.push_back(idx);
  return out;
}

Verdict table_verdict(const RetroTable& t, const Position& pos) {
  TableValue v;
  REQUIRE(t.lookup(pos, &v));
  return v.win ? Verdict::Win : Verdict::Loss;
}

// The table's answer for the player of `move` in `pos` (a capture wins,
// a suicide loses).
Verdict move_verdict(const RetroTable& t, const Position& pos, int move) {
  const MoveKind k = classify_move(t.geometry(), pos, pos.to_move, move);
  if (k == MoveKind::Capture) return Verdict::Win;
  if (k == MoveKind::Suicide) return Verdict::Loss;
  return table_verdict(t, play(pos, move)) == Verdict::Win ? Verdict::Loss : Verdict::Win;
}

// The solver's winning move, replayed against every reply: each reply is
// either illegal (suicide) or leaves a position the table says we win.
void check_winning_line(const RetroTable& t, const Position& pos, int move) {
  const Geometry& g = t.geometry();
  MoveKind k = classify_move(g, pos, pos.to_move, move);
  REQUIRE(k != MoveKind::Occupied);
  REQUIRE(k != MoveKind::Suicide);
  if (k == MoveKind::Capture) return;
  Position after = play(pos, move);
  for (Bits e = g.board() & ~after.occupied(); e; e &= e - 1) {
    int r = lowest(e);
    MoveKind rk = classify_move(g, after, after.to_move, r);
    CHECK(rk != MoveKind::Capture);  // a winning move leaves nothing to capture
    if (rk != MoveKind::Normal) continue;
    CHECK(table_verdict(t, play(after, r)) == Verdict::Win);
  }
}

// The options the comparisons start from: no time limit, a 64 MB table,
// no proof walk.
SolveOptions exact_options(int threads = 1, size_t table_mb = 64) {
  SolveOptions o;
  o.seconds = 0;
  o.table_mb = table_mb;
  o.count_proof = false;
  o.threads = threads;
  return o;
}

// Solves each position with the proving search and compares with the table.
void compare(const RetroTable& t, const std::vector<uint64_t>& indices, int* wins,
             const SolveOptions& o = exact_options()) {
  Solver solver(t.geometry(), o);
  for (uint64_t idx : indices) {
    Position pos = t.position(idx);
    SolveResult r = solver.solve(pos);
    Verdict expect = table_verdict(t, pos);
    if (r.verdict != expect) {
      INFO("position ", idx, " ", (pos.to_move == Color::Black ? "Black" : "White"), " to move\n",
           to_rows(t.geometry(), pos));
      CHECK(r.verdict == expect);
      continue;
    }
    if (r.verdict == Verdict::Win) {
      ++*wins;
      REQUIRE(r.move >= 0);
      check_winning_line(t, pos, r.move);
    }
  }
}

}  // namespace

TEST_CASE("table: 2x2 worked by hand") {
  // Black takes a corner; White's only move that is not a self-atari is the
  // opposite corner; then every Black move is a self-atari and White
  // captures on ply 4.
  const RetroTable& t = table(2, 2);
  TableValue v;
  REQUIRE(t.lookup(Position{}, &v));
  CHECK_FALSE(v.win);
  CHECK(v.distance == 4);
  // After Black's corner and White's adjacent point, Black captures now.
  Geometry g(2, 2);
  Position p;
  p.black = bit(g.index(0, 0));
  p.white = bit(g.index(1, 0));
  REQUIRE(t.lookup(p, &v));
  CHECK(v.win);
  CHECK(v.distance == 1);
}

TEST_CASE("table vs proving search: every reachable position of 3x3, 4x3 and 3x4") {
  for (auto [w, h] : {std::pair{3, 3}, std::pair{4, 3}, std::pair{3, 4}}) {
    const RetroTable& t = table(w, h);
    const std::vector<uint64_t>& all = reachable(t);
    int wins = 0;
    compare(t, all, &wins);
    MESSAGE(w, "x", h, ": ", all.size(), " reachable positions, ", wins, " won by the side to move");
    CHECK(all.size() > 1000);
    CHECK(wins > 0);
    CHECK(wins < int(all.size()));
  }
}

TEST_CASE("table vs proving search: 4x4, all positions up to 5 stones and a random sample") {
  const RetroTable& t = table(4, 4);
  const std::vector<uint64_t>& all = reachable(t);
  MESSAGE("4x4: ", all.size(), " reachable positions, ", t.positions(), " in the table");
  std::vector<uint64_t> pick;
  std::mt19937_64 rng(4);
  for (uint64_t idx : all) {
    Position pos = t.position(idx);
    if (popcount(pos.occupied()) <= 5 || rng() % 200 == 0) pick.push_back(idx);
  }
  int wins = 0;
  compare(t, pick, &wins);
  MESSAGE("4x4: compared ", pick.size(), " positions, ", wins, " wins");
  CHECK(pick.size() > 5000);
}

// The empty 5x4 board solved without a time limit or proof walk, the
// options as `set` changes them: a search whose figures show what an
// option does.
template <class F>
SolveResult solve_empty_5x4(F set) {
  SolveOptions o;
  o.seconds = 0;
  o.count_proof = false;
  set(&o);
  Solver solver(Geometry(5, 4), o);
  return solver.solve(Position{});
}

// The 1+epsilon trick only changes which child df-pn works on and for how
// long: any epsilon must give the same answers, and a different one must
// change the search (else the option is not reaching it).
TEST_CASE("table vs proving search with other epsilons: 4x3 and 4x4 positions up to 4 stones") {
  for (auto [w, h] : {std::pair{4, 3}, std::pair{4, 4}}) {
    const RetroTable& t = table(w, h);
    const std::vector<uint64_t> pick = reachable_up_to(t, 4);
    for (double eps : {0.0, 1.5}) {
      int wins = 0;
      SolveOptions o = exact_options();
      o.epsilon = eps;
      compare(t, pick, &wins, o);
      MESSAGE(w, "x", h, ", epsilon ", eps, ": ", pick.size(), " positions, ", wins, " wins");
      CHECK(pick.size() > 100);
      CHECK(wins > 0);
    }
  }
  std::vector<uint64_t> nodes;
  for (double eps : {0.0, SolveOptions{}.epsilon, 1.5}) {
    SolveResult r = solve_empty_5x4([&](SolveOptions* o) { o->epsilon = eps; });
    CHECK(r.verdict != Verdict::Unknown);
    nodes.push_back(r.stats.nodes);
  }
  MESSAGE("empty 5x4, nodes at epsilon 0, default, 1.5: ", nodes[0], " ", nodes[1], " ", nodes[2]);
  CHECK(nodes[0] != nodes[1]);
  CHECK(nodes[1] != nodes[2]);
}

// With lazy_child_reads a node's first visit reads its children's entries
// only for the child it searches: the order df-pn works in changes, never
// the answers, and the table is read less.
TEST_CASE("table vs proving search with children read lazily at first visits: 4x4 up to 4 stones") {
  const RetroTable& t = table(4, 4);
  const std::vector<uint64_t> pick = reachable_up_to(t, 4);
  int wins = 0;
  SolveOptions o = exact_options();
  o.lazy_child_reads = true;
  compare(t, pick, &wins, o);
  MESSAGE("4x4, children read lazily at first visits: ", pick.size(), " positions, ", wins, " wins");
  CHECK(pick.size() > 100);
  CHECK(wins > 0);
  std::vector<uint64_t> lookups;
  std::vector<Verdict> verdicts;
  for (bool lazy : {true, false}) {
    SolveResult r = solve_empty_5x4([&](SolveOptions* o) { o->lazy_child_reads = lazy; });
    CHECK(r.verdict != Verdict::Unknown);
    verdicts.push_back(r.verdict);
    lookups.push_back(r.stats.tt_lookups);
  }
  CHECK(verdicts[0] == verdicts[1]);
  MESSAGE("empty 5x4, table look-ups with children read lazily or not: ", lookups[0], " ", lookups[1]);
  CHECK(lookups[0] < lookups[1]);
}

// The starting numbers of unvisited moves, the disproof floor
// (init-dn-moves) and the cost of a move's rank (init-rank-cost), only
// change the order df-pn works in: the answers must stay the table's,
// split or not (a split leaf's numbers are read with the same values), and
// each option must reach the search.  They act once the unvisited values
// are above 1: from the first node, with values of (empty points - 1) / 2.
TEST_CASE("table vs proving search with unvisited moves' floor and rank cost: 4x4 up to 4 stones, split or not") {
  const RetroTable& t = table(4, 4);
  const std::vector<uint64_t> pick = reachable_up_to(t, 4);
  CHECK(pick.size() > 1000);
  struct Setting {
    int floor_k, rank_cost;
  };
  // The first, no floor and the old rank cost, only for its node count.
  const Setting settings[] = {{0, 1}, {2, 1}, {1, 1}, {2, 8}, {2, 0}};
  std::vector<uint64_t> nodes;
  for (const Setting& st : settings) {
    SolveOptions o = exact_options();
    o.init_after_nodes = 0;
    o.init_mobility = 2;
    o.init_dn_moves = st.floor_k;
    o.init_rank_cost = st.rank_cost;
    if (st.floor_k) {
      int wins = 0;
      compare(t, pick, &wins, o);
      o.split_depth = 2;
      compare(t, pick, &wins, o);
      o.split_depth = 1;
      MESSAGE("4x4, disproof floor (empty - 1) x value / ", st.floor_k, ", rank cost ", st.rank_cost, ": ",
              pick.size(), " positions twice, ", wins, " wins");
      CHECK(wins > 0);
    }
    Solver solver(Geometry(5, 4), o);
    SolveResult r = solver.solve(Position{});
    CHECK(r.verdict == Verdict::Win);
    nodes.push_back(r.stats.nodes);
  }
  MESSAGE("empty 5x4, nodes without a floor, at k = 2, 1 (rank cost 1), at rank cost 8, 0 (k = 2): ", nodes[0], " ",
          nodes[1], " ", nodes[2], " ", nodes[3], " ", nodes[4]);
  CHECK(nodes[0] != nodes[1]);  // the floor reaches the search
  CHECK(nodes[1] != nodes[2]);
  CHECK(nodes[1] != nodes[3]);  // so does the rank cost
  CHECK(nodes[1] != nodes[4]);
}

// The screening's two-move threats and the capture search's depth only
// change how much the search does before it settles a move (threat2,
// capture-plies: fewer moves played a node, more nodes): the answers
// must stay the table's, and the options must reach the search.
TEST_CASE("table vs proving search with two-move threats on revisits or off, capture searches of 13, 5 and 3 plies: 4x4 up to 4 stones") {
  using T2 = SolveOptions::Threat2;
  const RetroTable& t = table(4, 4);
  const std::vector<uint64_t> pick = reachable_up_to(t, 4);
  std::vector<uint64_t> played;
  const int deflt = SolveOptions{}.capture_plies;
  for (auto [threat2, plies] : {std::pair{T2::Every, deflt}, std::pair{T2::Off, deflt}, std::pair{T2::Off, 5},
                                std::pair{T2::Revisits, 5}, std::pair{T2::Off, 3}}) {
    SolveOptions o = exact_options();
    o.threat2 = threat2;
    o.capture_plies = plies;
    int wins = 0;
    compare(t, pick, &wins, o);
    MESSAGE("4x4, threat2 mode ", int(o.threat2), ", capture plies ", plies, ": ", pick.size(), " positions, ", wins,
            " wins");
    CHECK(wins > 0);
    // The empty 5x4 as a witness that the options reach the search.
    Solver solver(Geometry(5, 4), o);
    SolveResult r = solver.solve(Position{});
    CHECK(r.verdict != Verdict::Unknown);
    played.push_back(r.stats.moves_played);
  }
  CHECK(pick.size() > 1000);
  MESSAGE("empty 5x4, moves played: default ", played[0], "; no threat2 ", played[1], ", at 5 plies ", played[2],
          ", on revisits at 5 plies ", played[3], ", none at 3 plies ", played[4]);
  for (size_t i = 1; i < played.size(); ++i) CHECK(played[i] != played[i - 1]);
}

// The second thread proves children along the first one's main line: what
// it settles in the shared table must be as exact as the first's answers.
// A table shared by all positions would leave it little to do (most would be
// settled by the earlier ones' searches), so each gets a new, small one.
TEST_CASE("table vs proving search with two threads: 4x4 positions up to 3 stones") {
  const RetroTable& t = table(4, 4);
  const std::vector<uint64_t> pick = reachable_up_to(t, 3);
  int wins = 0;
  for (uint64_t idx : pick) compare(t, {idx}, &wins, exact_options(2, 1));
  MESSAGE("4x4, two threads: ", pick.size(), " positions, ", wins, " wins");
  CHECK(pick.size() > 100);
  CHECK(wins > 0);
}

// The walks of the main line (SolveOptions::line_walk_nodes) store settled
// a node that its children's entries decide while its own entry is open.
// One solver for all positions, so that each search meets what the earlier
// ones settled, and a walk at every node, so that small searches walk at
// all: the answers stay the table's, the winning moves win, and the walks
// settled nodes (with one thread, the same ones every run).
TEST_CASE("table vs proving search with the main line walked at every node: 4x4 up to 4 stones, 1 and 2 threads") {
  const RetroTable& t = table(4, 4);
  const std::vector<uint64_t> pick = reachable_up_to(t, 4);
  for (int threads : {1, 2}) {
    SolveOptions o = exact_options(threads, 1);
    o.line_walk_nodes = 1;
    Solver solver(t.geometry(), o);
    uint64_t settled = 0;
    int wins = 0;
    for (uint64_t idx : pick) {
      const Position pos = t.position(idx);
      const SolveResult r = solver.solve(pos);
      settled += r.stats.line_settled;
      INFO(threads, " threads, position ", idx, "\n", to_rows(t.geometry(), pos));
      CHECK(r.verdict == table_verdict(t, pos));
      if (r.verdict != Verdict::Win) continue;
      ++wins;
      REQUIRE(r.move >= 0);
      check_winning_line(t, pos, r.move);
    }
    MESSAGE("4x4, main line walked, ", threads, " threads: ", pick.size(), " positions, ", wins, " wins, ", settled,
            " nodes settled by the walks");
    CHECK(wins > 0);
    CHECK(settled > 0);
  }
}

// Split, a position is won by its first move proved (the others left
// open): the verdict and that move must still be the table's.
TEST_CASE("table vs the position solved by splitting down to two or three plies, 1 or 2 threads") {
  const RetroTable& t = table(4, 4);
  std::mt19937_64 rng(21);
  std::vector<uint64_t> pick;
  for (uint64_t idx : reachable(t))
    if (popcount(t.position(idx).occupied()) <= 6 && rng() % 600 == 0) pick.push_back(idx);
  int wins = 0;
  for (int run = 0; run < 4; ++run) {
    SolveOptions o = exact_options(1 + run / 2, 1);
    o.split_depth = 2 + run % 2;
    compare(t, pick, &wins, o);
  }
  MESSAGE("4x4 split: ", pick.size(), " positions, 4 runs, ", wins, " wins");
  CHECK(pick.size() > 100);
  CHECK(wins > 0);
}

TEST_CASE("table vs every move classified, one search per move or split down to three plies, 1 or 2 threads, lines sticky or not") {
  const RetroTable& t = table(4, 4);
  const Geometry& g = t.geometry();
  const std::vector<uint64_t>& all = reachable(t);
  std::mt19937_64 rng(16);
  int positions = 0, moves = 0;
  for (uint64_t idx : all) {
    Position pos = t.position(idx);
    if (popcount(pos.occupied()) > 6 || rng() % 600) continue;
    ++positions;
    // Two threads run the searches side by side (and join each other's).
    for (int run = 0; run < 6; ++run) {
      const int depth = 1 + run % 3, threads = 1 + run / 3;
      SolveOptions o;
      o.seconds = 0;
      o.table_mb = 1;
      o.split_depth = depth;
      o.threads = threads;
      if (run % 2) {  // lines searched many times, the longest searched kept on
        o.split_first_nodes = 20;
        o.split_growth = 2;
        o.split_stick = 1;
      }
      Solver solver(g, o);
      for (const MoveResult& m : solver.solve_all_moves(pos)) {
        INFO("split depth ", depth, ", ", threads, " threads, sticky ", run % 2, ", move ", g.name(m.move), " of\n", to_rows(g, pos));
        CHECK(m.verdict == move_verdict(t, pos, m.move));
        ++moves;
      }
    }
  }
  MESSAGE("4x4: every move of ", positions, " positions classified at depths 1-3, 1 and 2 threads (", moves, " answers)");
  CHECK(positions > 100);
}

// A thread with no line to start splits the running line further
// (SolveOptions::split_deepen_nodes): the answers stay the table's, and
// lines deeper than the split are searched.  Eight threads, so that some
// are idle even on a loaded machine (four threads saw 1-16 such searches
// a pass beside the other tests, eight 82-84); the passes over every move
// are repeated, up to four, until one is seen.
TEST_CASE("table vs the split with running lines split further by an idle thread: 4x4, 8 threads") {
  const RetroTable& t = table(4, 4);
  const Geometry& g = t.geometry();
  std::mt19937_64 rng(33);
  std::vector<uint64_t> pick;
  for (uint64_t idx : reachable(t))
    if (popcount(t.position(idx).occupied()) <= 6 && rng() % 300 == 0) pick.push_back(idx);
  std::atomic<int> deeper{0};
  SolveOptions o = exact_options(8, 1);
  o.split_depth = 2;
  o.split_first_nodes = 20;  // lines searched many times, so that some runs alone
  o.split_growth = 2;
  o.split_deepen_nodes = 1;
  o.on_leaf_searched = [&](const LeafSearch& ls) { deeper += ls.line.size() > 2; };
  int wins = 0, moves = 0;
  compare(t, pick, &wins, o);
  for (int pass = 0; pass < 4 && (pass == 0 || deeper == 0); ++pass)
    for (uint64_t idx : pick) {
      const Position pos = t.position(idx);
      Solver solver(g, o);
      for (const MoveResult& m : solver.solve_all_moves(pos)) {
        INFO("move ", g.name(m.move), " of\n", to_rows(g, pos));
        CHECK(m.verdict == move_verdict(t, pos, m.move));
        ++moves;
      }
    }
  MESSAGE("4x4 split, deepened: ", pick.size(), " positions, ", wins, " wins, ", moves, " moves, ", deeper.load(),
          " searches of deeper lines");
  CHECK(pick.size() > 100);
  CHECK(wins > 0);
  CHECK(deeper > 0);
}

TEST_CASE("table in RocksDB: written, summarised and read back") {
  const RetroTable& t = table(3, 3);
  testutil::TempDir dir("sgfpat-solve-table");
  TableSummary written;
  REQUIRE(write_table(dir.path(), t, &written).ok());
  CHECK(written.positions == t.positions());
  CHECK(written.wins == t.wins());
  TableReader reader;
  REQUIRE(reader.open(dir.path()).ok());
  TableSummary sum;
  REQUIRE(reader.summary(3, 3, &sum).ok());
  CHECK(sum.positions == t.positions());
  CHECK_FALSE(reader.summary(4, 4, &sum).ok());  // no 4x4 table there
  uint64_t checked = 0;
  for (uint64_t idx = 0; idx < t.cells(); ++idx) {
    TableValue mem, db;
    bool in_mem = t.lookup_index(idx, &mem);
    Position pos = t.position(idx);
    bool found = false;
    REQUIRE(reader.lookup(t.geometry(), pos, &found, &db).ok());
    if (table_side(pos) == Color::Empty) continue;  // a count no game has
    CHECK(found == in_mem);
    if (found && in_mem) {
      CHECK(db.win == mem.win);
      CHECK(db.distance == mem.distance);
      ++checked;
    }
  }
  CHECK(checked == t.positions());
}

TEST_CASE("ensure_table: built and written once, then taken from the database") {
  testutil::TempDir dir("sgfpat-table-build");
  const std::string db = dir / "tables";
  int building = 0, built_events = 0;
  uint64_t last_done = 0, last_total = 0;
  TableBuildEvents events;
  events.building = [&] { ++building; };
  events.progress = [&](uint64_t done, uint64_t total) { last_done = done, last_total = total; };
  events.built = [&](const Status& st) {
    ++built_events;
    CHECK(st.ok());
  };
  TableSummary sum;
  bool built = false;
  REQUIRE(ensure_table(db, 4, 3, events, &sum, &built).ok());
  CHECK(built);
  CHECK(building == 1);
  CHECK(built_events == 1);
  CHECK(last_total > 0);
  CHECK(last_done == last_total);
  CHECK(sum.positions == table(4, 3).positions());
  CHECK(sum.wins == table(4, 3).wins());
  // Again: read, not built; another size in the same database is built.
  TableSummary again;
  REQUIRE(ensure_table(db, 4, 3, events, &again, &built).ok());
  CHECK_FALSE(built);
  CHECK(building == 1);
  CHECK(again.positions == sum.positions);
  REQUIRE(ensure_table(db, 3, 3, events, &again, &built).ok());
  CHECK(built);
  CHECK(again.positions == table(3, 3).positions());
  TableReader reader;
  REQUIRE(reader.open(db).ok());
  TableSummary read;
  CHECK(reader.summary(4, 3, &read).ok());
  CHECK(read.positions == sum.positions);
  // A database of a format version from the future is refused: not read,
  // not written, not built into.
  {
    std::string future(4, '\0');
    future[3] = char(kRetroTableFormat.current + 1);
    testutil::with_raw_family(db, "default", [&](rocksdb::DB& raw, rocksdb::ColumnFamilyHandle* cf) {
      REQUIRE(raw.Put(rocksdb::WriteOptions(), cf, "format", future).ok());
    });
    TableReader refused;
    Status st = refused.open(db);
    CHECK(st.is_not_supported());
    CHECK(st.message().find("retrograde table database format version " +
                            std::to_string(kRetroTableFormat.current + 1)) != std::string::npos);
    building = 0;
    CHECK(ensure_table(db, 2, 3, events, &again, &built).is_not_supported());
    CHECK(building == 0);
    CHECK(write_table(db, table(3, 3), &again).is_not_supported());
    // Version 1 written as a record, and no record at all, both read.
    testutil::with_raw_family(db, "default", [&](rocksdb::DB& raw, rocksdb::ColumnFamilyHandle* cf) {
      REQUIRE(raw.Put(rocksdb::WriteOptions(), cf, "format", std::string("\0\0\0\1", 4)).ok());
    });
    CHECK(TableReader().open(db).ok());
    testutil::with_raw_family(db, "default", [&](rocksdb::DB& raw, rocksdb::ColumnFamilyHandle* cf) {
      REQUIRE(raw.Delete(rocksdb::WriteOptions(), cf, "format").ok());
    });
    CHECK(TableReader().open(db).ok());
  }
  // A size the table cannot hold is refused, nothing written.
  CHECK_FALSE(ensure_table(dir / "big", 5, 5, TableBuildEvents{}, &again, &built).ok());
  CHECK_FALSE(built);
}

// choose_atari_move (lib/solve/atari_player) against the retrograde tables:
// with a table it plays perfectly (wins soonest, resists longest); without
// one, in every position the table says is won, its move keeps the win.
#include <doctest/doctest.h>

#include <random>

#include "solve/atari_player.h"
#include "solve/retrograde.h"
#include "solve/table_store.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;
using namespace sgfpat::solve;

namespace {

// Positions met in random games from the empty board (before their end).
std::vector<Position> sample_positions(const Geometry& g, int games, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  for (int i = 0; i < games; ++i) {
    Position pos;
    for (;;) {
      std::vector<int> moves;
      bool over = false;
      for (Bits e = g.board() & ~pos.occupied(); e; e &= e - 1) {
        const MoveKind k = classify_move(g, pos, pos.to_move, lowest(e));
        over |= k == MoveKind::Capture;
        if (k == MoveKind::Normal) moves.push_back(lowest(e));
      }
      if (over || moves.empty()) break;
      out.push_back(pos);
      pos = with_stone(pos, moves[rng() % moves.size()]);
    }
  }
  return out;
}

// The table's value of the mover's move p in pos: win for the mover, and
// plies to the end counting p.
TableValue value_of_move(const RetroTable& t, const Position& pos, int p) {
  const MoveKind k = classify_move(t.geometry(), pos, pos.to_move, p);
  if (k == MoveKind::Capture) return {true, 1};
  TableValue child;
  REQUIRE(t.lookup(with_stone(pos, p), &child));
  return {!child.win, child.distance + 1};
}

}  // namespace

TEST_CASE("with a table: the move wins soonest when won and resists longest when lost") {
  TempDir dir("sgfpat-player");
  for (auto [w, h] : {std::pair{3, 3}, std::pair{4, 3}, std::pair{4, 4}}) {
    RetroTable t;
    REQUIRE(RetroTable::build(w, h, &t).ok());
    const std::string db = dir / ("t" + std::to_string(w) + std::to_string(h));
    TableSummary sum;
    REQUIRE(write_table(db, t, &sum).ok());
    TableReader reader;
    REQUIRE(reader.open(db).ok());
    AtariPlayOptions o;
    o.table = &reader;
    int from_table = 0, won = 0;
    for (const Position& pos : sample_positions(t.geometry(), 60, uint64_t(w * 10 + h))) {
      TableValue v;
      REQUIRE(t.lookup(pos, &v));
      std::string err;
      AtariChoice c = choose_atari_move(t.geometry(), pos, o, &err);
      CHECK(err.empty());
      REQUIRE(c.move >= 0);
      const TableValue got = value_of_move(t, pos, c.move);
      INFO(w << "x" << h << "\n" << to_rows(t.geometry(), pos) << "move " << t.geometry().name(c.move));
      CHECK(got.win == v.win);
      CHECK(got.distance == v.distance);  // the optimal length, both ways
      CHECK(c.verdict == (v.win ? Verdict::Win : Verdict::Loss));
      from_table += c.source == ChoiceSource::Table;
      won += v.win;
    }
    CHECK(from_table > 0);
    CHECK(won > 0);
  }
}

TEST_CASE("without a table: every won position is kept won, and a claimed win is a real one") {
  for (auto [w, h] : {std::pair{3, 3}, std::pair{4, 3}, std::pair{3, 4}}) {
    RetroTable t;
    REQUIRE(RetroTable::build(w, h, &t).ok());
    AtariPlayOptions o;
    o.search.seconds = 5;
    o.search.table_mb = 8;
    int won = 0, searched = 0;
    for (const Position& pos : sample_positions(t.geometry(), 25, uint64_t(w * 100 + h))) {
      TableValue v;
      REQUIRE(t.lookup(pos, &v));
      AtariChoice c = choose_atari_move(t.geometry(), pos, o);
      REQUIRE(c.move >= 0);
      CHECK(c.source != ChoiceSource::Table);
      const TableValue got = value_of_move(t, pos, c.move);
      INFO(w << "x" << h << "\n" << to_rows(t.geometry(), pos) << "move " << t.geometry().name(c.move));
      if (v.win) CHECK(got.win);
      if (c.verdict == Verdict::Win) CHECK(got.win);
      if (c.verdict == Verdict::Loss) CHECK_FALSE(v.win);
      won += v.win;
      searched += c.source == ChoiceSource::Search;
    }
    CHECK(won > 0);
    CHECK(searched > 0);
  }
}

TEST_CASE("no legal move: the mover has lost; a capture is always taken") {
  Geometry g;
  Position pos;
  // White to move on 2x2 with one black stone: any white move is legal here.
  REQUIRE(parse_rows("X./..", &g, &pos).ok());
  pos.to_move = Color::White;
  AtariChoice c = choose_atari_move(g, pos, AtariPlayOptions{});
  CHECK(c.move >= 0);
  // Black to move, the white stone in atari: Black takes it.
  REQUIRE(parse_rows("XO./XX./...", &g, &pos).ok());
  pos.to_move = Color::Black;
  c = choose_atari_move(g, pos, AtariPlayOptions{});
  CHECK(c.source == ChoiceSource::Capture);
  CHECK(c.verdict == Verdict::Win);
  CHECK(g.name(c.move) == "C3");
  // White to move where every empty point is suicide: no legal move.
  REQUIRE(parse_rows(".X/X.", &g, &pos).ok());
  pos.to_move = Color::White;
  c = choose_atari_move(g, pos, AtariPlayOptions{});
  CHECK(c.move == -1);
  CHECK(c.verdict == Verdict::Loss);
}

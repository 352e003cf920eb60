// The threat zones the proving search prunes with.  A move of the defender
// off a threat's zone is settled as lost without being searched, so every
// zone must hold on every position: checked here on the positions of random
// games by brute force (the extra stones placed, every reply tried, the
// capture search run again).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "solve/atari_board.h"
#include "solve/tactics.h"

using namespace sgfpat;
using namespace sgfpat::solve;

namespace {

// The positions of `games` random games on n x n boards (n = 5..7), the side
// to move in each; moves that capture or are suicide are never played.
template <typename Visit>
void random_positions(uint32_t seed, int games, Visit visit) {
  std::mt19937 rng(seed);
  for (int game = 0; game < games; ++game) {
    int n = 5 + game % 3;
    Geometry g(n, n);
    Position pos;
    for (int ply = 0; ply < n * n; ++ply) {
      visit(g, pos);
      std::vector<int> moves;
      for (Bits e = g.board() & ~pos.occupied(); e; e &= e - 1)
        if (classify_move(g, pos, pos.to_move, lowest(e)) == MoveKind::Normal) moves.push_back(lowest(e));
      if (moves.empty()) break;
      pos = with_stone(pos, moves[rng() % moves.size()]);
    }
  }
}

// The defender (to move, stones `def`) loses at once to the attacker's
// capture search whatever it plays: no reply captures, and after each legal
// reply the attacker captures.
bool every_reply_loses(const Geometry& g, Bits att, Bits def) {
  Bits empty = g.board() & ~(att | def);
  for (Bits s = att; s; s &= s - 1)  // the defender captures, or the attacker's last move was suicide
    if (popcount(g.neighbours(g.chain(att, lowest(s))) & empty) < 2) return false;
  for (Bits e = empty; e; e &= e - 1) {
    int r = lowest(e);
    Bits def2 = def | bit(r);
    if (!(g.neighbours(g.chain(def2, r)) & empty & ~bit(r))) continue;  // suicide: not a move
    uint64_t played = 0;
    int first;
    if (!capture_search(g, att, def2, 13, &played, &first)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("capture search: two defender stones off a zone built for two never stop the capture") {
  std::mt19937 rng(77);
  int captures = 0, pairs = 0;
  random_positions(2024, 200, [&](const Geometry& g, const Position& pos) {
    Bits mine = pos.stones(pos.to_move), theirs = pos.stones(opponent(pos.to_move));
    uint64_t played = 0;
    int first = -1;
    Bits zone = 0;
    if (!capture_search(g, mine, theirs, 13, &played, &first, -1, &zone, 2)) return;
    ++captures;
    std::vector<int> off;
    Bits empty = g.board() & ~pos.occupied();
    for (Bits e = empty & ~zone; e; e &= e - 1) off.push_back(lowest(e));
    // Every pair on small sets, a sample on large ones.
    for (size_t i = 0; i < off.size(); ++i)
      for (size_t j = i + 1; j < off.size(); ++j) {
        if (off.size() > 12 && rng() % 8) continue;
        Bits def = theirs | bit(off[i]) | bit(off[j]);
        Bits empty2 = empty & ~(bit(off[i]) | bit(off[j]));
        // Stones that capture end the game first; stones without liberties
        // are not a position a game reaches.
        if (has_dead_chain(g, def, empty2) || has_dead_chain(g, mine, empty2)) continue;
        ++pairs;
        int again;
        CHECK_MESSAGE(capture_search(g, mine, def, 13, &played, &again),
                      to_rows(g, pos) << "defender at " << g.name(off[i]) << " and " << g.name(off[j]));
      }
  });
  CHECK(captures > 500);
  CHECK(pairs > 20000);
}

TEST_CASE("capture search: a line with under three plies left after the extension is read, not played") {
  // After an atari and its extension the defender has no chain in atari
  // (the chains the atari left with one liberty all joined the extension),
  // so a search of one or two plies more could capture nothing: at 3 and
  // 4 plies the search places at most the capture's first stone, and
  // answers as at 3.
  int searched = 0, captures = 0, ladders = 0;
  random_positions(4242, 200, [&](const Geometry& g, const Position& pos) {
    Bits mine = pos.stones(pos.to_move), theirs = pos.stones(opponent(pos.to_move));
    for (int plies : {3, 4}) {
      uint64_t played = 0;
      int first = -1;
      const bool hit = capture_search(g, mine, theirs, plies, &played, &first);
      ++searched;
      captures += hit;
      CHECK_MESSAGE(played <= 1, to_rows(g, pos) << plies << " plies");
      int again = -1;
      uint64_t more = 0;
      CHECK(capture_search(g, mine, theirs, 3, &more, &again) == hit);
    }
    uint64_t played = 0;
    int first;
    ladders += capture_search(g, mine, theirs, 5, &played, &first) && played > 1;
  });
  CHECK(captures > 500);
  CHECK(ladders > 50);  // and deeper searches do play their lines
  MESSAGE("searched ", searched, ", captures ", captures, ", captures in 5 plies that played a line ", ladders);
}

TEST_CASE("capture search: the lines found past skipped first moves each hold off their own zone") {
  // The proving search narrows a capture's zone to the points every line
  // depends on, finding line after line by skipping the first moves tried
  // before: a defender's stone off any one line's zone must leave a capture.
  int positions = 0, second_lines = 0, checked = 0;
  random_positions(9191, 300, [&](const Geometry& g, const Position& pos) {
    Bits mine = pos.stones(pos.to_move), theirs = pos.stones(opponent(pos.to_move));
    uint64_t played = 0;
    int first = -1;
    Bits zone = 0;
    if (!capture_search(g, mine, theirs, 5, &played, &first, -1, &zone)) return;
    // An immediate capture is one line: skip does not apply to it.
    for (Bits s = theirs; s; s &= s - 1)
      if (popcount(g.neighbours(g.chain(theirs, lowest(s))) & ~(mine | theirs)) == 1) return;
    ++positions;
    const Bits empty = g.board() & ~pos.occupied();
    for (int line = 0; line < 6; ++line) {
      const Bits skip = (bit(first) << 1) - 1;  // every first move up to the last line's
      Bits z = 0;
      int next = -1;
      if (!capture_search(g, mine, theirs, 5, &played, &next, -1, &z, 1, skip)) break;
      ++second_lines;
      REQUIRE_MESSAGE(!(skip & bit(next)), to_rows(g, pos) << "line at " << g.name(next));
      for (Bits e = empty & ~z; e; e &= e - 1) {
        const int p = lowest(e);
        Position view = pos;
        view.to_move = opponent(pos.to_move);
        if (classify_move(g, view, view.to_move, p) != MoveKind::Normal) continue;
        const Bits def = theirs | bit(p);
        // Stones that capture end the game first.
        bool captures = false;
        for (Bits s = mine; s; s &= s - 1)
          captures |= !(g.neighbours(g.chain(mine, lowest(s))) & empty & ~bit(p));
        if (captures) continue;
        ++checked;
        int again;
        CHECK_MESSAGE(capture_search(g, mine, def, 5, &played, &again),
                      to_rows(g, pos) << "line at " << g.name(next) << ", defender at " << g.name(p));
      }
      first = next;
    }
  });
  CHECK(positions > 200);
  CHECK(second_lines > 100);
  MESSAGE("captures ", positions, ", lines found past the first ", second_lines, ", stones checked ", checked);
}

TEST_CASE("two-move threat: a defender's move off the zone loses to the threat's first move") {
  int threats = 0, checked = 0;
  random_positions(4711, 4000, [&](const Geometry& g, const Position& pos) {
    // The attacker is the side not to move; the defender moves.
    Bits def = pos.stones(pos.to_move), att = pos.stones(opponent(pos.to_move));
    uint64_t played = 0;
    int first;
    // The caller's precondition: the attacker has no capture at once.
    if (capture_search(g, att, def, 13, &played, &first)) return;
    int m = -1;
    Bits zone = 0;
    if (!threat2_search(g, att, def, 13, &played, &m, &zone)) return;
    ++threats;
    Bits empty = g.board() & ~pos.occupied();
    REQUIRE((empty & bit(m)) != 0);
    CHECK((zone & bit(m)) != 0);
    Position attacker_view = pos;
    attacker_view.to_move = opponent(pos.to_move);
    CHECK(classify_move(g, attacker_view, attacker_view.to_move, m) == MoveKind::Normal);
    // The threat itself: after m, every reply loses.
    CHECK_MESSAGE(every_reply_loses(g, att | bit(m), def), to_rows(g, pos) << "threat at " << g.name(m));
    for (Bits e = empty & ~zone; e; e &= e - 1) {
      int p = lowest(e);
      MoveKind kind = classify_move(g, pos, pos.to_move, p);
      if (kind != MoveKind::Normal) continue;
      Bits def2 = def | bit(p);
      if (popcount(g.neighbours(g.chain(def2, p)) & empty & ~bit(p)) < 2) continue;  // self-atari: lost anyway
      ++checked;
      CHECK_MESSAGE(every_reply_loses(g, att | bit(m), def2),
                    to_rows(g, pos) << "threat at " << g.name(m) << ", defender at " << g.name(p));
    }
  });
  CHECK(threats > 1500);
  CHECK(checked > 20000);
  MESSAGE("threats " << threats << ", moves off their zones " << checked);
}

// The searches run on one 64-bit word when the board fits it: on every
// position, the same answers, zones, move lists and move counts as on two.
TEST_CASE("tactics on one word answer as on two") {
  int compared = 0, captures = 0, threats = 0;
  random_positions(99, 600, [&](const Geometry& g, const Position& pos) {
    REQUIRE(g.fits64());
    const Bits mine = pos.stones(pos.to_move), theirs = pos.stones(opponent(pos.to_move));
    NodeTactics a, b;
    analyse_node(g, mine, theirs, &a);
    analyse_node(g, uint64_t(mine), uint64_t(theirs), &b);
    CHECK(a.verdict == b.verdict);
    CHECK(a.capture_point == b.capture_point);
    REQUIRE(a.moves.size() == b.moves.size());
    for (int i = 0; i < a.moves.size(); ++i) {
      CHECK(a.moves[i].point == b.moves[i].point);
      CHECK(a.moves[i].score == b.moves[i].score);
    }
    // One search run on two words and on one: the same answer, first move,
    // zone and count of moves played.
    struct Run {
      bool hit;
      uint64_t played = 0;
      int first = -1;
      Bits zone = 0;
    };
    auto same = [](const Run& two, const Run& one) {
      REQUIRE(one.hit == two.hit);
      CHECK(one.played == two.played);
      if (!two.hit) return false;
      CHECK(one.first == two.first);
      CHECK(one.zone == two.zone);
      return true;
    };
    // Both sides as the attacker, zones for one and two extra stones.
    for (int side = 0; side < 2; ++side) {
      const Bits att = side ? theirs : mine, def = side ? mine : theirs;
      const uint64_t att1 = uint64_t(att), def1 = uint64_t(def);
      bool captures_now = false;
      for (int extra = 1; extra <= 2; ++extra) {
        Run two, one;
        uint64_t zone1 = 0;
        two.hit = capture_search(g, att, def, 13, &two.played, &two.first, -1, &two.zone, extra);
        one.hit = capture_search(g, att1, def1, 13, &one.played, &one.first, -1, &zone1, extra);
        one.zone = zone1;
        captures_now = same(two, one);
        captures += captures_now;
      }
      if (captures_now) continue;  // threat2's precondition: no capture at once
      Run two, one;
      uint64_t zone1 = 0;
      two.hit = threat2_search(g, att, def, 13, &two.played, &two.first, &two.zone);
      one.hit = threat2_search(g, att1, def1, 13, &one.played, &one.first, &zone1);
      one.zone = zone1;
      threats += same(two, one);
    }
    ++compared;
  });
  CHECK(compared > 10000);
  CHECK(captures > 5000);
  CHECK(threats > 300);
  MESSAGE("positions " << compared << ", captures " << captures << ", threats " << threats);
}

// The tactics derive the chains of each position they read from the
// position before (chain_set.h): every derivation must give the chains a
// flood fill finds again, and the liberties they report must be the rules'.
TEST_CASE("chain sets kept stone by stone equal the chains found again") {
  // The chains of a set as (stones, liberties) pairs, in a fixed order.
  auto pairs = [](const ChainSet<Bits>& s) {
    std::vector<std::pair<Bits, Bits>> v;
    for (int i = 0; i < s.size(); ++i) v.emplace_back(s.stones(i), s.libs(i));
    std::sort(v.begin(), v.end());
    return v;
  };
  int derived = 0;
  random_positions(5, 300, [&](const Geometry& g, const Position& pos) {
    const Bits mine = pos.stones(pos.to_move), theirs = pos.stones(opponent(pos.to_move));
    const Bits empty = g.board() & ~(mine | theirs);
    ChainSet<Bits> m, t;
    m.build(g, mine, empty);
    t.build(g, theirs, empty);
    for (int k = 0; k <= 4; ++k) {  // against the rules' liberties, chain by chain
      Bits expect = 0;
      for (Bits s = mine; s; s &= s - 1) {
        const Bits libs = g.neighbours(g.chain(mine, lowest(s))) & empty;
        if (popcount(libs) <= k) expect |= libs;
      }
      CHECK(m.short_libs(k) == expect);
    }
    for (Bits e = empty; e; e &= e - 1) {
      const int p = lowest(e);
      const Bits pb = bit(p), around = g.neighbours(pb), empty2 = empty & ~pb;
      CHECK(m.libs_after_stone(p, around, empty2) == (g.neighbours(g.chain(mine | pb, p)) & empty2));
      ChainSet<Bits> m2 = m, t2 = t, m_again, t_again;
      m2.add_stone(p, around, empty2);
      t2.take_liberty(p);
      m_again.build(g, mine | pb, empty2);
      t_again.build(g, theirs, empty2);
      CHECK(pairs(m2) == pairs(m_again));
      CHECK(pairs(t2) == pairs(t_again));
      ++derived;
    }
  });
  CHECK(derived > 100000);
  MESSAGE("derivations " << derived);
}

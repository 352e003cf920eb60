// Tactical features of candidate moves (sgfpat_priors::Tactics of
// priors/sgfpat_features.h, their one implementation, fed by lib/features)
// on hand-made board diagrams -- capture, snapback, ko,
// self-atari, atari, extension, edge, distances -- and against the rules
// engine (every legal move of real positions played out on a Board copy).
#include <doctest/doctest.h>

#include <algorithm>

#include "board/position_text.h"
#include "board/replay.h"
#include "features/position_features.h"
#include "sgf/game_stream.h"

using namespace sgfpat;
using namespace sgfpat_priors;

namespace {
struct Diagram {
  TextPosition pos;
  Tactics tactics;
  explicit Diagram(const std::string& text, RecentMoves recent = {}) {
    Status st = parse_position_text(text, &pos);
    REQUIRE(st.ok());
    setup_tactics(pos.board, pos.to_move, recent, &tactics);
  }
  // The feature levels of a move at (x, y) for the player to move.
  std::array<uint8_t, kFeatureGroups> at(int x, int y) {
    REQUIRE(pos.board.is_legal(Point{int8_t(x), int8_t(y)}, pos.to_move));
    std::array<uint8_t, kFeatureGroups> f{};
    tactics.compute(y * pos.board.size() + x, f.data());
    return f;
  }
};
}  // namespace

TEST_CASE("features: capturing a lone stone, and a capture that saves an own chain in atari") {
  // White's O at (1,1) has one liberty, (2,1).
  Diagram d(
      "B\n5\n"
      ".X...\n"
      "XO...\n"
      ".X...\n"
      ".....\n"
      ".....\n");
  auto f = d.at(2, 1);
  CHECK(f[kCapture] == 1);
  CHECK(f[kKo] == 0);
  CHECK(f[kSelfAtari] == 0);
  CHECK(f[kLiberties] == 3);  // (1,1) freed, (3,1), (2,0), (2,2): 4 or more
  CHECK(f[kAtari] == 0);
  auto quiet = d.at(4, 4);
  CHECK(quiet[kCapture] == 0);
  CHECK(quiet[kLiberties] == 1);  // a corner stone: 2 liberties
  CHECK(quiet[kEdge] == 0);

  // Black's pair at (0,0)-(0,1) is in atari (liberty (0,2)); White's pair
  // beside it has one liberty, (2,0): taking it saves Black's pair.
  Diagram s(
      "B\n5\n"
      "XO...\n"
      "XOX..\n"
      ".X...\n"
      ".....\n"
      ".....\n");
  auto c = s.at(2, 0);
  CHECK(c[kCapture] == 2 + 3);  // 2-3 stones, and it saves
  CHECK(c[kExtension] == 0);    // the move does not touch the chain in atari
  CHECK(c[kLiberties] == 3);
  // Taking them from the other side also extends the pair in atari.
  Diagram t(
      "B\n5\n"
      "XOX..\n"
      ".OX..\n"
      ".X...\n"
      ".....\n"
      ".....\n");
  auto both = t.at(0, 1);
  CHECK(both[kCapture] == 2 + 3);
  CHECK(both[kExtension] == 2);  // 1 stone in atari, 3 liberties after: (1,0), (1,1), (0,2)
  CHECK(both[kLiberties] == 2);
}

TEST_CASE("features: snapback -- the throw-in, the capture that walks into it, the recapture") {
  Diagram d(
      "B\n4\n"
      "..OX\n"
      "OOOX\n"
      "XXXX\n"
      "....\n");
  // White's 4 stones have liberties (0,0) and (1,0).
  auto throw_in = d.at(1, 0);
  CHECK(throw_in[kSelfAtari] == 1);
  CHECK(throw_in[kAtari] == 2);
  CHECK(throw_in[kCapture] == 0);
  CHECK(throw_in[kLiberties] == 0);
  REQUIRE(d.pos.board.play(Point{1, 0}, Color::Black) == MoveError::None);

  Tactics t;
  setup_tactics(d.pos.board, Color::White, RecentMoves{Point{1, 0}, kPass}, &t);
  std::array<uint8_t, kFeatureGroups> take{};
  t.compute(0 * 4 + 0, take.data());
  CHECK(take[kCapture] == 1 + 3);  // one stone, and it "saves" White's 4 (in atari from the throw-in)
  CHECK(take[kSelfAtari] == 2);   // and White's 5 stones are left with one liberty
  CHECK(take[kKo] == 0);          // not a ko: the capturing stone joins a chain
  CHECK(take[kDistPrev] == 2 - 1);  // next to the throw-in: distance 2
  CHECK(take[kDistPrev2] == 0);
  REQUIRE(d.pos.board.play(Point{0, 0}, Color::White) == MoveError::None);

  setup_tactics(d.pos.board, Color::Black, RecentMoves{Point{0, 0}, Point{1, 0}}, &t);
  std::array<uint8_t, kFeatureGroups> back{};
  t.compute(0 * 4 + 1, back.data());
  CHECK(back[kCapture] == 3);  // 5 stones
  CHECK(back[kSelfAtari] == 0);
}

TEST_CASE("features: taking a ko, and the ko point itself is not offered") {
  Diagram d(
      "B\n5\n"
      ".XO..\n"
      "XO.O.\n"
      ".XO..\n"
      ".....\n"
      ".....\n");
  auto take = d.at(2, 1);
  CHECK(take[kCapture] == 1 + 3);  // one stone, touching Black's (1,0) in atari
  CHECK(take[kKo] == 1);
  CHECK(take[kSelfAtari] == 0);  // a ko take is not counted as a self-atari
  CHECK(take[kLiberties] == 0);
  REQUIRE(d.pos.board.play(Point{2, 1}, Color::Black) == MoveError::None);
  CHECK(d.pos.board.ko_index() == d.pos.board.index(Point{1, 1}));
  CHECK_FALSE(d.pos.board.is_legal(Point{1, 1}, Color::White));
}

TEST_CASE("features: atari, extension out of atari, and an extension into self-atari") {
  Diagram d(
      "W\n7\n"
      ".......\n"
      "..XO...\n"
      "..OX...\n"
      "...X...\n"
      ".......\n"
      ".......\n"
      ".......\n");
  CHECK(d.at(1, 1)[kAtari] == 1);  // Black's (2,1): liberties (2,0), (1,1)
  CHECK(d.at(4, 2)[kAtari] == 0);  // Black's pair below keeps 3 liberties
  CHECK(d.at(2, 3)[kAtari] == 0);
  CHECK(d.at(1, 1)[kSelfAtari] == 0);

  Diagram e(
      "B\n6\n"
      "......\n"
      ".OXO..\n"
      "..O...\n"
      "......\n"
      "......\n"
      "......\n");
  auto ext = e.at(2, 0);  // Black's (2,1) has one liberty, (2,0)
  CHECK(ext[kExtension] == 1);
  CHECK(ext[kLiberties] == 1);
  CHECK(ext[kSelfAtari] == 0);

  Diagram f(
      "B\n6\n"
      "...O..\n"
      ".OXXO.\n"
      "..OO..\n"
      "......\n"
      "......\n"
      "......\n");
  auto fail = f.at(2, 0);  // the pair's only liberty; after it, one liberty (1,0)
  CHECK(fail[kExtension] == 0);
  CHECK(fail[kSelfAtari] == 2);
  CHECK(fail[kLiberties] == 0);
  auto lone = f.at(0, 0);  // a lone stone in the corner has two liberties
  CHECK(lone[kSelfAtari] == 0);
}

TEST_CASE("features: edge lines and distances to the last two moves") {
  Diagram d("B\n9\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n",
            RecentMoves{Point{4, 4}, Point{0, 0}});
  CHECK(d.at(0, 5)[kEdge] == 0);
  CHECK(d.at(1, 5)[kEdge] == 1);
  CHECK(d.at(3, 6)[kEdge] == 2);
  CHECK(d.at(4, 3)[kEdge] == 3);
  CHECK(d.at(4, 4)[kEdge] == 4);
  // d = dx + dy + max(dx, dy); level max(1, min(d, 17) - 1).
  CHECK(d.at(5, 4)[kDistPrev] == 1);
  CHECK(d.at(5, 5)[kDistPrev] == 2);
  CHECK(d.at(6, 5)[kDistPrev] == 4);
  CHECK(d.at(8, 8)[kDistPrev] == 11);
  CHECK(d.at(5, 4)[kDistPrev2] == 13);
  CHECK(d.at(8, 0)[kDistPrev2] == 15);
  CHECK(d.at(8, 8)[kDistPrev2] == 16);
  // The point of the previous move itself (its stone was captured since): as near as can be.
  CHECK(d.at(4, 4)[kDistPrev] == 1);
  Diagram none("B\n5\n.....\n.....\n.....\n.....\n.....\n");
  CHECK(none.at(2, 2)[kDistPrev] == 0);
  CHECK(none.at(2, 2)[kDistPrev2] == 0);
}

namespace {
// The features as the rules engine sees them: the move played on a copy of
// the board, chains and liberties read from it.
std::array<uint8_t, kFeatureGroups> by_rules_engine(const Board& before, Color mover, Point p) {
  std::array<uint8_t, kFeatureGroups> f{};
  Board after = before;
  REQUIRE(after.play(p, mover) == MoveError::None);
  const int n = before.size();
  const int captured = int(after.last_removed().size());
  bool saves = false;
  for (int idx : after.last_removed()) {
    Point s = before.point(idx);
    const Point nb[4] = {{s.x, int8_t(s.y - 1)}, {int8_t(s.x + 1), s.y}, {s.x, int8_t(s.y + 1)}, {int8_t(s.x - 1), s.y}};
    for (Point q : nb)
      if (before.on_board(q) && before.at(q) == mover && before.liberties(q) == 1) saves = true;
  }
  const int libs = after.liberties(p);
  const bool ko = after.ko_index() >= 0;
  int own_atari = 0, atari = 0;
  const Point nb[4] = {{p.x, int8_t(p.y - 1)}, {int8_t(p.x + 1), p.y}, {p.x, int8_t(p.y + 1)}, {int8_t(p.x - 1), p.y}};
  for (Point q : nb) {
    if (!before.on_board(q)) continue;
    if (before.at(q) == mover && before.liberties(q) == 1) own_atari = std::max(own_atari, before.chain_size(q));
    if (before.at(q) == opponent(mover) && before.liberties(q) == 2) atari = std::max(atari, before.chain_size(q));
  }
  f[kCapture] = uint8_t(captured == 0 ? 0 : (captured == 1 ? 1 : captured <= 3 ? 2 : 3) + (saves ? 3 : 0));
  f[kExtension] = uint8_t(own_atari == 0 || libs < 2 ? 0 : (own_atari == 1 ? 1 : 3) + (libs >= 3 ? 1 : 0));
  f[kAtari] = uint8_t(atari == 0 ? 0 : atari == 1 ? 1 : 2);
  f[kSelfAtari] = uint8_t(libs > 1 || ko ? 0 : after.chain_size(p) == 1 ? 1 : 2);
  f[kLiberties] = uint8_t(libs <= 1 ? 0 : std::min(libs, 4) - 1);
  f[kKo] = ko ? 1 : 0;
  (void)n;
  return f;
}

struct CrossCheck : ReplayObserver {
  uint64_t compared = 0, mismatches = 0;
  std::array<uint64_t, kFeatureGroups> nonzero{};
  RecentMoves recent;
  Tactics tactics;
  void before_move(const Board& board, Color mover, Point move, int number) override {
    if (!move.is_pass() && number % 3 == 0) {
      setup_tactics(board, mover, recent, &tactics);
      for (int y = 0; y < board.size(); ++y)
        for (int x = 0; x < board.size(); ++x) {
          Point p{int8_t(x), int8_t(y)};
          if (!board.is_legal(p, mover)) continue;
          std::array<uint8_t, kFeatureGroups> fast{};
          tactics.compute(feature_point(p, board.size()), fast.data());
          auto slow = by_rules_engine(board, mover, p);
          ++compared;
          for (int g = kCapture; g <= kKo; ++g) {
            if (g == kDistPrev || g == kDistPrev2 || g == kEdge) continue;
            nonzero[size_t(g)] += fast[size_t(g)] != 0;
            if (fast[size_t(g)] != slow[size_t(g)]) {
              if (++mismatches < 5)
                MESSAGE("move " << number << " at " << gtp_name(p, board.size()) << ": "
                                << feature_group_name(g) << " " << int(fast[size_t(g)]) << " vs rules engine "
                                << int(slow[size_t(g)]));
            }
          }
        }
    }
    recent.push(move);
  }
};
}  // namespace

TEST_CASE("features agree with the rules engine on every legal move of real positions") {
  CrossCheck check;
  for (const char* file : {"gnugo-9x9.sgf", "gnugo-19x19.sgf"}) {
    GameStream stream({std::string(SGFPAT_SOURCE_DIR) + "/data/" + file});
    Game game;
    Status st;
    Board board;
    ReplayResult rr;
    int games = 0;
    while (games < 20 && stream.next(&game, &st)) {
      if (!st.ok()) continue;
      check.recent = RecentMoves{};
      if (replay(game, &board, &rr, &check).ok()) ++games;
    }
  }
  MESSAGE("compared " << check.compared << " candidates");
  CHECK(check.compared > 10000);
  CHECK(check.mismatches == 0);
  // The positions exercise every tactical group.
  for (int g : {kCapture, kExtension, kAtari, kSelfAtari, kLiberties, kKo}) {
    INFO(feature_group_name(g));
    CHECK(check.nonzero[size_t(g)] > 0);
  }
}

// The rules of played games: positional superko in the rules engine
// (Board::check with KoRule::Positional, checked against playing the move
// on a copy), the area score's owner map, GameState (turns, refusals, two
// passes and the score, atari-go's first capture), and the SGF writer
// (parse_game gives back what write_sgf wrote).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "board/board.h"
#include "go_names.h"
#include "play/clock.h"
#include "play/game_state.h"
#include "sgf/parser.h"
#include "sgf/writer.h"

using namespace sgfpat;
using namespace testnames;

namespace {

Point P(int size, const char* name) { return pt(size, name); }

// Plays names alternately from `first`; every move must be accepted.
void play_all(GameState& g, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    INFO("move ", g.moves().size() + 1, ": ", n);
    const Color c = g.to_move();
    REQUIRE(g.play(c, std::string(n) == "pass" ? kPass : P(g.rules().size, n)) == Refusal::None);
  }
}

}  // namespace

TEST_CASE("positional superko: check() refuses exactly the moves that recreate a position") {
  // Random games on small boards: every candidate is played on a copy of
  // the board, and Board's own record of positions says whether it
  // repeats one; check(..., Positional) must say Superko exactly then (Ko
  // for the simple ko retake), and hash_after() must be the copy's hash.
  std::mt19937 rng(76);
  int superko_refusals = 0, ko_refusals = 0, moves = 0;
  for (int game = 0; game < 300; ++game) {
    const int n = 2 + int(rng() % 4);  // 2x2 .. 5x5: repetitions are common
    const bool suicide = game % 3 == 0;
    Board b(n);
    Color c = Color::Black;
    for (int ply = 0; ply < 80; ++ply) {
      std::vector<Point> legal;
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          const Point p{int8_t(x), int8_t(y)};
          const MoveError simple = b.check(p, c, suicide);
          const MoveError positional = b.check(p, c, suicide, KoRule::Positional);
          if (simple != MoveError::None) {
            CHECK(positional == simple);
            continue;
          }
          Board copy = b;
          REQUIRE(copy.play(p, c, suicide) == MoveError::None);
          CHECK(b.hash_after(b.index(p), c) == copy.hash());
          if (copy.last_move_repeated_position()) {
            CHECK(positional == MoveError::Superko);
            ++superko_refusals;
          } else {
            CHECK(positional == MoveError::None);
            legal.push_back(p);
          }
        }
      if (b.ko_index() >= 0) ++ko_refusals;
      if (legal.empty() || rng() % 10 == 0) {
        b.pass();
      } else {
        REQUIRE(b.play(legal[rng() % legal.size()], c, suicide, KoRule::Positional) == MoveError::None);
        CHECK_FALSE(b.last_move_repeated_position());
        ++moves;
      }
      c = opponent(c);
    }
  }
  // The test must have met both kinds of repetition to mean anything.
  CHECK(superko_refusals > 100);
  CHECK(ko_refusals > 100);
  CHECK(moves > 5000);
}

TEST_CASE("positional superko: a ko retake is Ko, a longer cycle Superko") {
  // 4x4: Black takes the ko at B3... the simple retake is MoveError::Ko.
  //   . X O .
  //   X O . O
  //   . X O .
  //   . . . .
  Board b(4);
  for (auto [name, col] : std::vector<std::pair<const char*, Color>>{
           {"B4", B}, {"C4", W}, {"A3", B}, {"B3", W}, {"D3", W}, {"B2", B}, {"C2", W}})
    b.setup(pt(4, name), col);
  REQUIRE(b.play(pt(4, "C3"), B) == MoveError::None);  // captures B3
  REQUIRE(b.last_removed().size() == 1);
  CHECK(b.check(pt(4, "B3"), W, false, KoRule::Positional) == MoveError::Ko);
  CHECK(b.check(pt(4, "B3"), W) == MoveError::Ko);
  // After a pass each, the simple ko is gone but the retake would still
  // recreate the position after C2: positional superko refuses it.
  b.pass();
  b.pass();
  CHECK(b.check(pt(4, "B3"), W) == MoveError::None);
  CHECK(b.check(pt(4, "B3"), W, false, KoRule::Positional) == MoveError::Superko);
}

TEST_CASE("area_score: the owner map agrees with the counts") {
  //   X X . O O
  //   X . X O .
  //   X X X O O
  //   . X O . O
  //   X X O O .
  const std::vector<std::string> rows = {"XX.OO", "X.XO.", "XXXOO", ".XO.O", "XXOO."};
  Board b(5);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x)
      if (rows[y][x] != '.') b.setup(Point{int8_t(x), int8_t(y)}, rows[y][x] == 'X' ? B : W);
  std::vector<Color> owner;
  const AreaScore s = b.area_score(&owner);
  const AreaScore plain = b.area_score();
  CHECK(s.black == plain.black);
  CHECK(s.white == plain.white);
  CHECK(s.neutral == plain.neutral);
  REQUIRE(owner.size() == 25);
  int black = 0, white = 0, neutral = 0;
  for (Color c : owner) (c == B ? black : c == W ? white : neutral)++;
  CHECK(black == s.black);
  CHECK(white == s.white);
  CHECK(neutral == s.neutral);
  // C5 touches X (B5) and O (D5): neutral; B4 is Black's; E4, D2, E1 White's; A2 Black's.
  CHECK(owner[0 * 5 + 2] == E);
  CHECK(owner[1 * 5 + 1] == B);
  CHECK(owner[1 * 5 + 4] == W);
  CHECK(owner[3 * 5 + 0] == B);
  CHECK(owner[3 * 5 + 3] == W);
  CHECK(owner[4 * 5 + 4] == W);
  CHECK(s.black == 12);
  CHECK(s.white == 12);
  CHECK(s.neutral == 1);
}

TEST_CASE("GameState: turns, refusals, a ko, two passes and the area score") {
  GameState g(GameRules{5, 0.5, Ruleset::Go});
  CHECK(g.to_move() == B);
  CHECK(g.check(W, P(5, "C3")) == Refusal::NotYourTurn);
  // A ko on the left: Black captures at B3... set up by moves.
  play_all(g, {"B4", "C4", "A3", "B3", "B2", "C2", "E5", "D3"});
  CHECK(g.play(B, P(5, "B4")) == Refusal::Occupied);
  std::vector<Point> removed;
  REQUIRE(g.play(B, P(5, "C3"), &removed) == Refusal::None);  // takes B3
  REQUIRE(removed.size() == 1);
  CHECK(removed[0] == P(5, "B3"));
  CHECK(g.check(W, P(5, "B3")) == Refusal::Ko);
  CHECK(g.play(W, P(5, "B3")) == Refusal::Ko);
  CHECK(g.moves().size() == 9);  // the refused move changed nothing
  CHECK(refusal_message(Refusal::Ko, W).find("Ko") == 0);
  CHECK(std::string(refusal_code(Refusal::Ko)) == "ko");
  // Two passes end it; the score is the board's area score with komi.
  play_all(g, {"pass"});
  CHECK_FALSE(g.over());
  CHECK(g.passes_in_a_row() == 1);
  play_all(g, {"pass"});
  REQUIRE(g.over());
  const AreaScore a = g.board().area_score();
  CHECK(g.result().reason == EndReason::Score);
  CHECK(g.result().area.black == a.black);
  CHECK(g.result().area.white == a.white);
  CHECK(g.result().margin == doctest::Approx(a.black - a.white - 0.5));
  CHECK(g.result().winner == (a.black - a.white - 0.5 > 0 ? B : W));
  CHECK(g.play(B, P(5, "A1")) == Refusal::GameOver);
  const std::vector<Color> owners = g.owners();
  int b = 0, w = 0;
  for (Color c : owners) {
    if (c == B) ++b;
    if (c == W) ++w;
  }
  CHECK(b == a.black);
  CHECK(w == a.white);
}

TEST_CASE("GameState: results as SGF writes them") {
  GameState g(GameRules{9, 7.5, Ruleset::Go});
  play_all(g, {"E5", "pass", "pass"});
  // Black's one stone owns the whole empty board: 81 - 7.5.
  CHECK(g.result().sgf_result() == "B+73.5");
  CHECK(g.result().text(7.5) == "Black wins by 73.5 points (Black 81, White 0, komi 7.5)");
  GameState draw(GameRules{9, 0, Ruleset::Go});
  play_all(draw, {"pass", "pass"});
  CHECK(draw.result().winner == E);
  CHECK(draw.result().sgf_result() == "0");
  GameState r(GameRules{9, 7.5, Ruleset::Go});
  r.resign(W);
  CHECK(r.result().sgf_result() == "B+R");
  GameState t(GameRules{9, 7.5, Ruleset::Go});
  t.lose_on_time(B);
  CHECK(t.result().sgf_result() == "W+T");
  t.resign(W);  // over already: no change
  CHECK(t.result().sgf_result() == "W+T");
}

TEST_CASE("GameState: atari-go ends at the first capture and has no passes") {
  GameState g(GameRules{5, 0, Ruleset::Atari});
  CHECK(g.check(B, kPass) == Refusal::NoPass);
  // White's C4 loses its liberties one by one; Black's C3 takes the last.
  play_all(g, {"B4", "C4", "D4", "A1", "C5", "E1"});
  CHECK_FALSE(g.over());
  std::vector<Point> removed;
  REQUIRE(g.play(B, P(5, "C3"), &removed) == Refusal::None);
  CHECK(g.over());
  CHECK(g.result().reason == EndReason::Capture);
  CHECK(g.result().winner == B);
  REQUIRE(removed.size() == 1);
  CHECK(removed[0] == P(5, "C4"));
  CHECK(g.check(W, P(5, "A5")) == Refusal::GameOver);
}

TEST_CASE("write_sgf: parse_game reads back the info and the actions") {
  Game g;
  g.info.size = 13;
  g.info.komi = 6.5;
  g.info.handicap = 2;
  g.info.rules = "Chinese";
  g.info.black_name = "Kuro ] \\ Kim";
  g.info.white_name = "Shiro";
  g.info.result = "W+3.5";
  g.info.date = "2026-01-02";
  g.info.name = "test";
  g.actions = {
      {Action::Kind::Setup, B, P(13, "D4")},   {Action::Kind::Setup, B, P(13, "K10")},
      {Action::Kind::Play, W, P(13, "C3")},    {Action::Kind::Play, B, kPass},
      {Action::Kind::Setup, E, P(13, "D4")},   {Action::Kind::Setup, W, P(13, "A1")},
      {Action::Kind::SetPlayer, W, kPass},     {Action::Kind::Play, W, P(13, "N13")},
      {Action::Kind::Play, W, P(13, "M12")},
  };
  const std::string text = write_sgf(g);
  Game back;
  REQUIRE(parse_game(text, &back).ok());
  CHECK(back.info.size == 13);
  CHECK(back.info.komi == 6.5);
  CHECK(back.info.handicap == 2);
  CHECK(back.info.rules == "Chinese");
  CHECK(back.info.black_name == g.info.black_name);
  CHECK(back.info.white_name == "Shiro");
  CHECK(back.info.result == "W+3.5");
  CHECK(back.info.date == "2026-01-02");
  CHECK(back.info.name == "test");
  REQUIRE(back.actions.size() == g.actions.size());
  for (size_t i = 0; i < g.actions.size(); ++i) {
    INFO("action ", i);
    CHECK(back.actions[i] == g.actions[i]);
  }
  // A played game's record replays to the same end.
  GameState s(GameRules{9, 7.5, Ruleset::Go});
  play_all(s, {"E5", "C3", "G7", "pass", "D4", "pass", "pass"});
  Game rec;
  REQUIRE(parse_game(write_sgf(s.record()), &rec).ok());
  CHECK(rec.info.result == s.result().sgf_result());
  CHECK(rec.move_count() == 7);
}

TEST_CASE("GameClock: main time, then byo-yomi periods; running out loses") {
  GameClock c(ClockRules{10000, 3000, 2});
  CHECK(c.time_left_ms(B) == 16000);
  CHECK(c.charge(B, 4000));
  CHECK(c.side(B).main_left_ms == 6000);
  CHECK(c.side(B).periods_left == 2);
  CHECK(c.side(W).main_left_ms == 10000);  // the other side untouched
  // 6 s of main time left: 8 s spends it and 2 s of the first period (kept).
  CHECK(c.charge(B, 8000));
  CHECK(c.side(B).main_left_ms == 0);
  CHECK(c.side(B).periods_left == 2);
  // A move taking 4 s in byo-yomi uses up one period.
  CHECK(c.charge(B, 4000));
  CHECK(c.side(B).periods_left == 1);
  CHECK(c.time_left_ms(B) == 3000);
  CHECK(c.charge(B, 2999));
  CHECK(c.side(B).periods_left == 1);
  // All the time left is too much.
  CHECK_FALSE(c.charge(B, 3000));
  CHECK(c.side(B).periods_left == 0);
  CHECK(c.time_left_ms(B) == 0);

  GameClock sudden(ClockRules{5000, 0, 0});
  CHECK(sudden.charge(W, 4999));
  CHECK_FALSE(sudden.charge(W, 1));
  CHECK(check_clock_rules(ClockRules{0, 0, 0}).is_invalid_argument());
  CHECK(check_clock_rules(ClockRules{-1, 1000, 1}).is_invalid_argument());
  CHECK(check_clock_rules(ClockRules{0, 10000, 1}).ok());
}

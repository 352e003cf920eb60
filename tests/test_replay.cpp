// Tests of replay() on hand-built Game records (no SGF parsing involved).
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "board/replay.h"
#include "go_names.h"
#include "sgf/parser.h"

using namespace sgfpat;
using namespace testnames;

namespace {

struct GameBuilder {
  Game game;
  explicit GameBuilder(int size, std::string rules = "") {
    game.info.size = size;
    game.info.rules = std::move(rules);
  }
  // Moves alternate as written: "B E5", "W pass", ...
  GameBuilder& moves(std::initializer_list<const char*> list) {
    for (std::string m : list) {
      Color c = m[0] == 'B' ? B : W;
      std::string where = m.substr(2);
      game.actions.push_back(
          Action{Action::Kind::Play, c, where == "pass" ? kPass : pt(game.info.size, where)});
    }
    return *this;
  }
  GameBuilder& setup(Color c, std::initializer_list<const char*> points) {
    for (const char* p : points) game.actions.push_back(Action{Action::Kind::Setup, c, pt(game.info.size, p)});
    return *this;
  }
  GameBuilder& player(Color c) {
    game.actions.push_back(Action{Action::Kind::SetPlayer, c, kPass});
    return *this;
  }
};

Color at(const Board& b, const char* name) { return b.at(pt(b.size(), name)); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The ko shape of test_board: black F5 (move 9) takes white E5 as a ko.
GameBuilder ko_game() {
  GameBuilder g(9);
  g.moves({"B E6", "W F6", "B D5", "W G5", "B E4", "W F4", "B A9", "W E5", "B F5"});
  return g;
}

}  // namespace

TEST_CASE("a legal game replays to the end") {
  // Black captures white A1 in the corner at move 4.
  GameBuilder g(9);
  g.moves({"B A2", "W A1", "B E5", "W D4", "B B1"});
  Board board;
  ReplayResult r;
  Status st = replay(g.game, &board, &r);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(board.size() == 9);
  CHECK(r.moves_played == 5);
  CHECK(r.to_move == W);
  CHECK(r.superko_repeats == 0);
  CHECK(at(board, "A1") == E);
  CHECK(at(board, "A2") == B);
  CHECK(at(board, "B1") == B);
  CHECK(at(board, "D4") == W);
  CHECK(board.stone_count(B) == 3);
  CHECK(board.stone_count(W) == 1);
  CHECK(board.captures(B) == 1);
}

TEST_CASE("replay resizes the board to the game's size") {
  for (int size : {2, 7, 13, 19, 25}) {
    GameBuilder g(size);
    g.moves({"B A1"});
    Board board(9);
    ReplayResult r;
    REQUIRE(replay(g.game, &board, &r).ok());
    CHECK(board.size() == size);
    CHECK(board.at(Point{0, int8_t(size - 1)}) == B);
  }
}

TEST_CASE("a move on an occupied point is rejected with its number and reason") {
  GameBuilder g(9);
  g.moves({"B C3", "W D4", "B C3", "W E5"});
  Board board;
  ReplayResult r;
  Status st = replay(g.game, &board, &r);
  REQUIRE_FALSE(st.ok());
  INFO(st.message());
  CHECK(contains(st.message(), "move 3"));
  CHECK(contains(st.message(), "B C3"));
  CHECK(contains(st.message(), "occupied"));
  // The same, typed: callers decide by these, never by the text.
  CHECK(st.is_invalid_input());
  CHECK(r.illegal == MoveError::Occupied);
  CHECK(r.illegal_number == 3);
  CHECK(r.illegal_color == B);
  CHECK(r.illegal_point == pt(9, "C3"));
  // The board is as it was before move 3.
  CHECK(board.stone_count(B) == 1);
  CHECK(board.stone_count(W) == 1);
  CHECK(at(board, "E5") == E);
}

TEST_CASE("a suicide is rejected unless the rules allow it") {
  // White A2 and B1 surround the corner; black A1 is suicide at move 5.
  GameBuilder g(9);
  g.moves({"B E5", "W A2", "B E6", "W B1", "B A1", "W J9"});
  Board board;
  ReplayResult r;

  SUBCASE("default rules: rejected") {
    Status st = replay(g.game, &board, &r);
    REQUIRE_FALSE(st.ok());
    INFO(st.message());
    CHECK(contains(st.message(), "move 5"));
    CHECK(contains(st.message(), "B A1"));
    CHECK(contains(st.message(), "suicide"));
    CHECK(st.is_invalid_input());
    CHECK(r.illegal == MoveError::Suicide);
    CHECK(r.illegal_number == 5);
    CHECK(at(board, "A1") == E);
    CHECK(board.stone_count(B) == 2);
  }
  SUBCASE("Japanese rules: rejected") {
    g.game.info.rules = "Japanese";
    CHECK_FALSE(replay(g.game, &board, &r).ok());
  }
  SUBCASE("NZ rules: allowed, the stone is removed") {
    g.game.info.rules = "NZ";
    Status st = replay(g.game, &board, &r);
    REQUIRE_MESSAGE(st.ok(), st.message());
    CHECK(r.moves_played == 6);
    CHECK(r.illegal == MoveError::None);
    CHECK(at(board, "A1") == E);
    CHECK(at(board, "J9") == W);
    CHECK(board.stone_count(B) == 2);
    CHECK(board.stone_count(W) == 3);
    CHECK(board.liberties(pt(9, "A2")) == 3);  // A1 A3 B2
  }
}

TEST_CASE("a multi-stone suicide under NZ rules removes the chain") {
  // Black A1 B1, white A2 B2 C2 D1: black C1 kills its own three stones.
  GameBuilder g(9, "NZ");
  g.moves({"B A1", "W A2", "B B1", "W B2", "B J9", "W C2", "B J8", "W D1", "B C1"});
  Board board;
  ReplayResult r;
  Status st = replay(g.game, &board, &r);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(at(board, "A1") == E);
  CHECK(at(board, "B1") == E);
  CHECK(at(board, "C1") == E);
  CHECK(board.stone_count(B) == 2);
  CHECK(board.liberties(pt(9, "A2")) == 7);
}

TEST_CASE("an immediate ko recapture is rejected") {
  GameBuilder g = ko_game();
  g.moves({"W E5"});  // move 10
  Board board;
  ReplayResult r;
  Status st = replay(g.game, &board, &r);
  REQUIRE_FALSE(st.ok());
  INFO(st.message());
  CHECK(contains(st.message(), "move 10"));
  CHECK(contains(st.message(), "W E5"));
  CHECK(contains(st.message(), "ko"));
  CHECK(r.illegal == MoveError::Ko);
  CHECK(r.illegal_color == W);
  CHECK(at(board, "F5") == B);
  CHECK(at(board, "E5") == E);
}

TEST_CASE("passes: counted as moves, and they clear the ko") {
  GameBuilder g = ko_game();
  g.moves({"W pass", "B pass", "W E5"});  // the retake is legal now
  Board board;
  ReplayResult r;
  Status st = replay(g.game, &board, &r);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(r.moves_played == 12);
  CHECK(r.to_move == B);
  CHECK(at(board, "E5") == W);
  CHECK(at(board, "F5") == E);
  // White's retake recreates the position after move 8.
  CHECK(r.superko_repeats == 1);
}

TEST_CASE("a game of passes only") {
  GameBuilder g(19);
  g.moves({"B pass", "W pass"});
  Board board;
  ReplayResult r;
  REQUIRE(replay(g.game, &board, &r).ok());
  CHECK(r.moves_played == 2);
  CHECK(r.to_move == B);
  CHECK(board.stone_count(B) + board.stone_count(W) == 0);
}

TEST_CASE("max_moves stops early with the right player to move") {
  GameBuilder g(9);
  g.moves({"B C3", "W D4", "B E5", "W F6", "B G7"});
  Board board;
  ReplayResult r;

  SUBCASE("after 3 moves: white to move") {
    REQUIRE(replay(g.game, &board, &r, nullptr, 3).ok());
    CHECK(r.moves_played == 3);
    CHECK(r.to_move == W);
    CHECK(at(board, "E5") == B);
    CHECK(at(board, "F6") == E);
    CHECK(board.stone_count(B) + board.stone_count(W) == 3);
  }
  SUBCASE("after 0 moves: empty board, black to move") {
    REQUIRE(replay(g.game, &board, &r, nullptr, 0).ok());
    CHECK(r.moves_played == 0);
    CHECK(r.to_move == B);
    CHECK(board.stone_count(B) == 0);
  }
  SUBCASE("the record, not alternation, says who moves next") {
    g.game.actions[3].color = B;  // black plays twice: C3 D4(W) E5 F6(B)
    REQUIRE(replay(g.game, &board, &r, nullptr, 3).ok());
    CHECK(r.to_move == B);
  }
  SUBCASE("more than the game has: all moves") {
    REQUIRE(replay(g.game, &board, &r, nullptr, 100).ok());
    CHECK(r.moves_played == 5);
    CHECK(r.to_move == W);
  }
  SUBCASE("an illegal move after the limit is not reached") {
    g.moves({"W C3"});  // occupied, move 6
    CHECK(replay(g.game, &board, &r, nullptr, 5).ok());
    CHECK_FALSE(replay(g.game, &board, &r, nullptr, 6).ok());
  }
}

TEST_CASE("setup actions") {
  SUBCASE("handicap stones, then white moves first") {
    GameBuilder g(19);
    g.game.info.handicap = 2;
    g.setup(B, {"D4", "Q16"});
    Board board;
    ReplayResult r;
    REQUIRE(replay(g.game, &board, &r).ok());
    CHECK(r.moves_played == 0);
    CHECK(r.to_move == W);
    CHECK(at(board, "D4") == B);
    CHECK(at(board, "Q16") == B);
    g.moves({"W Q4"});
    REQUIRE(replay(g.game, &board, &r).ok());
    CHECK(r.moves_played == 1);
    CHECK(r.to_move == B);
  }
  SUBCASE("setup stones do not capture, moves after them do") {
    // White E5 set up inside three black stones; black E4 then captures it.
    GameBuilder g(9);
    g.setup(B, {"E6", "D5", "F5"}).setup(W, {"E5"});
    g.moves({"B E4"});
    Board board;
    ReplayResult r;
    REQUIRE(replay(g.game, &board, &r).ok());
    CHECK(at(board, "E5") == E);
    CHECK(board.captures(B) == 1);
    CHECK(r.to_move == W);
  }
  SUBCASE("AE clears a point in the middle of the game") {
    GameBuilder g(9);
    g.moves({"B C3", "W D4"});
    g.setup(E, {"C3"});
    g.moves({"B C3"});  // legal again
    Board board;
    ReplayResult r;
    Status st = replay(g.game, &board, &r);
    REQUIRE_MESSAGE(st.ok(), st.message());
    CHECK(at(board, "C3") == B);
    CHECK(board.stone_count(B) == 1);
  }
  SUBCASE("PL decides who moves next") {
    GameBuilder g(9);
    g.setup(B, {"C3"}).player(W);
    Board board;
    ReplayResult r;
    REQUIRE(replay(g.game, &board, &r).ok());
    CHECK(r.to_move == W);
  }
}

TEST_CASE("the observer sees every move in order") {
  struct Recorder : ReplayObserver {
    std::vector<int> numbers;
    std::vector<Color> movers;
    int changes = 0;
    int removed_seen = 0;
    void before_move(const Board&, Color mover, Point, int number) override {
      numbers.push_back(number);
      movers.push_back(mover);
    }
    void after_change(const Board& b, int, Color) override {
      ++changes;
      removed_seen += int(b.last_removed().size());
    }
  } rec;
  GameBuilder g(9);
  g.setup(B, {"A2"});
  g.moves({"W A1", "B pass", "W E5", "B B1"});  // B1 captures A1
  Board board;
  ReplayResult r;
  REQUIRE(replay(g.game, &board, &r, &rec).ok());
  CHECK(rec.numbers == std::vector<int>{1, 2, 3, 4});
  CHECK(rec.movers == std::vector<Color>{W, B, W, B});
  CHECK(rec.changes == 4);  // the setup stone and 3 stones played (no pass)
  CHECK(rec.removed_seen == 1);
}

TEST_CASE("the sample games in data/ (GNU Go self-play) replay legally") {
  // scripts/make-sample-data.sh writes one game per line.
  for (const char* file : {"data/gnugo-9x9.sgf", "data/gnugo-19x19.sgf"}) {
    CAPTURE(file);
    std::ifstream in(std::string(SGFPAT_SOURCE_DIR) + "/" + file);
    REQUIRE_MESSAGE(in.good(), "missing; regenerate with scripts/make-sample-data.sh");
    const int size = std::string(file).find("9x9") != std::string::npos ? 9 : 19;
    int games = 0;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      ++games;
      CAPTURE(games);
      Game game;
      Status ps = parse_game(line, &game);
      REQUIRE_MESSAGE(ps.ok(), ps.message());
      CHECK(game.info.size == size);
      CHECK(game.info.black_name == "GNU Go");
      CHECK(game.info.white_name == "GNU Go");
      CHECK_FALSE(game.info.result.empty());
      CHECK(game.move_count() > 10);
      Board board;
      ReplayResult r;
      Status st = replay(game, &board, &r);
      CHECK_MESSAGE(st.ok(), st.message());
      CHECK(r.moves_played == game.move_count());
    }
    CHECK(games >= (size == 9 ? 15 : 8));
  }
}

// The position dialogue of `sgfpat suggest` (board/position_dialogue.h): the
// answers asked for what the command line left out, the transcript, and an
// InvalidInput naming each kind of bad or missing answer.
#include <doctest/doctest.h>

#include <sstream>

#include "board/position_dialogue.h"

using namespace sgfpat;

namespace {
struct Outcome {
  Status status;
  TextPosition position;
  int64_t budget = -1;
  std::string transcript;
};
Outcome talk(const PositionGiven& given, const std::string& answers, bool echo = false) {
  std::istringstream in(answers);
  std::ostringstream out;
  Outcome o;
  o.status = read_position_dialogue(given, in, out, echo, &o.position, &o.budget);
  o.transcript = out.str();
  return o;
}
}  // namespace

TEST_CASE("split_board_rows: '/', '|' and newlines; trimmed; empty rows dropped") {
  CHECK(split_board_rows("..X/.O./...") == std::vector<std::string>{"..X", ".O.", "..."});
  CHECK(split_board_rows(" . . . | . B . |\n. . .\n") == std::vector<std::string>{". . .", ". B .", ". . ."});
  CHECK(split_board_rows("").empty());
}

TEST_CASE("read_position_dialogue: everything asked, in order, prompts pasted with the answers") {
  PositionGiven given;
  given.budget_wanted = true;
  Outcome o = talk(given, "Joueur? Noir\n\nTaille? 3\nGoban: . . .\n. B .\n. . .\nBudget d'itérations? 500\n", true);
  REQUIRE(o.status.ok());
  CHECK(o.position.to_move == Color::Black);
  CHECK(o.position.french);
  CHECK(o.position.board.size() == 3);
  CHECK(o.position.board.at(Point{1, 1}) == Color::White);  // B is blanc after Noir
  CHECK(o.budget == 500);
  CHECK(o.transcript == "Joueur? Noir\nTaille? 3\nGoban: . . .\n       . B .\n       . . .\nBudget d'itérations? 500\n");
  // Without echo only the prompts.
  o = talk(given, "Noir\n3\n...\n.B.\n...\n500\n");
  REQUIRE(o.status.ok());
  CHECK(o.transcript == "Joueur? Taille? Goban: " + std::string(14, ' ') + "Budget d'itérations? ");
}

TEST_CASE("read_position_dialogue: what is given is not asked; the budget only when wanted") {
  PositionGiven given;
  given.player = "W";
  given.rows = "X..|...|..O";
  Outcome o = talk(given, "");
  REQUIRE(o.status.ok());
  CHECK(o.transcript.empty());
  CHECK(o.position.to_move == Color::White);
  CHECK(o.position.board.at(Point{0, 0}) == Color::Black);
  CHECK(o.position.board.at(Point{2, 2}) == Color::White);
  CHECK(o.budget == -1);  // not wanted: untouched
  given.budget_wanted = true;
  given.budget = 42;
  o = talk(given, "");
  REQUIRE(o.status.ok());
  CHECK(o.budget == 42);
  // A size with rows given must agree with them.
  given.size = 4;
  o = talk(given, "");
  CHECK(o.status.is_invalid_input());
  CHECK(o.status.message() == "expected 4 rows, got 3");
  // A size given, rows asked.
  PositionGiven sized;
  sized.player = "B";
  sized.size = 2;
  o = talk(sized, "X.\n.O\n");
  REQUIRE(o.status.ok());
  CHECK(o.transcript == "Goban: " + std::string(7, ' '));
}

TEST_CASE("read_position_dialogue: each missing or bad answer is InvalidInput naming it") {
  PositionGiven given;
  given.budget_wanted = true;
  auto refused = [&](const std::string& answers) {
    Outcome o = talk(given, answers);
    CHECK(o.status.is_invalid_input());
    return o.status.message();
  };
  CHECK(refused("") == "no player to move on stdin");
  CHECK(refused("Vert\n") == "'Vert' is not a player (Noir, Blanc, B or W)");
  CHECK(refused("B\n") == "expected a board size");
  CHECK(refused("B\nthree\n") == "expected a board size");
  CHECK(refused("B\n1\n") == "board size 1 is not from 2 to 25");
  CHECK(refused("B\n26\n") == "board size 26 is not from 2 to 25");
  CHECK(refused("B\n3\n...\n...\n") == "expected 3 rows, got 2");
  CHECK(refused("B\n3\n...\n...\n...\n") == "expected a positive iteration budget");
  CHECK(refused("B\n3\n...\n...\n...\n0\n") == "expected a positive iteration budget");
  CHECK(refused("B\n3\n...\n.Z.\n...\n10\n").find("row 2") != std::string::npos);
}

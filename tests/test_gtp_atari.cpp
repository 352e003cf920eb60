// The GTP engine under atari-go rules (gtp --rules atari): games of the
// engine against itself end with the winner the retrograde table gives the
// empty board, in the table's optimal number of moves when it plays from
// the table; the end of the game, board sizes and suicide follow the rules.
#include <doctest/doctest.h>

#include <string>

#include "gtp/engine.h"
#include "solve/retrograde.h"
#include "solve/table_store.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {

gtp::EngineOptions atari_options(const solve::TableReader* table) {
  gtp::EngineOptions o;
  o.rules = gtp::Rules::Atari;
  o.atari.search.seconds = 5;
  o.atari.search.table_mb = 8;
  o.atari.table = table;
  return o;
}

std::string answer(gtp::Engine& e, const std::string& command) {
  std::string out;
  e.handle(command, &out);
  return out.substr(0, out.find("\n\n"));
}

struct GameEnd {
  int moves = 0;             // stones played
  std::string last_answer;   // "= resign" from the loser
  std::string final_score;
};

// Self-play until a player resigns (after the capture that ended the game).
GameEnd self_play(gtp::Engine& e, int size) {
  REQUIRE(answer(e, "boardsize " + std::to_string(size)) == "=");
  REQUIRE(answer(e, "clear_board") == "=");
  GameEnd end;
  const char* colours[] = {"b", "w"};
  for (int ply = 0; ply < size * size + 2; ++ply) {
    std::string a = answer(e, std::string("genmove ") + colours[ply % 2]);
    if (a == "= resign") {
      end.last_answer = std::string(colours[ply % 2]) + " resigns";
      break;
    }
    REQUIRE(a.size() > 2);
    ++end.moves;
  }
  end.final_score = answer(e, "final_score");
  return end;
}

}  // namespace

TEST_CASE("atari-go self-play from the table ends as the table says, in its optimal length") {
  TempDir dir("sgfpat-gtp-atari");
  for (int n : {3, 4}) {
    solve::RetroTable t;
    REQUIRE(solve::RetroTable::build(n, n, &t).ok());
    solve::TableSummary sum;
    const std::string db = dir / ("t" + std::to_string(n));
    REQUIRE(solve::write_table(db, t, &sum).ok());
    solve::TableReader reader;
    REQUIRE(reader.open(db).ok());
    solve::TableValue empty;
    REQUIRE(t.lookup(solve::Position{}, &empty));

    gtp::Engine e(nullptr, atari_options(&reader));
    GameEnd end = self_play(e, n);
    INFO(n << "x" << n << ": " << end.moves << " moves, " << end.last_answer << ", " << end.final_score);
    const std::string winner = empty.win ? "B" : "W";
    CHECK(end.final_score == "= " + winner + "+R");
    CHECK(end.last_answer == (empty.win ? "w resigns" : "b resigns"));
    CHECK(end.moves == empty.distance);  // both sides perfect: exactly the table's distance
    // After the capture the game is over: no more stones.
    CHECK(answer(e, "play b a1").rfind("?", 0) == 0);
  }
}

TEST_CASE("atari-go without a table: the proving search wins the won 4x4 side") {
  solve::RetroTable t;
  REQUIRE(solve::RetroTable::build(4, 4, &t).ok());
  solve::TableValue empty;
  REQUIRE(t.lookup(solve::Position{}, &empty));
  gtp::Engine e(nullptr, atari_options(nullptr));
  GameEnd end = self_play(e, 4);
  INFO(end.moves << " moves, " << end.last_answer << ", " << end.final_score);
  CHECK(end.final_score == std::string("= ") + (empty.win ? "B" : "W") + "+R");
}

TEST_CASE("atari-go rules in the engine: board sizes, suicide, undo after the capture") {
  gtp::Engine e(nullptr, atari_options(nullptr));
  CHECK(answer(e, "boardsize 10").rfind("? unacceptable size", 0) == 0);
  CHECK(answer(e, "boardsize 5") == "=");
  // A white stone in atari at A5 (the corner): Black captures, the game ends.
  for (const char* cmd : {"play w a5", "play b b5", "play w e1"}) CHECK(answer(e, cmd) == "=");
  CHECK(answer(e, "play b a4") == "=");  // captures A5: Black wins
  CHECK(answer(e, "final_score") == "= B+R");
  CHECK(answer(e, "genmove w") == "= resign");
  CHECK(answer(e, "genmove b") == "= pass");
  CHECK(answer(e, "play w c3").rfind("?", 0) == 0);
  CHECK(answer(e, "undo") == "=");  // takes the capture back: the game goes on
  CHECK(answer(e, "final_score") == "= 0");
  CHECK(answer(e, "play w a4") == "=");  // White saves it instead (A5-A4: one chain, liberty A3)
  CHECK(answer(e, "play b c1") == "=");
  CHECK(answer(e, "clear_board") == "=");
  // Suicide: Black at A1 with White on A2 and B1 captures nothing.
  for (const char* cmd : {"play w a2", "play w b1"}) CHECK(answer(e, cmd) == "=");
  CHECK(answer(e, "play b a1").rfind("? illegal move", 0) == 0);
}

TEST_CASE("sgfpat suggest --rules atari takes the capture and says why") {
  TempDir dir("sgfpat-suggest-atari");
  testutil::RunResult r = testutil::run_cli(
      {"suggest", "--rules", "atari", "--player", "B", "--board", "XO./XX./...", "--json"}, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["move"] == "C3");
  CHECK(j["verdict"] == "win");
  CHECK(j["source"] == "capture");
  // Boards past 9x9 are not atari-go boards here: a clear error, bad input.
  r = testutil::run_cli({"suggest", "--rules", "atari", "--player", "B", "--size", "10", "--board",
                         "........../........../........../........../........../........../........../"
                         "........../........../.........."},
                        dir.path());
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("9x9") != std::string::npos);
}

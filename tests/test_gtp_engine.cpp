// The GTP engine of lib/gtp through transcripts: commands in, responses
// out.  The pass policy (a won game is never passed away, a lost one is
// never passed into), clocks, scoring with dead stones, loadsgf, the
// GoGui analyze commands.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "gtp/engine.h"

using namespace sgfpat;

namespace {

gtp::EngineOptions engine_options(int64_t playouts) {
  gtp::EngineOptions o;
  o.search.iterations = playouts;
  o.search.skip_own_eyes = true;
  o.search.reuse_tree = true;
  o.search.expand_visits = 2;
  o.score_playouts = 1000;
  return o;
}

// Feeds `commands` (one per line) and returns the whole transcript.
std::string session(gtp::Engine& e, const std::string& commands) {
  std::string out;
  size_t start = 0;
  while (start < commands.size()) {
    size_t end = commands.find('\n', start);
    if (end == std::string::npos) end = commands.size();
    e.handle(commands.substr(start, end - start), &out);
    start = end + 1;
  }
  return out;
}

// The 5x5 position of the endgame tests: Black owns columns A-B, White
// D-E, column C is `middle` (top row first), komi 0.5.
std::string setup_5x5(const std::string& middle) {
  std::string s = "boardsize 5\nclear_board\nkomi 0.5\n";
  const char* rows[5] = {"5", "4", "3", "2", "1"};
  for (int r = 0; r < 5; ++r) {
    s += std::string("play B B") + rows[r] + "\nplay W D" + rows[r] + "\n";
    if (r % 2 == 1) s += std::string("play B A") + rows[r] + "\nplay W E" + rows[r] + "\n";
    if (middle[size_t(r)] == 'X') s += std::string("play B C") + rows[r] + "\n";
    if (middle[size_t(r)] == 'O') s += std::string("play W C") + rows[r] + "\n";
  }
  return s;
}

// GTP commands that set up a diagram (rows top first, X black, O white)
// on a fresh board, stone by stone in row order.
std::string diagram_commands(const std::vector<std::string>& rows) {
  const int n = int(rows.size());
  std::string s = "boardsize " + std::to_string(n) + "\nclear_board\n";
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const char ch = rows[size_t(r)][size_t(c)];
      if (ch == '.') continue;
      s += std::string("play ") + (ch == 'X' ? "B " : "W ") + "ABCDEFGHJ"[c] + std::to_string(n - r) + "\n";
    }
  return s;
}

}  // namespace

TEST_CASE("gtp: a seki's shared liberties are never filled; its points are nobody's") {
  // The black stone B5 and the white chain A4-D4-D5 share their only
  // liberties A5 and C5: whoever fills one is captured.  Black's wall has
  // two eyes.  Black 18, White 5, komi 7.5.
  const std::string setup = diagram_commands({
      ".X.OX",
      "OOOOX",
      "XXXXX",
      "X.X.X",
      "XXXXX",
  }) + "komi 7.5\n";
  gtp::Engine e(nullptr, engine_options(1000));
  std::string out = session(e, setup + "1 genmove B");
  CHECK(out.find("=1 pass\n\n") != std::string::npos);
  gtp::EngineOptions never_resign = engine_options(1000);
  never_resign.resign_threshold = 0;  // White is lost: it would rather resign
  gtp::Engine w(nullptr, never_resign);
  out = session(w, setup + "2 genmove W\n3 final_score\n4 final_status_list dead");
  CHECK(out.find("=2 pass\n\n") != std::string::npos);
  CHECK(out.find("=3 B+5.5\n\n") != std::string::npos);
  CHECK(out.find("=4\n\n") != std::string::npos);
}

TEST_CASE("gtp: the commands a controller expects are known") {
  gtp::Engine e(nullptr, engine_options(100));
  std::string out = session(e, "list_commands");
  for (const char* c : {"time_settings", "time_left", "kgs-genmove_cleanup", "final_score", "final_status_list",
                        "loadsgf", "gogui-analyze_commands", "genmove", "undo"})
    CHECK(out.find(std::string("\n") + c) != std::string::npos);
  CHECK(session(e, "1 known_command final_status_list") == "=1 true\n\n");
  CHECK(session(e, "2 known_command fly") == "=2 false\n\n");
  CHECK(session(e, "3 frobnicate") == "?3 unknown command\n\n");
  CHECK(session(e, "4 time_settings 1 x 0") == "?4 syntax error\n\n");
}

TEST_CASE("gtp: a won endgame is not passed away, a lost one is not passed into") {
  // Column C empty: Black 10 points, White 10, komi 0.5: Black is behind
  // by half a point and must play a dame point even after White's pass.
  gtp::Engine behind(nullptr, engine_options(1500));
  std::string out = session(behind, setup_5x5(".....") + "play W pass\n10 genmove B");
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("=10 ([A-Z]+[0-9]+|pass)\n\n")));
  CHECK(m[1].str()[0] == 'C');
  // Column C X X X O O: Black 13, White 12: Black wins by 0.5; after
  // White's pass Black passes, and final_score agrees.
  gtp::Engine ahead(nullptr, engine_options(1500));
  out = session(ahead, setup_5x5("XXXOO") + "play W pass\n11 genmove B\n12 final_score");
  CHECK(out.find("=11 pass\n\n") != std::string::npos);
  CHECK(out.find("=12 B+0.5\n\n") != std::string::npos);
  // Without White's pass, Black does not pass first when something is
  // still to gain: a dame point is left.
  gtp::Engine open(nullptr, engine_options(1500));
  out = session(open, setup_5x5("XX.OO") + "13 genmove B");
  CHECK(out.find("=13 C3\n\n") != std::string::npos);
}

TEST_CASE("gtp: a lost game with only self-ataris left is resigned, not passed (match9-l10 game 40)") {
  // The end of a match game lost B+73.5 by sgfpat as White: every White
  // chain is dead (the left group has one eye and two liberties, the
  // centre and right groups lost their races), and every White move left
  // puts a chain of several stones in atari.  The search gave the best of
  // them 10-15% (the exploration of Black's forced blunders); the engine
  // turned it into a pass and lost by the whole board.
  const std::string setup = diagram_commands({
      "..OXXX.O.",
      "OOOOXOOXX",
      "OXXOXXX.X",
      "OOXXOOXXO",
      "OXXXOXOO.",
      "OOXOOXXO.",
      "XXXXOXXOX",
      "O.X.OXXX.",
      ".XO.OOX.X",
  }) + "komi 7.5\n";
  gtp::Engine e(nullptr, engine_options(3000));
  std::string out = session(e, setup + "1 final_score\n2 genmove W");
  CHECK(out.find("=1 B+73.5\n\n") != std::string::npos);
  CHECK(out.find("=2 resign\n\n") != std::string::npos);
}

TEST_CASE("gtp: dead stones are settled by playouts (final_score, final_status_list)") {
  // A lone white stone C3 inside Black's area of a 5x5 board: dead.
  gtp::Engine e(nullptr, engine_options(500));
  std::string out = session(e,
                            "boardsize 5\nkomi 0.5\n"
                            "play B B4\nplay W C3\nplay B D4\nplay W pass\nplay B B2\nplay W pass\nplay B D2\n"
                            "1 final_status_list dead\n2 final_status_list alive\n3 final_score\n"
                            "4 final_status_list seki");
  CHECK(out.find("=1 C3\n\n") != std::string::npos);
  CHECK(out.find("=2 B4\nD4\nB2\nD2\n\n") != std::string::npos);
  CHECK(out.find("=3 B+24.5\n\n") != std::string::npos);
  CHECK(out.find("=4\n\n") != std::string::npos);
  // kgs-genmove_cleanup takes the dead stone rather than passing.
  out = session(e, "play W pass\n5 kgs-genmove_cleanup B");
  CHECK(out.find("=5 pass") == std::string::npos);
}

TEST_CASE("gtp: clocks give each move a time budget") {
  gtp::Engine e(nullptr, engine_options(100000000));
  CHECK(e.time_budget(Color::Black) == 0);  // no clock: playouts only
  std::string out = session(e, "boardsize 9\ntime_settings 30 0 0\n");
  const double fresh = e.time_budget(Color::Black);
  CHECK(fresh > 0.2);
  CHECK(fresh < 30.0 / 10);
  session(e, "time_left black 5 0");
  CHECK(e.time_budget(Color::Black) < fresh);
  session(e, "time_left white 20 4");  // byo-yomi: 4 stones in 20 s
  CHECK(e.time_budget(Color::White) == doctest::Approx(20.0 / 4 - 0.5));
  // A genmove under a 1 s budget with an unbounded playout cap returns.
  session(e, "time_settings 0 1 1");
  out = session(e, "7 genmove b");
  CHECK(std::regex_search(out, std::regex("=7 [A-HJ][1-9]\n\n")));
  CHECK(session(e, "time_settings 0 0 0") == "=\n\n");
  CHECK(e.time_budget(Color::Black) == 0);  // 0 0 0: no time limit
}

TEST_CASE("gtp: loadsgf sets up the position up to a move") {
  char path[] = "/tmp/sgfpat-gtp-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::ofstream(path) << "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[ce];B[gc];W[cg])";
  gtp::Engine e(nullptr, engine_options(100));
  CHECK(session(e, std::string("1 loadsgf ") + path + " 3") == "=1\n\n");
  CHECK(e.board().size() == 9);
  CHECK(e.komi() == 6.5);
  CHECK(e.board().at(Point{4, 4}) == Color::Black);
  CHECK(e.board().at(Point{2, 4}) == Color::White);
  CHECK(e.board().at(Point{6, 2}) == Color::Empty);  // move 3 not played
  CHECK(session(e, std::string("2 loadsgf ") + path) == "=2\n\n");
  CHECK(e.board().at(Point{2, 6}) == Color::White);
  CHECK(session(e, "3 undo") == "=3\n\n");
  CHECK(e.board().at(Point{2, 6}) == Color::Empty);
  std::string out = session(e, "4 loadsgf /nonexistent/x.sgf");
  CHECK(out.find("?4 cannot open /nonexistent/x.sgf") == 0);
  ::unlink(path);
}

TEST_CASE("gtp: the game kept is bounded: moves past max_moves are refused, undo still works") {
  gtp::Engine e(nullptr, engine_options(100));
  const int limit = gtp::EngineOptions{}.max_moves;
  REQUIRE(limit == 10000);
  std::string passes;
  for (int i = 0; i < limit; ++i) passes += i % 2 ? "play W pass\n" : "play B pass\n";
  const std::string out = session(e, "boardsize 9\n" + passes);
  CHECK(out.find('?') == std::string::npos);
  CHECK(session(e, "1 play B pass") == "?1 game too long (at most 10000 moves)\n\n");
  CHECK(session(e, "2 genmove B") == "?2 game too long (at most 10000 moves)\n\n");
  CHECK(session(e, "3 undo\n4 play W E5") == "=3\n\n=4\n\n");
  CHECK(e.board().at(Point{4, 4}) == Color::White);
  CHECK(session(e, "5 play B D5") == "?5 game too long (at most 10000 moves)\n\n");
  CHECK(session(e, "6 clear_board\n7 play B D5") == "=6\n\n=7\n\n");
}

TEST_CASE("gtp: loadsgf refuses a game longer than max_moves at once, and devices") {
  char path[] = "/tmp/sgfpat-gtp-long-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  {
    std::ofstream f(path);
    f << "(;GM[1]SZ[9]";
    for (int i = 0; i < 5001; ++i) f << ";B[];W[]";
    f << ")";
  }
  gtp::Engine e(nullptr, engine_options(100));
  CHECK(session(e, "boardsize 13\nplay B C3") == "=\n\n=\n\n");
  CHECK(session(e, std::string("1 loadsgf ") + path) == "?1 game too long (10002 moves; at most 10000)\n\n");
  CHECK(e.board().size() == 13);  // the game before is kept
  CHECK(e.board().at(Point{2, 10}) == Color::Black);
  CHECK(session(e, std::string("2 loadsgf ") + path + " 9000") == "=2\n\n");  // its first 8999 moves fit
  CHECK(e.board().size() == 9);
  CHECK(session(e, "3 loadsgf /dev/zero") == "?3 cannot open /dev/zero: is a device, not a file or a pipe\n\n");
  ::unlink(path);
}

TEST_CASE("gtp: undo replays the game: captures, ko and setup stones come back") {
  char path[] = "/tmp/sgfpat-gtp-undo-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  // Setup stones, then moves.
  std::ofstream(path) << "(;GM[1]SZ[5]AB[ab][ba]AW[cb];B[cc];W[bb];B[cd];W[ac];B[bc])";
  gtp::Engine e(nullptr, engine_options(100));
  REQUIRE(session(e, std::string("loadsgf ") + path) == "=\n\n");
  const auto at = [&](int x, int y) { return e.board().at(Point{int8_t(x), int8_t(y)}); };
  CHECK(at(0, 1) == Color::Black);  // setup
  CHECK(at(1, 2) == Color::Black);
  CHECK(at(0, 2) == Color::White);
  CHECK(session(e, "undo") == "=\n\n");  // B[bc] undone
  CHECK(at(1, 2) == Color::Empty);
  CHECK(at(0, 1) == Color::Black);
  CHECK(at(1, 1) == Color::White);
  CHECK(session(e, "undo\nundo\nundo\nundo") == "=\n\n=\n\n=\n\n=\n\n");
  CHECK(at(2, 2) == Color::Empty);
  CHECK(at(0, 1) == Color::Black);  // the setup stays
  CHECK(at(1, 0) == Color::Black);
  CHECK(at(2, 1) == Color::White);
  CHECK(session(e, "undo") == "? cannot undo\n\n");
  // A capture undone brings the stone back; the ko is the same again.
  const std::string ok8 = "=\n\n=\n\n=\n\n=\n\n=\n\n=\n\n=\n\n=\n\n";
  CHECK(session(e, "boardsize 5\nclear_board\nplay B B5\nplay W C5\nplay B A4\nplay W D4\nplay B B3\nplay W C3\n"
                   "play W B4\nplay B C4") == "=\n\n=\n\n" + ok8);
  CHECK(at(1, 1) == Color::Empty);  // B C4 took B4
  CHECK(session(e, "play W B4") == "? illegal move\n\n");  // the ko
  CHECK(session(e, "undo") == "=\n\n");
  CHECK(at(1, 1) == Color::White);
  CHECK(at(2, 1) == Color::Empty);
  CHECK(session(e, "play B C4\nplay W B4") == "=\n\n? illegal move\n\n");
  ::unlink(path);
}

TEST_CASE("gtp: GoGui analyze commands draw priors and ownership") {
  gtp::Engine e(nullptr, engine_options(300));
  std::string out = session(e, "1 gogui-analyze_commands");
  CHECK(out.find("gfx/Priors (black)/sgfpat-priors black") != std::string::npos);
  out = session(e, "boardsize 9\n2 sgfpat-priors b");
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("=2 INFLUENCE( [A-J][1-9] [0-9.]+){81}\n\n")));
  CHECK(out.find("E5 1.000") != std::string::npos);  // the centre is among the best
  CHECK(out.find("A1 1.000") == std::string::npos);  // an empty corner is not
  out = session(e, "genmove b\n3 sgfpat-ownership");
  CHECK(std::regex_search(out, std::regex("=3 INFLUENCE( [A-J][1-9] -?[0-9.]+){81}\n\n")));
}

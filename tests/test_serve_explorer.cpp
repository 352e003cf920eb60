// The explorer of `sgfpat serve` on a database an ingest is writing: it
// opens the database read-only, answers every request while the ingest
// runs, and once the ingest is done and its refresh time has passed, shows
// the new counts, the same as `sgfpat query --json` on the finished
// database.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "serve/explorer.h"
#include "sgf/parser.h"
#include "test_util.h"

using namespace sgfpat;
using namespace sgfpat::serve;

namespace {

// `sgfpat query --json` for the point after `move` moves of `sgf`: its levels.
Json query_levels(const std::string& db, const std::string& sgf, int move, const std::string& point,
                  const std::string& scratch) {
  testutil::RunResult r = testutil::run_cli(
      {"query", "--db", db, "--sgf", sgf, "--move", std::to_string(move), "--point", point, "--json"}, scratch);
  INFO("sgfpat query: " << r.err);
  REQUIRE(r.exit_code == 0);
  const Json j = Json::parse(r.out);
  REQUIRE(j.contains("levels"));
  return j["levels"];
}

}  // namespace

TEST_CASE("explorer: it answers while an ingest writes the database, then shows the new counts") {
  testutil::TempDir dir("sgfpat-serve-explorer");
  const std::string db = dir.path() + "/db", first = dir.path() + "/first.sgf", rest = dir.path() + "/rest.sgf",
                    game_file = dir.path() + "/game.sgf";
  const std::vector<std::string> lines = testutil::sample_lines(0, 1000);
  testutil::write_file(first, testutil::join({lines.begin(), lines.begin() + 300}));
  testutil::write_file(rest, testutil::join({lines.begin() + 300, lines.end()}));
  testutil::write_file(game_file, lines[0]);
  testutil::ingest_ok(db, {"--levels", "6", "--threads", "1"}, {first}, dir.path());

  Game line;
  REQUIRE(parse_game(lines[0], &line).ok());
  const int kMove = 20;
  Point next = kPass;
  int plays = 0;
  for (const Action& a : line.actions)
    if (a.kind == Action::Kind::Play && plays++ == kMove) next = a.point;
  REQUIRE(!next.is_pass());
  const std::string point = gtp_name(next, 19);

  ExplorerOptions eo;
  eo.db_path = db;
  eo.refresh_seconds = 1;
  Explorer ex(eo);
  REQUIRE(ex.open().ok());
  Json before;
  REQUIRE(ex.pattern(line, kMove, next, &before).ok());
  CHECK(before["levels"] == query_levels(db, game_file, kMove, point, dir.path()));

  // The rest of the games go in while the explorer answers.
  const pid_t ingest = testutil::spawn(testutil::ingest_args(db, {"--threads", "1"}, {rest}),
                                       dir.path() + "/ingest.out", dir.path() + "/ingest.err");
  int answered = 0, status = 0;
  bool ended = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (!ended && std::chrono::steady_clock::now() < deadline) {
    Json p, s;
    const Status ps = ex.pattern(line, kMove, next, &p);
    const Status ss = ex.similar(line, 4, /*exact=*/true, 10, &s);
    INFO("while the ingest runs: " << ps.message() << " / " << ss.message());
    CHECK(ps.ok());
    CHECK(ss.ok());
    ++answered;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ended = waitpid(ingest, &status, WNOHANG) == ingest;
  }
  if (!ended) testutil::wait_bounded(ingest, &status, 1);
  REQUIRE_MESSAGE(ended, "the ingest did not end within 300 s");
  INFO("ingest: " << testutil::read_file(dir.path() + "/ingest.err"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK(answered > 0);

  // Past the refresh time the explorer reads the finished database.
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  Json after;
  REQUIRE(ex.pattern(line, kMove, next, &after).ok());
  const Json want = query_levels(db, game_file, kMove, point, dir.path());
  CHECK(after["levels"] == want);
  REQUIRE(!want.empty());
  CHECK(want[0]["seen"].get<int64_t>() > before["levels"][0]["seen"].get<int64_t>());
}

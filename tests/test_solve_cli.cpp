// `sgfpat solve` end to end: answers and exit codes of the command, the
// table built into RocksDB and queried, bad input reported.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "solve/retrograde.h"
#include "test_util.h"

using namespace sgfpat;
using namespace sgfpat::solve;
using testutil::run;
using testutil::TempDir;

namespace {
const std::string kBin = SGFPAT_BINARY;

// Runs `sgfpat solve ARGS` with tuning settings (tools/tuning.h): `tuning`
// are the lines of the [solve] section of a configuration file.
testutil::RunResult solve_tuned(const std::vector<std::string>& args, const std::vector<std::string>& tuning,
                                const std::string& scratch) {
  static int serial = 0;
  const std::string config = scratch + "/tuning" + std::to_string(++serial) + ".toml";
  std::string text = "[solve]\n";
  for (const std::string& line : tuning) text += line + "\n";
  testutil::write_file(config, text);
  std::vector<std::string> all = {kBin, "--config", config, "solve"};
  all.insert(all.end(), args.begin(), args.end());
  return run(all, scratch);
}
}

TEST_CASE("solve: JSON answer agrees with the retrograde table, every first move classified") {
  TempDir dir("sgfpat-solve-cli");
  RetroTable t;
  REQUIRE(RetroTable::build(4, 3, &t).ok());
  auto r = run({kBin, "solve", "--size", "4x3", "--all-moves", "--json"}, dir.path());
  REQUIRE(r.exit_code == 0);
  auto j = r.json();
  REQUIRE(j.is_object());
  CHECK(j["size"] == "4x3");
  REQUIRE(j["moves"].size() == 12);
  Geometry g(4, 3);
  // The table's answer for White after Black's first move `name`.
  auto after_first = [&](const std::string& name) {
    int p = -1;
    REQUIRE(g.parse(name, &p));
    Position after;
    after.black = bit(p);
    after.to_move = Color::White;
    TableValue v;
    REQUIRE(t.lookup(after, &v));
    return v;
  };
  for (const auto& m : j["moves"]) {
    const TableValue v = after_first(m["move"].get<std::string>());
    INFO("move ", m["move"].get<std::string>());
    CHECK(m["result"] == (v.win ? "loss" : "win"));  // White's win is Black's loss
  }
  auto one = run({kBin, "solve", "--size", "4x3", "--json"}, dir.path());
  REQUIRE(one.exit_code == 0);
  TableValue root;
  REQUIRE(t.lookup(Position{}, &root));
  CHECK(one.json()["result"] == (root.win ? "win" : "loss"));
  // Without --all-moves a split depth solves the position through its
  // moves: the table's answer again, and a winning move the table confirms.
  // (The last two also with two-move threats on revisits only or off and
  // with short capture searches: the settings that play the fewest moves.)
  for (const char* depth : {"--split-depth=2", "--split-depth=3", "threat2 = \"revisits\"", "threat2 = \"off\""}) {
    std::vector<std::string> args = {"--size", "4x3", "--json"}, tuning;
    if (std::string(depth).rfind("threat2", 0) == 0) {
      tuning = {depth, "capture-plies = 5"};
      args.push_back("--split-depth=2");
    } else {
      args.push_back(depth);
    }
    auto split = solve_tuned(args, tuning, dir.path());
    REQUIRE(split.exit_code == 0);
    auto js = split.json();
    INFO(depth);
    CHECK(js["result"] == (root.win ? "win" : "loss"));
    CHECK(js["proof_size"].get<uint64_t>() > 0);
    REQUIRE(js.contains("move") == root.win);
    if (root.win) CHECK_FALSE(after_first(js["move"].get<std::string>()).win);
  }
}

// line-walk-nodes reaches the searches: walked at every node, the lines of
// --all-moves's searches (which share the table) settle nodes; never
// walked, none.  The answers are the same.
TEST_CASE("solve line-walk-nodes: 1 settles nodes on the main lines, 0 none, the same answers") {
  TempDir dir("sgfpat-solve-cli");
  std::vector<uint64_t> settled;
  std::vector<std::vector<std::string>> answers;
  for (const char* n : {"1", "0"}) {
    auto r = solve_tuned({"--size", "5x4", "--all-moves", "--threads", "1", "--json"},
                         {std::string("line-walk-nodes = ") + n}, dir.path());
    REQUIRE(r.exit_code == 0);
    auto j = r.json();
    settled.push_back(j["stats"]["line_settled"].get<uint64_t>());
    answers.emplace_back();
    for (const auto& m : j["moves"]) answers.back().push_back(m["result"].get<std::string>());
  }
  CHECK(settled[0] > 0);
  CHECK(settled[1] == 0);
  CHECK(answers[0] == answers[1]);
  CHECK(answers[0].size() == 20);
}

TEST_CASE("solve threat2: each mode, named in any case, reaches the search; other names exit 2") {
  TempDir dir("sgfpat-solve-cli");
  std::vector<uint64_t> played;
  for (const char* mode : {"every", "Revisits", "OFF"}) {
    auto r = solve_tuned({"--size", "4x3", "--json"}, {"capture-plies = 5", std::string("threat2 = \"") + mode + "\""},
                         dir.path());
    INFO(mode);
    REQUIRE(r.exit_code == 0);
    played.push_back(r.json()["stats"]["moves_played"].get<uint64_t>());
  }
  // On the empty 4x3 the three modes play different numbers of moves.
  CHECK(played[0] != played[1]);
  CHECK(played[1] != played[2]);
  CHECK(played[0] != played[2]);
  CHECK(solve_tuned({"--size", "4x3"}, {"threat2 = \"never\""}, dir.path()).exit_code == 2);
}

TEST_CASE("solve split-first-nodes, split-growth: each reaches the split's budgets; bad values, and split-deepen-nodes's, exit 2") {
  TempDir dir("sgfpat-solve-cli");
  auto nodes = [&](std::vector<std::string> tuning) {
    auto r = solve_tuned({"--size", "6x4", "--split-depth", "2", "--json"}, tuning, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(r.json()["result"] == "win");  // the same answer whatever the budgets
    return r.json()["stats"]["nodes"].get<uint64_t>();
  };
  // One thread: each setting is one exact search, so a different count
  // means the budgets changed.
  const uint64_t base = nodes({});
  CHECK(nodes({"split-growth = 4"}) == base);
  CHECK(nodes({"split-growth = 2"}) != base);
  CHECK(nodes({"split-first-nodes = 200"}) != base);
  CHECK(solve_tuned({"--size", "4x3"}, {"split-growth = 1"}, dir.path()).exit_code == 2);
  CHECK(solve_tuned({"--size", "4x3"}, {"split-first-nodes = -5"}, dir.path()).exit_code == 2);
  CHECK(solve_tuned({"--size", "4x3"}, {"split-deepen-nodes = -1"}, dir.path()).exit_code == 2);
}

TEST_CASE("solve trace-leaves, split-stick: each search of a line traced; the stickiness reaches the split") {
  TempDir dir("sgfpat-solve-cli");
  // 5x4, two plies split, lines searched from 20 nodes up, doubling.
  auto traced = [&](const std::string& stick) {
    auto r = solve_tuned({"--size", "5x4", "--all-moves", "--split-depth", "2", "--json"},
                         {"split-first-nodes = 20", "split-growth = 2", "split-stick = " + stick, "trace-leaves = true"},
                         dir.path());
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> lines;  // "B3 C2 budget 40" for each search
    std::istringstream in(r.err);
    for (std::string l; std::getline(in, l);)
      if (l.rfind("  leaf ", 0) == 0) lines.push_back(l.substr(7, l.find(':') - 7));
    return lines;
  };
  const auto plain = traced("0"), sticky = traced("100");
  REQUIRE(plain.size() > 10);
  CHECK(plain[0].find("budget 20") != std::string::npos);  // a line's first search, two moves named
  CHECK(std::count(plain[0].begin(), plain[0].end(), ' ') >= 3);
  CHECK(plain != sticky);
  CHECK(solve_tuned({"--size", "4x3"}, {"split-stick = -1"}, dir.path()).exit_code == 2);
}

TEST_CASE("solve init-dn-moves, init-rank-cost, lazy-child-reads: each reaches df-pn; bad values exit 2") {
  TempDir dir("sgfpat-solve-cli");
  auto nodes = [&](std::vector<std::string> tuning) {
    auto r = solve_tuned({"--size", "6x4", "--json"}, tuning, dir.path());
    REQUIRE(r.exit_code == 0);
    CHECK(r.json()["result"] == "win");
    return r.json()["stats"]["nodes"].get<uint64_t>();
  };
  // 6x4 takes over 100,000 nodes, where the floor starts to act.
  const uint64_t base = nodes({});
  CHECK(nodes({"init-dn-moves = 0", "init-rank-cost = 8"}) == base);  // the defaults
  CHECK(nodes({"init-dn-moves = 2"}) != base);
  CHECK(nodes({"init-rank-cost = 1"}) != base);
  CHECK(nodes({"lazy-child-reads = true"}) != base);
  for (const std::string bad : {"101", "-1"})
    CHECK(solve_tuned({"--size", "4x3"}, {"init-dn-moves = " + bad}, dir.path()).exit_code == 2);
  for (const std::string bad : {"1001", "-1"})
    CHECK(solve_tuned({"--size", "4x3"}, {"init-rank-cost = " + bad}, dir.path()).exit_code == 2);
}

// The search's tuning settings are not flags: --help names them in its
// footer only, and the command line refuses them, pointing at the
// configuration file.
TEST_CASE("solve: tuning settings are not in --help's options and are refused on the command line") {
  TempDir dir("sgfpat-solve-cli");
  auto help = run({kBin, "solve", "--help"}, dir.path());
  REQUIRE(help.exit_code == 0);
  for (const char* flag : {"--threat2", "--capture-plies", "--split-stick", "--trace-leaves", "--epsilon"})
    CHECK_MESSAGE(help.out.find(flag) == std::string::npos, flag);
  for (const char* flag : {"--board", "--size", "--time", "--threads", "--table-mb", "--all-moves", "--table", "--json"})
    CHECK_MESSAGE(help.out.find(flag) != std::string::npos, flag);
  CHECK(help.out.find("[solve]") != std::string::npos);
  CHECK(help.out.find("threat2") != std::string::npos);
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"--threat2", "off"}, {"--threat2=off"}, {"--lazy-child-reads"}}) {
    std::vector<std::string> args = {kBin, "solve", "--size", "4x3"};
    args.insert(args.end(), words.begin(), words.end());
    auto r = run(args, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("tuning setting") != std::string::npos);
    CHECK(r.err.find("[solve]") != std::string::npos);
  }
}

TEST_CASE("solve: unknown within the budget exits 4; a bad position exits 3, a bad size 2") {
  TempDir dir("sgfpat-solve-cli");
  auto r = run({kBin, "solve", "--size", "9x9", "--time", "0.2", "--json"}, dir.path());
  CHECK(r.exit_code == 4);
  CHECK(r.json()["result"] == "unknown");
  // How far it got: the root's numbers the stopped search had come to.
  CHECK(r.json()["pn"].get<uint32_t>() + r.json()["dn"].get<uint32_t>() > 2);
  auto bad = run({kBin, "solve", "--board", "XO/O."}, dir.path());
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("without liberties") != std::string::npos);
  auto big = run({kBin, "solve", "--size", "10x10"}, dir.path());
  CHECK(big.exit_code == 2);  // a bad flag value
}

TEST_CASE("solve --moves: only the asked moves searched, --progress lists them; bad lists exit 2") {
  TempDir dir("sgfpat-solve-cli");
  // 4x3: B2 and its three mirror images (B2, C2 are the centre row).
  auto r = run({kBin, "solve", "--size", "4x3", "--all-moves", "--moves", "B2", "--progress", "--json"}, dir.path());
  REQUIRE(r.exit_code == 0);  // not-asked moves leave nothing undecided
  int asked = 0, not_asked = 0;
  const auto j = r.json();
  for (const auto& m : j["moves"]) {
    if (m["reason"] == "not asked") {
      ++not_asked;
      CHECK(m["result"] == "unknown");
    } else {
      ++asked;
      CHECK(m["result"] != "unknown");
    }
  }
  CHECK(asked == 2);  // B2 and its mirror image C2
  CHECK(not_asked == 10);
  CHECK(r.err.find("B2") != std::string::npos);  // the progress line of the one move searched
  CHECK(r.err.find("C2") == std::string::npos);  // its image is not searched again
  CHECK(run({kBin, "solve", "--size", "4x3", "--moves", "B2"}, dir.path()).exit_code == 2);  // needs --all-moves
  auto alone = run({kBin, "solve", "--size", "4x3", "--progress"}, dir.path());  // so does this, rather than being ignored
  CHECK(alone.exit_code == 2);
  CHECK(alone.err.find("--all-moves") != std::string::npos);

  auto bad = run({kBin, "solve", "--size", "4x3", "--all-moves", "--moves", "B2,Z9"}, dir.path());
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("Z9") != std::string::npos);
  auto taken = run({kBin, "solve", "--board", "X.../..../....", "--all-moves", "--moves", "A3"}, dir.path());
  CHECK(taken.exit_code == 2);
  CHECK(taken.err.find("not empty") != std::string::npos);
}

TEST_CASE("solve --table: built into RocksDB once, then queried") {
  TempDir dir("sgfpat-solve-cli");
  std::string db = dir / "tables";
  auto first = run({kBin, "solve", "--table", "--size", "3x3", "--db", db, "--json"}, dir.path());
  REQUIRE(first.exit_code == 0);
  CHECK(first.json()["built"] == true);
  RetroTable t;
  REQUIRE(RetroTable::build(3, 3, &t).ok());
  CHECK(first.json()["positions"] == t.positions());
  // Black in the centre, White on a corner: Black to move.
  auto q = run({kBin, "solve", "--table", "--size", "3x3", "--db", db, "--board", "O../.X./...", "--json"},
               dir.path());
  REQUIRE(q.exit_code == 0);
  CHECK(q.json()["built"] == false);
  Geometry g;
  Position pos;
  REQUIRE(parse_rows("O../.X./...", &g, &pos).ok());
  TableValue v;
  REQUIRE(t.lookup(pos, &v));
  CHECK(q.json()["result"] == (v.win ? "win" : "loss"));
  CHECK(q.json()["distance"] == v.distance);
}

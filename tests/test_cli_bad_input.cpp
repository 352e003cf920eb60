// Bad input, bad flags and bad configuration, as a hostile but realistic
// user meets them: every input that holds no game or cannot be read is
// named, everything readable is still taken in, the run ends with exit code
// 3; truncated compressed files keep the games before the cut; unknown
// configuration keys, NaN and infinite numbers are refused.
//
// SGFPAT_TEST_BINARY=/path/to/sgfpat runs the command-line cases against
// another build (the baseline of main shows which of them it fails).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "sgf/game_stream.h"
#include "test_util.h"

using namespace testutil;

namespace {

bool have_tool(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

void sh(const std::string& cmd) { REQUIRE(std::system(cmd.c_str()) == 0); }

// The first n games of a corpus month, one per line.
std::string corpus_games(size_t n) { return join(sample_lines(0, n)); }

size_t count_of(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("ingest: inputs without a game, missing and unreadable inputs are named; the rest is taken in; exit 3") {
  TempDir dir("sgfpat-badin");
  write_file(dir / "good.sgf", corpus_games(12));
  write_file(dir / "empty.sgf", "");
  write_file(dir / "text.sgf", "hello, this is not a game record\n");
  write_file(dir / "binary.sgf", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\x03\0>\0", 20));
  write_file(dir / "nul.sgf", std::string(64, '\0'));
  write_file(dir / "paren.sgf", "(");
  write_file(dir / "unreadable.sgf", join(sample_lines(20, 1)));
  fs::permissions(dir / "unreadable.sgf", fs::perms::none);
  const bool root_reads_anyway = ::access((dir / "unreadable.sgf").c_str(), R_OK) == 0;

  std::vector<std::string> bad = {"empty.sgf", "text.sgf", "binary.sgf", "nul.sgf", "paren.sgf", "missing.sgf"};
  std::vector<std::string> args = {"ingest", "--db", dir / "db", "--json", dir / "good.sgf"};
  for (const auto& b : bad) args.push_back(dir / b);
  args.push_back(dir / "unreadable.sgf");
  RunResult r = run_cli(args, dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 3);
  for (const auto& b : bad) {
    INFO(b);
    CHECK(r.err.find(dir / b + ": ") != std::string::npos);
  }
  if (!root_reads_anyway) CHECK(r.err.find(dir / "unreadable.sgf: ") != std::string::npos);
  nlohmann::json j = r.json();
  REQUIRE(j.is_object());
  CHECK(j["ingested"].get<uint64_t>() == 12 + (root_reads_anyway ? 1 : 0));
  CHECK(j["games_in_db"].get<uint64_t>() == 12 + (root_reads_anyway ? 1 : 0));
  CHECK(j["input_errors"].get<uint64_t>() >= bad.size());

  // The only input missing, or only inputs without a game: still exit 3.
  RunResult only_missing = run_cli({"ingest", "--db", dir / "db2", dir / "nothing-here.sgf"}, dir.path());
  CHECK(only_missing.exit_code == 3);
  CHECK(only_missing.err.find(dir / "nothing-here.sgf") != std::string::npos);
  RunResult only_empty = run_cli({"ingest", "--db", dir / "db2", dir / "empty.sgf"}, dir.path());
  CHECK(only_empty.exit_code == 3);
  CHECK(only_empty.err.find(dir / "empty.sgf") != std::string::npos);
  // A clean run exits 0.
  RunResult clean = run_cli({"ingest", "--db", dir / "db3", "--quiet", dir / "good.sgf"}, dir.path());
  CHECK(clean.exit_code == 0);
}

TEST_CASE("reader: a truncated .gz, .bz2, .xz or .zst keeps the games before the cut, then reports the cut") {
  TempDir dir("sgfpat-cut");
  const std::vector<std::string> lines = sample_lines(0, 400);
  write_file(dir / "all.sgf", join(lines));
  struct Tool {
    std::string ext, cmd;
  };
  // bzip2 -1: 100 kB blocks, so that whole blocks lie before the cut.
  for (const Tool& t : {Tool{"gz", "gzip -c"}, Tool{"bz2", "bzip2 -1 -c"}, Tool{"xz", "xz -c"}, Tool{"zst", "zstd -q -c"}}) {
    INFO(t.ext);
    // scripts/deps.sh installs every one of them.
    REQUIRE_MESSAGE(have_tool(t.cmd.substr(0, t.cmd.find(' '))), t.cmd << " is not installed (scripts/deps.sh)");
    sh(t.cmd + " " + dir / "all.sgf" + " > " + dir / ("all.sgf." + t.ext));
    const std::string packed = read_file(dir / ("all.sgf." + t.ext));
    const std::string cut = dir / ("cut.sgf." + t.ext);
    write_file(cut, packed.substr(0, packed.size() * 3 / 4));
    sgfpat::GameStream stream({cut});
    sgfpat::Game game;
    sgfpat::Status st;
    size_t games = 0, errors = 0;
    bool prefix = true;
    std::string error;
    while (stream.next(&game, &st)) {
      if (!st.ok()) {
        ++errors;
        error = st.message();
        continue;
      }
      std::string text(stream.text());
      if (games < lines.size() && lines[games].find(text) == std::string::npos) prefix = false;
      ++games;
    }
    CHECK(errors == 1);
    CHECK(error.find("truncated") != std::string::npos);
    CHECK(prefix);
    // Three quarters of the bytes hold about three quarters of the games; the
    // codecs hold back at most a block (bzip2 100 kB, zstd 128 kB) of 550 kB.
    CHECK(games >= lines.size() * 6 / 10);
    CHECK(games < lines.size());
  }
}

TEST_CASE("reader: a damaged tar member header is reported, the other members are read") {
  TempDir dir("sgfpat-tar");
  write_file(dir / "a.sgf", corpus_games(5));
  write_file(dir / "b.sgf", join(sample_lines(5, 5)));
  sh("cd " + dir.path() + " && tar cf t.tar a.sgf b.sgf");
  std::string tar = read_file(dir / "t.tar");
  size_t at = tar.find("b.sgf");
  REQUIRE(at != std::string::npos);
  tar[at + 100] = char(tar[at + 100] ^ 0xff);  // the mode field: the header checksum fails
  write_file(dir / "t.tar", tar);
  RunResult r = run_cli({"ingest", "--db", dir / "db", "--json", dir / "t.tar"}, dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find(dir / "t.tar: ") != std::string::npos);
  nlohmann::json j = r.json();
  REQUIRE(j.is_object());
  CHECK(j["ingested"].get<uint64_t>() >= 5);
}

TEST_CASE("accuracy names the records and inputs it skipped, and exits 3 for an unreadable input") {
  TempDir dir("sgfpat-acc");
  write_file(dir / "train.sgf", corpus_games(30));
  RunResult in = run_cli({"ingest", "--db", dir / "db", "--quiet", dir / "train.sgf"}, dir.path());
  REQUIRE(in.exit_code == 0);
  REQUIRE(run_cli({"export", "--db", dir / "db", "-o", dir / "p.priors"}, dir.path()).exit_code == 0);
  std::string games = join(sample_lines(30, 3));
  write_file(dir / "test.sgf", games + "(;GM[1]SZ[19];B[pd];W[pd])\n(;GM[1]SZ[19];B[zz)\n");
  RunResult r = run_cli({"accuracy", "--priors", dir / "p.priors", "--json", dir / "test.sgf", dir / "gone.sgf"},
                       dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find(dir / "gone.sgf") != std::string::npos);
  CHECK(count_of(r.err, dir / "test.sgf") >= 2);  // the illegal record and the broken one
  nlohmann::json j = r.json();
  REQUIRE(j.is_object());
  CHECK(j["games"].get<uint64_t>() == 3);
  CHECK(j["skipped_games"].get<uint64_t>() == 2);
}

TEST_CASE("config: unknown keys and sections are errors naming them, for --config and $SGFPAT_CONFIG alike") {
  TempDir dir("sgfpat-config");
  write_file(dir / "g.sgf", corpus_games(3));
  write_file(dir / "typo.toml", "[ingest]\nmemroy-mb = 512\n");
  write_file(dir / "section.toml", "[ingset]\nmemory-mb = 512\n");
  write_file(dir / "ok.toml", "[ingest]\nmemory-mb = 600\nsizes = [19]\n");
  for (const std::string& f : {std::string("typo.toml"), std::string("section.toml")}) {
    INFO(f);
    RunResult r = run_cli({"--config", dir / f, "ingest", "--db", dir / "db", dir / "g.sgf"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(f == "typo.toml" ? "memroy-mb" : "ingset") != std::string::npos);
    ::setenv("SGFPAT_CONFIG", (dir / f).c_str(), 1);
    RunResult e = run_cli({"ingest", "--db", dir / "db", dir / "g.sgf"}, dir.path());
    ::unsetenv("SGFPAT_CONFIG");
    CHECK(e.exit_code == 2);
    CHECK(e.err.find(f == "typo.toml" ? "memroy-mb" : "ingset") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir / "db"));
  // A missing file is an error both ways.
  RunResult missing = run_cli({"--config", dir / "none.toml", "stats", "--db", dir / "db"}, dir.path());
  CHECK(missing.exit_code == 2);
  ::setenv("SGFPAT_CONFIG", (dir / "none.toml").c_str(), 1);
  RunResult env_missing = run_cli({"ingest", "--db", dir / "db", dir / "g.sgf"}, dir.path());
  ::unsetenv("SGFPAT_CONFIG");
  CHECK(env_missing.exit_code == 2);
  CHECK(env_missing.err.find("none.toml") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "db"));
  // A good file still works.
  RunResult ok = run_cli({"--config", dir / "ok.toml", "ingest", "--db", dir / "db", "--quiet", dir / "g.sgf"},
                        dir.path());
  CHECK(ok.exit_code == 0);
}

TEST_CASE("flags: --sizes takes one word, the inputs after it stay inputs") {
  TempDir dir("sgfpat-sizes");
  fs::create_directories(dir / "in");
  write_file(dir / "in/g.sgf", corpus_games(4));
  RunResult r = run_cli({"ingest", "--db", dir / "db", "--json", "--sizes", "19", dir / "in"}, dir.path());
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.json()["ingested"].get<uint64_t>() == 4);
  RunResult two = run_cli({"ingest", "--db", dir / "db2", "--json", "--sizes", "9,13", "--sizes", "19", dir / "in"},
                         dir.path());
  REQUIRE(two.exit_code == 0);
  CHECK(two.json()["ingested"].get<uint64_t>() == 4);
}

TEST_CASE("flags: NaN and infinite numbers are refused (komi, smoothing, explore; GTP komi)") {
  TempDir dir("sgfpat-nan");
  for (const char* v : {"nan", "inf", "-inf", "NaN"}) {
    INFO(v);
    RunResult k = run_cli({"suggest", "--board", "...|...|...", "--komi", v}, dir.path());
    CHECK(k.exit_code == 2);
    write_file(dir / "explore.toml", std::string("[suggest]\nexplore = \"") + v + "\"\n");  // a tuning setting
    RunResult e = run_cli({"--config", dir / "explore.toml", "suggest", "--board", "...|...|...", "--player", "B",
                           "--iterations", "10"},
                          dir.path());
    CHECK(e.exit_code == 2);
    RunResult s = run_cli({"accuracy", "--priors", dir / "none.priors", "--smoothing", v, dir / "x.sgf"}, dir.path());
    CHECK(s.exit_code == 2);
  }
  // GTP: "komi nan" is an error answer, and final_score never prints nan.
  write_file(dir / "gtp.in", "komi nan\nkomi inf\nfinal_score\nquit\n");
  write_file(dir / "g.sgf", corpus_games(20));
  REQUIRE(run_cli({"ingest", "--db", dir / "db", "--quiet", dir / "g.sgf"}, dir.path()).exit_code == 0);
  REQUIRE(run_cli({"export", "--db", dir / "db", "-o", dir / "p.priors"}, dir.path()).exit_code == 0);
  std::string cmd = sgfpat_binary() + " gtp --priors " + dir / "p.priors" + " < " + dir / "gtp.in" + " > " + dir / "gtp.out" +
                    " 2>/dev/null";
  std::system(cmd.c_str());
  std::string out = read_file(dir / "gtp.out");
  INFO(out);
  CHECK(count_of(out, "? ") >= 2);
  CHECK(out.find("nan") == std::string::npos);
}

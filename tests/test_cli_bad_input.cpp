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

// ---------------------------------------------------------------------------
// Flags: the rules every flag of every command follows (tools/flag_checks.h)

namespace {

// A small database of `n` sample games (g.sgf in `dir`) and its priors.
void small_db(const TempDir& dir, size_t n = 20) {
  write_file(dir / "g.sgf", corpus_games(n));
  RunResult r = run_cli({"ingest", "--db", dir / "db", "--quiet", dir / "g.sgf"}, dir.path());
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(run_cli({"export", "--db", dir / "db", "-o", dir / "p.priors"}, dir.path()).exit_code == 0);
}

// A usage error (exit 2, not a signal) whose message says `says`.
void usage_error(const RunResult& r, const std::string& says = "") {
  INFO("stderr: " << r.err);
  CHECK(r.signal == 0);
  CHECK(r.exit_code == 2);
  if (!says.empty()) CHECK(r.err.find(says) != std::string::npos);
}

}  // namespace

TEST_CASE("flags: every --threads is 1 to 256; past it a usage error, not an abort; in the config file too") {
  TempDir dir("sgfpat-threads");
  small_db(dir);
  const std::vector<std::string> similar = {"similar", "--db", dir / "db", "--sgf", dir / "g.sgf", "--move", "10"};
  for (const char* t : {"50000", "0", "-1", "257"}) {
    INFO(t);
    std::vector<std::string> a = similar;
    a.insert(a.end(), {"-t", t});
    usage_error(run_cli(a, dir.path()), "--threads");
    usage_error(run_cli({"accuracy", "--knn", "5", "--db", dir / "db", "-t", t, dir / "g.sgf"}, dir.path()),
                "--threads");
    usage_error(run_cli({"solve", "--size", "3", "--threads", t}, dir.path()), "--threads");
    usage_error(run_cli({"suggest", "--board", "...|...|...", "--threads", t}, dir.path()), "--threads");
    usage_error(run_cli({"ingest", "--db", dir / "db2", "-j", t, dir / "g.sgf"}, dir.path()), "--threads");
  }
  CHECK(run_cli({"solve", "--size", "3", "--threads", "0"}, dir.path()).err.find("1 to 256") != std::string::npos);
  write_file(dir / "threads.toml", "[similar]\nthreads = 0\n");
  std::vector<std::string> a = {"--config", dir / "threads.toml"};
  a.insert(a.end(), similar.begin(), similar.end());
  usage_error(run_cli(a, dir.path()), "--threads");
  // In range, it works.
  a = similar;
  a.insert(a.end(), {"-t", "3"});
  CHECK(run_cli(a, dir.path()).exit_code == 0);
  CHECK_FALSE(fs::exists(dir / "db2"));
}

TEST_CASE("flags: negative and out-of-range values of unsigned flags are usage errors, in flags and config") {
  TempDir dir("sgfpat-unsigned");
  small_db(dir);
  const std::string good = read_file(dir / "p.priors");
  // export --min-seen -1 wrapped to 2^64-1 and replaced the priors file
  // with one of 0 patterns.
  for (const char* v : {"-1", "-0", " -5", "18446744073709551616", "99999999999999999999999"}) {
    INFO(v);
    usage_error(run_cli({"export", "--db", dir / "db", "-o", dir / "p.priors", "--min-seen", v}, dir.path()),
                "--min-seen");
    write_file(dir / "c.toml", std::string("[export]\nmin-seen = \"") + v + "\"\n");
    usage_error(run_cli({"--config", dir / "c.toml", "export", "--db", dir / "db", "-o", dir / "p.priors"},
                        dir.path()),
                "--min-seen");
    ::setenv("SGFPAT_CONFIG", (dir / "c.toml").c_str(), 1);
    RunResult env = run_cli({"export", "--db", dir / "db", "-o", dir / "p.priors"}, dir.path());
    ::unsetenv("SGFPAT_CONFIG");
    usage_error(env, "--min-seen");
  }
  write_file(dir / "n.toml", "[export]\nmin-seen = -1\n");  // a TOML number, not a string
  usage_error(run_cli({"--config", dir / "n.toml", "export", "--db", dir / "db", "-o", dir / "p.priors"}, dir.path()),
              "--min-seen");
  CHECK(read_file(dir / "p.priors") == good);
  // Every other unsigned or counting flag alike.
  usage_error(run_cli({"accuracy", "--priors", dir / "p.priors", "--max-games", "-1", dir / "g.sgf"}, dir.path()),
              "--max-games");
  usage_error(run_cli({"accuracy", "--knn", "-5", "--db", dir / "db", dir / "g.sgf"}, dir.path()), "--knn");
  usage_error(run_cli({"train", "--db", dir / "db", "-p", dir / "p.priors", "-o", dir / "t.priors", "-n", "-1"},
                      dir.path()),
              "--games");
  usage_error(run_cli({"gtp", "--seed", "-1"}, dir.path()), "--seed");
  usage_error(run_cli({"similar", "--db", dir / "db", "--sgf", dir / "g.sgf", "--move", "10", "--exact", "--limit",
                       "-1"},
                      dir.path()),
              "--limit");
  usage_error(run_cli({"ingest", "--db", dir / "db", "--max-errors-shown", "-1", dir / "g.sgf"}, dir.path()),
              "--max-errors-shown");
  usage_error(run_cli({"stats", "--db", dir / "db", "--level", "-2"}, dir.path()), "--level");
  CHECK_FALSE(fs::exists(dir / "t.priors"));
}

TEST_CASE("flags: --move and --game below their range are usage errors for every command") {
  TempDir dir("sgfpat-move");
  small_db(dir, 3);
  usage_error(run_cli({"board", dir / "g.sgf", "--move", "-5"}, dir.path()), "--move");
  usage_error(run_cli({"eval", "--priors", dir / "p.priors", "--sgf", dir / "g.sgf", "--move", "-1"}, dir.path()),
              "--move");
  usage_error(run_cli({"query", "--db", dir / "db", "--sgf", dir / "g.sgf", "--move", "-3", "--point", "D4"},
                      dir.path()),
              "--move");
  usage_error(run_cli({"similar", "--db", dir / "db", "--sgf", dir / "g.sgf", "--move", "-1"}, dir.path()), "--move");
  usage_error(run_cli({"board", dir / "g.sgf", "--game", "0"}, dir.path()));
  usage_error(run_cli({"board", dir / "g.sgf", "--game", "-1"}, dir.path()), "--game");
  CHECK(run_cli({"board", dir / "g.sgf", "--move", "0"}, dir.path()).exit_code == 0);
}

TEST_CASE("flags: --sizes outside 2..25 is a usage error, not a filter of every game") {
  TempDir dir("sgfpat-sizes-range");
  write_file(dir / "g.sgf", corpus_games(3));
  for (const char* v : {"0", "1", "26", "19,26"}) {
    INFO(v);
    usage_error(run_cli({"ingest", "--db", dir / "db", "--sizes", v, dir / "g.sgf"}, dir.path()), "--sizes");
    usage_error(run_cli({"shard", "plan", "--work", dir / "w", "--shards", "2", "--sizes", v, dir / "g.sgf"},
                        dir.path()),
                "--sizes");
  }
  CHECK_FALSE(fs::exists(dir / "db"));
  CHECK_FALSE(fs::exists(dir / "w"));
}

TEST_CASE("flags: an empty value is a usage error (-o '', --db '', an input '')") {
  TempDir dir("sgfpat-empty");
  small_db(dir, 3);
  usage_error(run_cli({"export", "--db", dir / "db", "-o", ""}, dir.path()), "--output");
  usage_error(run_cli({"export", "--db", "", "-o", dir / "x.priors"}, dir.path()), "--db");
  usage_error(run_cli({"stats", "--db", ""}, dir.path()), "--db");
  usage_error(run_cli({"board", ""}, dir.path()));
  usage_error(run_cli({"ingest", "--db", dir / "db", dir / "g.sgf", ""}, dir.path()));
  usage_error(run_cli({"board", dir / "g.sgf", "--svg", ""}, dir.path()), "--svg");
  CHECK_FALSE(fs::exists(dir / "x.priors"));
}

TEST_CASE("flags: range messages print their bounds as people write them") {
  TempDir dir("sgfpat-range-msg");
  RunResult s = run_cli({"suggest", "--board", "...|...|...", "--seconds", "-1"}, dir.path());
  usage_error(s, "at least 0");
  CHECK(s.err.find("17976931") == std::string::npos);
  CHECK(s.err.find("0.000000") == std::string::npos);
  usage_error(run_cli({"gtp", "--resign", "0.9"}, dir.path()), "0 to 0.5");
  usage_error(run_cli({"suggest", "--board", "...|...|...", "--iterations", "0"}, dir.path()), "more than 0");
  usage_error(run_cli({"ingest", "--db", dir / "db", "--memory-mb", "1", dir / "g.sgf"}, dir.path()), "4 to 1048576");
}

TEST_CASE("solve --time: a budget past the clock's range is no limit; a negative one is a usage error") {
  TempDir dir("sgfpat-solve-time");
  // The empty 5x5 board takes a few thousand nodes: a budget that wrapped
  // into the past gave up at once ("unknown", exit 4).
  for (const char* t : {"1e10", "1e300", "10"}) {
    INFO(t);
    RunResult r = run_cli({"solve", "--size", "5", "--time", t}, dir.path());
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Black wins (proved)") != std::string::npos);
  }
  usage_error(run_cli({"solve", "--size", "5", "--time", "-1"}, dir.path()), "--time");
}

TEST_CASE("devices: /dev/zero as an input or as the configuration is refused at once") {
  TempDir dir("sgfpat-devzero");
  write_file(dir / "g.sgf", corpus_games(2));
  RunResult in = run_cli({"ingest", "--db", dir / "db", dir / "g.sgf", "/dev/zero"}, dir.path());
  INFO("stderr: " << in.err);
  CHECK(in.exit_code == 3);
  CHECK(in.err.find("/dev/zero: is a device, not a file or a pipe") != std::string::npos);
  RunResult board = run_cli({"board", "/dev/zero"}, dir.path());
  CHECK(board.exit_code != 0);
  CHECK(board.err.find("/dev/zero: is a device") != std::string::npos);
  usage_error(run_cli({"--config", "/dev/zero", "stats", "--db", dir / "db"}, dir.path()), "/dev/zero");
  ::setenv("SGFPAT_CONFIG", "/dev/zero", 1);
  RunResult env = run_cli({"stats", "--db", dir / "db"}, dir.path());
  ::unsetenv("SGFPAT_CONFIG");
  usage_error(env, "/dev/zero");
}

TEST_CASE("similar: a damaged database exits 5, as the other readers do") {
  TempDir dir("sgfpat-similar-damage");
  small_db(dir, 5);
  fs::remove(dir / "db/CURRENT");
  for (const bool exact : {false, true}) {
    std::vector<std::string> a = {"similar", "--db", dir / "db", "--sgf", dir / "g.sgf", "--move", "10"};
    if (exact) a.push_back("--exact");
    RunResult r = run_cli(a, dir.path());
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 5);
    CHECK(r.err.find("CURRENT") != std::string::npos);
  }
  CHECK(run_cli({"stats", "--db", dir / "db"}, dir.path()).exit_code == 5);
}

TEST_CASE("ingest: rejected records are counted and the run exits 0, as --help says") {
  TempDir dir("sgfpat-rejected");
  write_file(dir / "g.sgf", corpus_games(3) + "(;SZ[9];B[aa];W[aa])\n");  // an occupied point
  RunResult r = run_cli({"ingest", "--db", dir / "db", "--json", dir / "g.sgf"}, dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.json()["rejected"].get<uint64_t>() == 1);
  CHECK(r.json()["exit_code"].get<int>() == 0);
  const std::string help = run_cli({"ingest", "--help"}, dir.path()).out;
  CHECK(help.find("records or inputs\nrejected") == std::string::npos);
  CHECK(help.find("records they reject are counted in the summary, not an error") != std::string::npos);
}

// ---------------------------------------------------------------------------
// Text: charsets, non-UTF-8 bytes, UTF-16, links

TEST_CASE("--json: names in GB2312 are stored as UTF-8; a non-UTF-8 database path is escaped") {
  TempDir dir("sgfpat-gb2312");
  // The sample's games with GB2312 names (CA[GB2312]): 古力 and 柯洁.
  const auto set_value = [](std::string* g, const std::string& prop, const std::string& value) {
    const size_t at = g->find(prop + "[");
    REQUIRE(at != std::string::npos);
    g->replace(at + prop.size() + 1, g->find(']', at) - at - prop.size() - 1, value);
  };
  std::string games;
  for (std::string g : sample_lines(0, 12)) {
    set_value(&g, "PB", "\xb9\xc5\xc1\xa6");
    set_value(&g, "PW", "\xbf\xc2\xbd\xe0");
    set_value(&g, "CA", "GB2312");
    games += g;
  }
  write_file(dir / "gb.sgf", games);
  RunResult in = run_cli({"ingest", "--db", dir / "db", "--quiet", dir / "gb.sgf"}, dir.path());
  REQUIRE(in.exit_code == 0);
  for (const bool exact : {true, false}) {
    std::vector<std::string> a = {"similar", "--db", dir / "db", "--sgf", dir / "gb.sgf", "--move", "20", "--json"};
    if (exact) a.push_back("--exact");
    RunResult r = run_cli(a, dir.path());
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    nlohmann::json j = r.json();
    REQUIRE(j.is_object());
    REQUIRE_FALSE(j["hits"].empty());
    CHECK(j["hits"][0]["black"] == "\xe5\x8f\xa4\xe5\x8a\x9b");
    CHECK(j["hits"][0]["white"] == "\xe6\x9f\xaf\xe6\xb4\x81");
  }
  // A database whose path is not UTF-8.
  const std::string odd = dir / "db-\xff\xfe";
  REQUIRE(run_cli({"ingest", "--db", odd, "--quiet", dir / "gb.sgf"}, dir.path()).exit_code == 0);
  for (const std::vector<std::string>& a :
       {std::vector<std::string>{"stats", "--db", odd, "--json"},
        std::vector<std::string>{"ingest", "--db", odd, "--json", dir / "gb.sgf"},
        std::vector<std::string>{"similar", "--db", odd, "--sgf", dir / "gb.sgf", "--move", "20", "--json"}}) {
    INFO(a[0]);
    RunResult r = run_cli(a, dir.path());
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    nlohmann::json j = r.json();
    CHECK(j.is_object());
    if (a[0] != "similar") CHECK(j["db"] == dir / "db-\\xFF\\xFE");
  }
}

TEST_CASE("ingest: a UTF-16 file with a byte order mark is read") {
  TempDir dir("sgfpat-utf16");
  std::string text = corpus_games(3);
  std::string le = "\xFF\xFE";
  for (char c : text) le += std::string{c, '\0'};  // the sample is ASCII
  write_file(dir / "u16.sgf", le);
  RunResult r = run_cli({"ingest", "--db", dir / "db", "--json", dir / "u16.sgf"}, dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.json()["ingested"].get<uint64_t>() == 3);
}

TEST_CASE("ingest: a directory holding a link to a directory of games reads them") {
  TempDir dir("sgfpat-dirlink");
  fs::create_directories(dir / "games");
  write_file(dir / "games/a.sgf", corpus_games(4));
  fs::create_directories(dir / "in");
  fs::create_directory_symlink(dir / "games", dir / "in/linked");
  RunResult only = run_cli({"ingest", "--db", dir / "db", "--json", dir / "in"}, dir.path());
  INFO("stderr: " << only.err);
  CHECK(only.exit_code == 0);
  CHECK(only.json()["ingested"].get<uint64_t>() == 4);
  write_file(dir / "in/b.sgf", join(sample_lines(10, 2)));
  RunResult mixed = run_cli({"ingest", "--db", dir / "db2", "--json", dir / "in"}, dir.path());
  CHECK(mixed.exit_code == 0);
  CHECK(mixed.json()["ingested"].get<uint64_t>() == 6);
}

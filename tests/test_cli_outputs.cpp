// Where `export` and `train` may write: a symlink is followed (its target
// gets the new content, the link stays), a FIFO and a device are written
// through (never replaced by a regular file), /dev/full is a full disk
// (exit 6), a directory and a path inside a database directory are refused
// (exit 2) with nothing changed.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <set>

#include "test_util.h"

using namespace testutil;

namespace {

struct Built {
  TempDir dir{"sgfpat-outputs"};
  std::string db = dir / "db";
  std::string priors = dir / "reference.priors";
  std::string tsv;
  Built() {
    write_file(dir / "g.sgf", join(sample_lines(0, 40)));
    RunResult r = run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", dir / "g.sgf"}, dir.path());
    if (r.exit_code != 0) throw std::runtime_error("building the test database failed: " + r.err);
    r = run_cli({"export", "--db", db, "-o", priors}, dir.path());
    if (r.exit_code != 0) throw std::runtime_error("export failed: " + r.err);
    tsv = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, dir.path()).out;
  }
};
Built& built() {
  static Built b;
  return b;
}

std::vector<std::string> export_args(const std::string& format, const std::string& out) {
  return {"export", "--db", built().db, "-f", format, "-o", out};
}
std::vector<std::string> train_args(const std::string& out) {
  return {"train", "--db", built().db, "-p", built().priors, "-o", out, "-n", "10"};
}

std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> s;
  for (const auto& e : fs::directory_iterator(dir)) s.insert(e.path().filename().string());
  return s;
}

}  // namespace

TEST_CASE("a symlink output is followed: the target gets the content, the link stays") {
  TempDir dir("sgfpat-out-link");
  write_file(dir / "target.tsv", "old\n");
  fs::create_symlink(dir / "target.tsv", dir / "link.tsv");
  RunResult r = run_cli(export_args("tsv", dir / "link.tsv"), dir.path());
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::is_symlink(dir / "link.tsv"));
  CHECK(read_file(dir / "target.tsv") == built().tsv);
  for (const auto& name : names_in(dir.path())) CHECK(name.find(".tmp") == std::string::npos);

  // train too, and a link whose target does not exist yet is created.
  fs::create_symlink(dir / "new.priors", dir / "trained.priors");
  r = run_cli(train_args(dir / "trained.priors"), dir.path());
  INFO("train stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::is_symlink(dir / "trained.priors"));
  CHECK(fs::is_regular_file(dir / "new.priors"));
  CHECK(fs::file_size(dir / "new.priors") > fs::file_size(built().priors));
}

TEST_CASE("a FIFO output is written through, and stays a FIFO") {
  TempDir dir("sgfpat-out-fifo");
  const std::string fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  FifoReader reader(fifo);
  RunResult r = run_cli(export_args("tsv", fifo), dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  const std::string got = reader.get();
  CHECK_FALSE(reader.timed_out());
  CHECK(got == built().tsv);
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("devices: /dev/null takes the output and stays a device; /dev/full is a full disk") {
  TempDir dir("sgfpat-out-dev");
  for (const std::string format : {"tsv", "priors"}) {
    CAPTURE(format);
    RunResult r = run_cli(export_args(format, "/dev/null"), dir.path());
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(fs::is_character_file("/dev/null"));
    RunResult full = run_cli(export_args(format, "/dev/full"), dir.path());
    INFO("stderr: " << full.err);
    CHECK(full.exit_code == 6);
    CHECK(full.err.find("/dev/full") != std::string::npos);
    CHECK(fs::is_character_file("/dev/full"));
  }
  RunResult t = run_cli(train_args("/dev/full"), dir.path());
  INFO("train stderr: " << t.err);
  CHECK(t.exit_code == 6);
  CHECK(t.err.find("/dev/full") != std::string::npos);
  CHECK(fs::is_character_file("/dev/full"));
}

TEST_CASE("a directory and a path inside the database are refused, nothing changed") {
  TempDir dir("sgfpat-out-refused");
  fs::create_directories(dir / "out");
  for (const auto& args : {export_args("tsv", dir / "out"), export_args("priors", dir / "out"), train_args(dir / "out")}) {
    RunResult r = run_cli(args, dir.path());
    INFO(args[0] << " stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("directory") != std::string::npos);
    CHECK(fs::is_directory(dir / "out"));
    CHECK(fs::is_empty(dir / "out"));
  }
  const auto before = names_in(built().db);
  const std::string inside = built().db + "/x.priors";
  // Also through a symlink that leads into the database.
  fs::create_symlink(inside, dir / "sneaky.priors");
  for (const auto& args : {export_args("priors", inside), export_args("tsv", built().db + "/CURRENT"),
                           train_args(inside), export_args("priors", dir / "sneaky.priors")}) {
    RunResult r = run_cli(args, dir.path());
    INFO(args[0] << " " << args.back() << " stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("database") != std::string::npos);
  }
  CHECK(names_in(built().db) == before);
  CHECK(run_cli({"stats", "--db", built().db}, dir.path()).exit_code == 0);
}

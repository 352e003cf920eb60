// scripts/slurm/submit.sh on a real single-node Slurm cluster: the test
// starts munged, slurmctld and slurmd on this machine with
// scripts/slurm/local-cluster.sh (root only; its own folder, munge socket and
// ports), submits the job arrays of a 3-shard count of a small corpus,
// waits for the finish job, compares the database's TSV export with a
// single-machine ingest byte for byte, and stops the daemons it started.
// Without root or without Slurm and munge (scripts/deps.sh) the test case
// is reported as skipped, with the reason on stderr.
#include <sys/stat.h>

#include <iostream>

#include "shard_test_util.h"

using namespace shardtest;

namespace {

const char* const kDaemons[] = {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch",
                                "/usr/bin/scontrol", "/usr/bin/sinfo"};

// Empty when a cluster can be started here, else why not.
std::string why_not() {
  if (::geteuid() != 0) return "not root (a Slurm cluster needs root to start)";
  for (const char* d : kDaemons)
    if (::access(d, X_OK) != 0) return std::string(d) + " is missing (install slurm-wlm and munge: scripts/deps.sh)";
  return "";
}

bool skip_slurm() {
  static const std::string why = why_not();
  if (!why.empty()) std::cerr << "test_shard_slurm: skipped: " << why << "\n";
  return !why.empty();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// A single-node cluster in `dir` started by scripts/slurm/local-cluster.sh,
// stopped (and its processes ended) when the object goes.
class Cluster {
 public:
  explicit Cluster(const std::string& dir) : dir_(dir) {}
  ~Cluster() { stop(); }

  void start() {
    RunResult r = run({"/bin/bash", script(), "start", dir_}, dir_);
    INFO("local-cluster.sh: " << r.out << r.err << "\nslurmctld log:\n"
                              << read_file(dir_ + "/log/slurmctld.log") << "\nslurmd log:\n"
                              << read_file(dir_ + "/log/slurmd.log"));
    REQUIRE(r.exit_code == 0);
    REQUIRE(trim(r.out) == "export SLURM_CONF=" + dir_ + "/slurm.conf");
    ::setenv("SLURM_CONF", (dir_ + "/slurm.conf").c_str(), 1);
    started_ = true;
    RunResult state = run({"/usr/bin/sinfo", "-h", "-o", "%T"}, dir_);
    REQUIRE(trim(state.out) == "idle");
  }

  // Ends the daemons this cluster started; stopped() lists their pids.
  void stop() {
    if (!started_) return;
    started_ = false;
    for (const char* f : {"/slurmd.pid", "/slurmctld.pid", "/munge/pid"}) {
      const pid_t pid = pid_t(std::atol(read_file(dir_ + f).c_str()));
      if (pid > 1) stopped_.push_back(pid);
    }
    run({"/bin/bash", script(), "stop", dir_}, dir_);
    ::unsetenv("SLURM_CONF");
  }
  const std::vector<pid_t>& stopped() const { return stopped_; }

 private:
  static std::string script() { return std::string(SGFPAT_SOURCE_DIR) + "/scripts/slurm/local-cluster.sh"; }
  std::string dir_;
  bool started_ = false;
  std::vector<pid_t> stopped_;
};

}  // namespace

TEST_CASE("a 3-shard count (each shard counted in 2 tasks) submitted to a single-node Slurm cluster equals one ingest, byte for byte" *
          doctest::skip(skip_slurm())) {
  TempDir dir("sgfpat-slurm");
  REQUIRE(::chmod(dir.path().c_str(), 0755) == 0);
  const auto inputs = write_corpus(dir.path(), 600);
  const std::string single = dir / "single", db = dir / "sharded";
  ingest_ok(single, {}, inputs, dir.path());
  {
    Cluster cluster(dir / "cluster");
    REQUIRE(::mkdir((dir / "cluster").c_str(), 0755) == 0);
    cluster.start();
    std::vector<std::string> args = {"/bin/bash",   std::string(SGFPAT_SOURCE_DIR) + "/scripts/slurm/submit.sh",
                                     "--shards",    "3",
                                     "--work",      dir / "work",
                                     "--db",        db,
                                     "--memory-mb", "512",
                                     "--threads",   "1",
                                     "--sketch-mb", "2",
                                     "--count-parts", "2",
                                     "--sgfpat",    sgfpat_binary(),
                                     "--wait"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    RunResult r = run(args, dir.path());
    INFO("submit: " << r.out << r.err);
    CHECK(r.exit_code == 0);
    // One job per step: 3 arrays and 3 combine jobs.
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 6);
    // The closing table has a row for every step.
    for (const std::string step : {"import", "sum-sketches", "kept", "merge-kept", "count", "finish"})
      CHECK_MESSAGE(r.err.find("\n" + step + " ") != std::string::npos, step);
    // Counted in two tasks a shard: 6 count tasks, two count files a shard.
    for (int i = 0; i < 6; ++i) CHECK(testutil::fs::exists(dir / ("work/logs/sgfpat-count-" + std::to_string(i) + ".out")));
    for (int i = 0; i < 3; ++i)
      for (int p = 1; p <= 2; ++p)
        CHECK(testutil::fs::exists(dir / ("work/shard-" + std::to_string(i) + "/counts-" + std::to_string(p) + "-of-2.records")));
    cluster.stop();
    CHECK(cluster.stopped().size() == 3);
    for (pid_t pid : cluster.stopped()) CHECK(::kill(pid, 0) != 0);
  }
  REQUIRE(testutil::fs::exists(db));
  CHECK(export_tsv(db, dir.path()) == export_tsv(single, dir.path()));
}

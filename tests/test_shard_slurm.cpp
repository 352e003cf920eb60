// scripts/slurm/submit.sh on a real single-node Slurm cluster: the test
// starts munged, slurmctld and slurmd on this machine (root only; a
// generated slurm.conf in a temporary folder, its own munge socket and
// ports), submits the job arrays of a 3-shard count of a small corpus,
// waits for the finish job, compares the database's TSV export with a
// single-machine ingest byte for byte, and stops the daemons it started.
// Without root or without Slurm and munge (scripts/deps.sh) the test case
// is reported as skipped, with the reason on stderr.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <thread>

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

// A single-node cluster in `dir`, stopped (and its processes ended) when
// the object goes.
class Cluster {
 public:
  explicit Cluster(const std::string& dir) : dir_(dir) {}
  ~Cluster() { stop(); }

  void start() {
    for (const char* sub : {"/munge", "/state", "/spool", "/log"}) REQUIRE(::mkdir((dir_ + sub).c_str(), 0700) == 0);
    std::string key;
    std::mt19937_64 rng(std::random_device{}());
    for (int i = 0; i < 128; ++i) key.push_back(char(rng()));
    write_file(dir_ + "/munge/munge.key", key);
    REQUIRE(::chmod((dir_ + "/munge/munge.key").c_str(), 0600) == 0);
    must_run({"/usr/sbin/munged", "--force", "--socket=" + dir_ + "/munge/sock", "--key-file=" + dir_ + "/munge/munge.key",
              "--pid-file=" + dir_ + "/munge/pid", "--log-file=" + dir_ + "/munge/log",
              "--seed-file=" + dir_ + "/munge/seed"});
    pid_files_.push_back(dir_ + "/munge/pid");

    char host[256] = {};
    REQUIRE(::gethostname(host, sizeof host - 1) == 0);
    std::string node = host;
    node = node.substr(0, node.find('.'));
    const long cpus = std::max(1L, long(std::thread::hardware_concurrency()));
    long mem_mb = 1024;
    {
      std::string meminfo = read_file("/proc/meminfo");
      long kb = 0;
      if (std::sscanf(meminfo.c_str(), "MemTotal: %ld kB", &kb) == 1) mem_mb = std::max(1024L, kb / 1024 - 1024);
    }
    // Ports away from the default ones, so that a cluster already running
    // here is not disturbed.
    const int port = 20000 + int(::getpid() % 20000) * 2 % 20000;
    const std::string conf = dir_ + "/slurm.conf";
    write_file(conf, "ClusterName=sgfpattest\nSlurmctldHost=" + node +
                         "\nSlurmUser=root\nSlurmdUser=root\n"
                         "SlurmctldPort=" + std::to_string(port) + "\nSlurmdPort=" + std::to_string(port + 1) +
                         "\nAuthType=auth/munge\nAuthInfo=socket=" + dir_ + "/munge/sock\nCredType=cred/munge\n"
                         "StateSaveLocation=" + dir_ + "/state\nSlurmdSpoolDir=" + dir_ + "/spool\n"
                         "SlurmctldPidFile=" + dir_ + "/slurmctld.pid\nSlurmdPidFile=" + dir_ + "/slurmd.pid\n"
                         "SlurmctldLogFile=" + dir_ + "/log/slurmctld.log\nSlurmdLogFile=" + dir_ + "/log/slurmd.log\n"
                         "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                         "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
                         "SchedulerType=sched/builtin\nMpiDefault=none\nReturnToService=2\n"
                         "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n"
                         "JobAcctGatherType=jobacct_gather/none\nMinJobAge=600\n"
                         "NodeName=" + node + " CPUs=" + std::to_string(cpus) + " RealMemory=" +
                         std::to_string(mem_mb) + " State=UNKNOWN\n"
                         "PartitionName=test Nodes=" + node + " Default=YES MaxTime=INFINITE State=UP\n");
    ::setenv("SLURM_CONF", conf.c_str(), 1);
    must_run({"/usr/sbin/slurmctld", "-f", conf});
    pid_files_.push_back(dir_ + "/slurmctld.pid");
    must_run({"/usr/sbin/slurmd", "-f", conf});
    pid_files_.push_back(dir_ + "/slurmd.pid");
    // Up when the node is idle.
    const auto t0 = std::chrono::steady_clock::now();
    std::string state;
    while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30)) {
      RunResult r = run({"/usr/bin/sinfo", "-h", "-o", "%T"}, dir_);
      state = trim(r.out);
      if (state == "idle") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    INFO("slurmctld log:\n" << read_file(dir_ + "/log/slurmctld.log") << "\nslurmd log:\n"
                             << read_file(dir_ + "/log/slurmd.log"));
    REQUIRE(state == "idle");
  }

  // Ends the daemons this cluster started (their pid files), last first.
  void stop() {
    std::vector<pid_t> pids;
    for (auto it = pid_files_.rbegin(); it != pid_files_.rend(); ++it) {
      const pid_t pid = pid_t(std::atol(read_file(*it).c_str()));
      if (pid > 1 && ::kill(pid, SIGTERM) == 0) pids.push_back(pid);
    }
    pid_files_.clear();
    for (pid_t pid : pids) {
      for (int i = 0; i < 50 && ::kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (::kill(pid, 0) == 0) ::kill(pid, SIGKILL);
      stopped_.push_back(pid);
    }
    ::unsetenv("SLURM_CONF");
  }
  const std::vector<pid_t>& stopped() const { return stopped_; }

 private:
  void must_run(const std::vector<std::string>& args) {
    RunResult r = run(args, dir_);
    INFO(args[0] << ": " << r.err);
    REQUIRE(r.exit_code == 0);
  }
  std::string dir_;
  std::vector<std::string> pid_files_;
  std::vector<pid_t> stopped_;
};

}  // namespace

TEST_CASE("a 3-shard count submitted to a single-node Slurm cluster equals one ingest, byte for byte" *
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
                                     "--sgfpat",    sgfpat_binary(),
                                     "--wait"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    RunResult r = run(args, dir.path());
    INFO("submit: " << r.out << r.err);
    CHECK(r.exit_code == 0);
    // One job per step: 3 arrays and 3 combine jobs.
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 6);
    for (int i = 0; i < 3; ++i) CHECK(testutil::fs::exists(dir / ("work/logs/sgfpat-count-" + std::to_string(i) + ".out")));
    cluster.stop();
    CHECK(cluster.stopped().size() == 3);
    for (pid_t pid : cluster.stopped()) CHECK(::kill(pid, 0) != 0);
  }
  REQUIRE(testutil::fs::exists(db));
  CHECK(export_tsv(db, dir.path()) == export_tsv(single, dir.path()));
}

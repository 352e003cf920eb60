// A full disk: ingest (at the import and at the count), export (TSV and
// priors) and train fail with exit code 6 and a message naming the path,
// never a crash; the database and the earlier output files stay whole and
// readable, and the same ingest run again once space is freed ends exactly
// as on a roomy disk.
//
// Needs root (a small tmpfs is mounted).  Without it the test says so and
// exits 77, which ctest reports as skipped (SKIP_RETURN_CODE).
#include <doctest/doctest.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "test_util.h"

using namespace testutil;

namespace {

constexpr int kSkipped = 77;

// A tmpfs of `mib` MiB at `dir`, unmounted at the end.
class SmallDisk {
 public:
  SmallDisk(const std::string& dir, int mib) : dir_(dir) {
    fs::create_directories(dir);
    const std::string opts = "size=" + std::to_string(mib) + "m";
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, opts.c_str()) != 0) {
      std::cerr << "test_store_full_disk: SKIPPED: cannot mount a tmpfs at " << dir << ": " << std::strerror(errno)
                << " (needs root)\n";
      std::exit(kSkipped);
    }
  }
  ~SmallDisk() { ::umount2(dir_.c_str(), MNT_DETACH); }
  // Fills the disk with a file until `keep_kib` KiB are left.
  void fill(int keep_kib) {
    unfill();
    struct statvfs v {};
    REQUIRE(::statvfs(dir_.c_str(), &v) == 0);
    const int64_t avail = int64_t(v.f_bavail) * int64_t(v.f_frsize) - int64_t(keep_kib) * 1024;
    if (avail <= 0) return;
    const int fd = ::open((dir_ + "/filler").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::posix_fallocate(fd, 0, avail) == 0);
    ::close(fd);
  }
  // Fills the disk to the last byte.
  void fill_all() {
    fill(64);
    const int fd = ::open((dir_ + "/filler-rest").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    static const char block[4096] = {};
    while (::write(fd, block, sizeof block) > 0) {
    }
    while (::write(fd, block, 1) > 0) {
    }
    ::close(fd);
  }
  void unfill() {
    fs::remove(dir_ + "/filler");
    fs::remove(dir_ + "/filler-rest");
  }

 private:
  std::string dir_;
};

std::string tsv_of(const std::string& db, const std::string& scratch) {
  RunResult r = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, scratch);
  INFO("export stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

// Names of leftover temporary files under `dir`.
std::vector<std::string> temporaries(const std::string& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) found.push_back(e.path().string());
  return found;
}

void check_no_space(const RunResult& r, const std::string& path) {
  INFO("stderr: " << r.err);
  CHECK(r.signal == 0);
  CHECK(r.exit_code == 6);
  CHECK(r.err.find(path) != std::string::npos);
}

}  // namespace

TEST_CASE("a full disk: clear errors, exit 6, nothing lost, and a re-run completes exactly") {
  TempDir dir("sgfpat-fulldisk");
  const auto lines = sample_lines(0, 400);
  const std::string a = dir / "a.sgf", b = dir / "b.sgf";
  write_file(a, join({lines.begin(), lines.begin() + 100}));
  write_file(b, join({lines.begin() + 100, lines.end()}));
  // The answer of a roomy disk.
  const std::string ref = dir / "ref";
  REQUIRE(run_cli({"ingest", "--db", ref, "--quiet", "--threads", "1", a, b}, dir.path()).exit_code == 0);
  const std::string want = tsv_of(ref, dir.path());

  const std::string mnt = dir / "mnt";
  SmallDisk disk(mnt, 24);
  const std::string db = mnt + "/db";
  REQUIRE(run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", a}, dir.path()).exit_code == 0);
  const std::string out_tsv = mnt + "/out.tsv", out_priors = mnt + "/out.priors", trained = mnt + "/trained.priors";
  REQUIRE(run_cli({"export", "--db", db, "-f", "tsv", "-o", out_tsv}, dir.path()).exit_code == 0);
  REQUIRE(run_cli({"export", "--db", db, "-o", out_priors}, dir.path()).exit_code == 0);
  RunResult t = run_cli({"train", "--db", db, "-p", out_priors, "-o", trained, "-n", "20"}, dir.path());
  INFO("train stderr: " << t.err);
  REQUIRE(t.exit_code == 0);
  const std::string tsv_before = read_file(out_tsv), priors_before = read_file(out_priors),
                    trained_before = read_file(trained);
  REQUIRE(tsv_of(db, dir.path()) == tsv_before);

  // The disk fills during the import (little room) or at the count (room
  // for the games, not for the sketch and counts).
  for (int keep_kib : {1500, 3000}) {
    CAPTURE(keep_kib);
    disk.fill(keep_kib);
    RunResult r = run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", "--catch-up", b}, dir.path());
    check_no_space(r, db);
    disk.unfill();
    CHECK(temporaries(db).empty());
    CHECK(run_cli({"stats", "--db", db}, dir.path()).exit_code == 0);
    CHECK(tsv_of(db, dir.path()) == tsv_before);  // the counts are those before the run
  }

  // Writers of files on a disk full to the last byte.
  disk.fill_all();
  check_no_space(run_cli({"export", "--db", db, "-f", "tsv", "-o", out_tsv}, dir.path()), out_tsv);
  check_no_space(run_cli({"export", "--db", db, "-o", out_priors}, dir.path()), out_priors);
  check_no_space(run_cli({"train", "--db", db, "-p", out_priors, "-o", trained, "-n", "20"}, dir.path()), trained);
  CHECK(read_file(out_tsv) == tsv_before);
  CHECK(read_file(out_priors) == priors_before);
  CHECK(read_file(trained) == trained_before);
  CHECK(temporaries(mnt).empty());
  check_no_space(run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", "--catch-up", b}, dir.path()), db);
  disk.unfill();

  // Space again: the same ingest ends exactly as on the roomy disk.
  RunResult again = run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", "--catch-up", b}, dir.path());
  INFO("stderr: " << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(tsv_of(db, dir.path()) == want);
}

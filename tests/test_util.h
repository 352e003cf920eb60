// Helpers shared by the end-to-end tests: temporary directories, running the
// `sgfpat` binary, corpus slices, reading a database's counts, and a small
// rules engine written independently of lib/board (flood fills, no
// incremental state) to replay records for brute-force expectations.
#pragma once
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <rocksdb/db.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table_properties.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "corpus.h"
#include "core/coding.h"
#include "sgf/game.h"
#include "sgf/parser.h"
#include "store/pattern_db.h"

namespace testutil {

namespace fs = std::filesystem;

// A fresh directory under $TMPDIR (or /tmp), removed with its content at the
// end unless SGFPAT_KEEP_TMP is set in the environment.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "sgfpat-test") {
    std::string tmpl = (fs::temp_directory_path() / (tag + "-XXXXXX")).string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
    path_ = buf.data();
  }
  ~TempDir() {
    if (std::getenv("SGFPAT_KEEP_TMP")) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Writes whole counts of generation `gen` as a count does (sorted table
// files of values; PatternDb::add_counts() writes merge operands, which the
// open-time check of a generation's counts does not take for values).
inline sgfpat::Status write_counts(sgfpat::PatternDb& db, uint32_t gen,
                                   std::vector<std::tuple<int, uint64_t, sgfpat::PatternCounts>> counts) {
  std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  return db.write_sorted_counts(gen, {[&](const sgfpat::PatternDb::CountSink& sink) {
                                  for (const auto& [level, key, c] : counts) {
                                    sgfpat::Status s = sink(level, key, c);
                                    if (!s.ok()) return s;
                                  }
                                  return sgfpat::Status::OK();
                                }});
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// The lines [first, first + count) of a gzip (or plain) file; every corpus
// collection holds one game per line.  Each returned line ends in '\n'.
inline std::vector<std::string> gz_lines(const std::string& path, size_t first = 0, size_t count = SIZE_MAX) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  std::string cur;
  char buf[1 << 16];
  size_t index = 0;
  int n;
  while (lines.size() < count && (n = gzread(f, buf, sizeof buf)) > 0) {
    for (int i = 0; i < n && lines.size() < count; ++i) {
      cur.push_back(buf[i]);
      if (buf[i] == '\n') {
        if (index++ >= first) lines.push_back(std::move(cur));
        cur.clear();
      }
    }
  }
  if (!cur.empty() && lines.size() < count && index >= first) lines.push_back(cur + "\n");
  gzclose(f);
  return lines;
}

// The games [first, first + count) of the shipped sample (corpus.h), one a
// line; there must be that many.
inline std::vector<std::string> sample_lines(size_t first, size_t count) {
  std::vector<std::string> lines = gz_lines(sample_path(), first, count);
  if (lines.size() != count)
    throw std::runtime_error("the sample " + sample_path() + " has no games " + std::to_string(first) + ".." +
                             std::to_string(first + count - 1));
  return lines;
}

inline std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l;
  return s;
}

// Reads everything written into the FIFO at `path`, on a thread of its own,
// so that a child can write into it.  The wait is bounded: when no writer
// came, or the last one did not close, within `seconds` of get() (or by the
// destructor), the reader is released by opening the FIFO for writing
// itself, and timed_out() says so.  Never blocks for good, also when the
// test fails before get().
class FifoReader {
 public:
  explicit FifoReader(std::string path) : path_(std::move(path)) {
    thread_ = std::thread([this] {
      std::string text = read_file(path_);
      std::lock_guard<std::mutex> lock(mu_);
      text_ = std::move(text);
      done_ = true;
      cv_.notify_all();
    });
  }
  ~FifoReader() { get(10); }
  FifoReader(const FifoReader&) = delete;
  FifoReader& operator=(const FifoReader&) = delete;

  std::string get(double seconds = 60) {
    if (!thread_.joinable()) return text_;
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) {
      timed_out_ = true;
      lock.unlock();
      // A reader waiting in open() is let through by a writer that opens
      // and closes at once; one waiting in read() has a writer still
      // connected, whose end (bounded by run()) gives it its end of file.
      for (int i = 0; i < 1000; ++i) {
        const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) ::close(fd);
        lock.lock();
        const bool done = cv_.wait_for(lock, std::chrono::milliseconds(50), [this] { return done_; });
        lock.unlock();
        if (done) break;
      }
    } else {
      lock.unlock();
    }
    thread_.join();  // the reader has ended (or the loop above gave up: then this is where a bug would show)
    return text_;
  }
  bool timed_out() const { return timed_out_; }

 private:
  std::string path_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false, timed_out_ = false;
  std::string text_;
  std::thread thread_;
};

// ---------------------------------------------------------------- processes

struct RunResult {
  int exit_code = -1;  // -1: killed by a signal
  int signal = 0;
  std::string out, err;
  nlohmann::json json() const {
    auto j = nlohmann::json::parse(out, nullptr, false);
    return j;
  }
};

// Starts `args` (args[0] the executable path) with stdout/stderr going to the
// given files, and `env` ("NAME=value" each) added to its environment.
// Returns the child's pid.
inline pid_t spawn(const std::vector<std::string>& args, const std::string& out_path, const std::string& err_path,
                   const std::vector<std::string>& env = {}) {
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int i = open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || i < 0) _exit(126);
    dup2(i, 0);
    dup2(o, 1);
    dup2(e, 2);
    for (const auto& kv : env) putenv(const_cast<char*>(kv.c_str()));
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

inline void decode_status(int status, RunResult* r) {
  if (WIFEXITED(status)) {
    r->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r->exit_code = -1;
    r->signal = WTERMSIG(status);
  }
}

// The longest a test waits for a child process (seconds): past it the child
// is killed and the test fails, naming it.  $SGFPAT_TEST_CHILD_SECONDS sets
// it (default 600: no sgfpat run of the tests comes near it).
inline double child_limit_seconds() {
  const char* env = std::getenv("SGFPAT_TEST_CHILD_SECONDS");
  const double s = env && *env ? std::atof(env) : 0;
  return s > 0 ? s : 600;
}

// Waits for `pid` to end, at most `seconds`; a child still running then is
// killed (SIGKILL) and reaped, and false returned.  *status as waitpid's.
inline bool wait_bounded(pid_t pid, int* status, double seconds = child_limit_seconds()) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (auto pause = std::chrono::microseconds(200);; pause = std::min(pause * 2, std::chrono::microseconds(50000))) {
    const pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // not our child (already reaped)
    if (std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(pause);
  }
  ::kill(pid, SIGKILL);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
  return false;
}

// Runs `args` to completion (a child that outlives child_limit_seconds() is
// killed and the test fails).  `scratch` is a directory for the output files.
inline RunResult run(const std::vector<std::string>& args, const std::string& scratch) {
  static int serial = 0;
  std::string o = scratch + "/run" + std::to_string(++serial) + ".out";
  std::string e = scratch + "/run" + std::to_string(serial) + ".err";
  pid_t pid = spawn(args, o, e);
  int status = 0;
  const bool ended = wait_bounded(pid, &status);
  RunResult r;
  decode_status(status, &r);
  r.out = read_file(o);
  r.err = read_file(e);
  if (!ended) {
    std::string line;
    for (const auto& a : args) line += " " + a;
    FAIL_CHECK("killed after " << child_limit_seconds() << " s, still running:" << line << "\nstderr: " << r.err);
  }
  return r;
}

// The environment entry that makes a child die at fail point `point`
// ("name" or "name@N", lib/core/fail_point.h).
inline std::string fail_point_env(const std::string& point) { return "SGFPAT_FAIL_POINT=" + point; }

// What a child that died at fail point `name` wrote last: the kill was
// that fail point's, not a crash nor another kill.
inline bool died_at_fail_point(const RunResult& r, const std::string& name) {
  return r.signal == SIGKILL && r.err.find("sgfpat: fail point " + name) != std::string::npos;
}

// A child process the test watches and may kill at a progress line.  Every
// wait is bounded by child_limit_seconds() (past it the child is killed and
// the test fails).
class Child {
 public:
  Child(const std::vector<std::string>& args, const std::string& dir, const std::string& tag,
        const std::vector<std::string>& env = {})
      : out_(dir + "/" + tag + ".out"), err_(dir + "/" + tag + ".err") {
    start_ = std::chrono::steady_clock::now();
    pid_ = spawn(args, out_, err_, env);
  }
  ~Child() {
    if (!done_) kill9();
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool running() {
    if (done_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      end(status);
      return false;
    }
    return true;
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  const std::string& err_path() const { return err_; }
  std::string err_text() const { return read_file(err_); }
  // Kills the child with SIGKILL; true if it was still running.
  bool kill9() {
    if (!running()) return false;
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    end(status);
    return result_.signal == SIGKILL;
  }
  // Waits until the child's stderr holds `text` (a progress line, written
  // with --progress), then kills it: true if it was killed there, false if
  // it ended first.
  bool kill_at_line(const std::string& text) {
    const auto deadline = start_ + std::chrono::duration<double>(child_limit_seconds());
    while (running() && err_text().find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline) {
        FAIL_CHECK("no \"" << text << "\" after " << child_limit_seconds() << " s; stderr: " << err_text());
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return kill9();
  }
  // Waits for the end (bounded).
  RunResult wait() {
    if (!done_) {
      int status = 0;
      const double left = std::max(1.0, child_limit_seconds() - elapsed());
      if (!wait_bounded(pid_, &status, left))
        FAIL_CHECK("killed after " << child_limit_seconds() << " s, still running; stderr: " << err_text());
      end(status);
    }
    return result_;
  }
  const RunResult& result() const { return result_; }

 private:
  void end(int status) {
    done_ = true;
    decode_status(status, &result_);
    result_.out = read_file(out_);
    result_.err = read_file(err_);
  }
  std::string out_, err_;
  pid_t pid_ = -1;
  std::chrono::steady_clock::time_point start_;
  bool done_ = false;
  RunResult result_;
};

// Opens the database at `path` with RocksDB alone, behind PatternDb's back,
// and calls f(db, handle of `family`) ("default" for meta): for writing
// what sgfpat never would.  Every family the database has is opened,
// whichever sgfpat made it.
template <class F>
void with_raw_family(const std::string& path, const std::string& family, F&& f) {
  rocksdb::DBOptions options;
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(options, path, &names).ok());
  const size_t at = size_t(std::find(names.begin(), names.end(), family) - names.begin());
  REQUIRE(at < names.size());
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const auto& n : names) cfs.push_back({n, {}});
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(options, path, cfs, &handles, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  f(*db, handles[at]);
  for (auto* h : handles) CHECK(db->DestroyColumnFamilyHandle(h).ok());
  CHECK(db->Close().ok());
}

// Writes `value` under `key` in `family` of the database at `path`, to
// plant damage.
inline void put_raw(const std::string& path, const std::string& family, const std::string& key,
                    const std::string& value) {
  with_raw_family(path, family, [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
    CHECK(db.Put(rocksdb::WriteOptions(), cf, key, value).ok());
  });
}

// The value under `key` in `family` of the database at `path` (REQUIREd
// present).
inline std::string get_raw(const std::string& path, const std::string& family, const std::string& key) {
  std::string value;
  with_raw_family(path, family, [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
    REQUIRE(db.Get(rocksdb::ReadOptions(), cf, key, &value).ok());
  });
  return value;
}

// The counts key of the spec of pattern_db.h: generation (4, BE), level, key (8, BE).
inline std::string counts_key(uint32_t gen, int level, uint64_t key) {
  std::string k(13, '\0');
  sgfpat::encode_fixed32_be(k.data(), gen);
  k[4] = char(level);
  sgfpat::encode_fixed64_be(k.data() + 5, key);
  return k;
}

// Deletes `key` from `family` of the database at `path` (a lost entry).
inline void delete_raw(const std::string& path, const std::string& family, const std::string& key) {
  with_raw_family(path, family, [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
    CHECK(db.Delete(rocksdb::WriteOptions(), cf, key).ok());
  });
}

// The table files of a column family, largest first.
inline std::vector<std::string> tables_of(const std::string& db, const std::string& family) {
  std::vector<std::pair<uintmax_t, std::string>> found;
  for (const auto& e : std::filesystem::directory_iterator(db)) {
    if (e.path().extension() != ".sst") continue;
    rocksdb::SstFileReader reader{rocksdb::Options()};
    REQUIRE(reader.Open(e.path().string()).ok());
    if (reader.GetTableProperties()->column_family_name == family) found.push_back({e.file_size(), e.path().string()});
  }
  std::sort(found.rbegin(), found.rend());
  std::vector<std::string> paths;
  for (auto& f : found) paths.push_back(f.second);
  return paths;
}

// The sgfpat binary under test: $SGFPAT_TEST_BINARY (to run the tests
// against another build, e.g. the baseline) or the one built beside them.
inline std::string sgfpat_binary() {
  const char* b = std::getenv("SGFPAT_TEST_BINARY");
  return b && *b ? b : SGFPAT_BINARY;
}

// Runs `sgfpat ARGS...` to completion.
inline RunResult run_cli(std::vector<std::string> args, const std::string& scratch) {
  args.insert(args.begin(), sgfpat_binary());
  return run(args, scratch);
}

inline std::vector<std::string> ingest_args(const std::string& db, const std::vector<std::string>& extra,
                                            const std::vector<std::string>& inputs) {
  std::vector<std::string> a = {SGFPAT_BINARY, "ingest", "--db", db, "--json", "--quiet"};
  a.insert(a.end(), extra.begin(), extra.end());
  a.insert(a.end(), inputs.begin(), inputs.end());
  return a;
}

// Runs an ingest that must succeed, and returns its --json summary.
inline nlohmann::json ingest_ok(const std::string& db, const std::vector<std::string>& extra,
                                const std::vector<std::string>& inputs, const std::string& scratch) {
  RunResult r = run(ingest_args(db, extra, inputs), scratch);
  INFO("stderr: " << r.err);
  INFO("stdout: " << r.out);
  REQUIRE(r.exit_code == 0);
  nlohmann::json j = r.json();
  REQUIRE(j.is_object());
  return j;
}

// ---------------------------------------------------------------- databases

using CountKey = std::pair<int, uint64_t>;  // (level, key)

struct DbSnapshot {
  bool opened = false;
  std::string error;
  uint32_t generation = 0;
  uint64_t game_count = 0;
  sgfpat::CountSummary summary;
  sgfpat::DbSettings settings;
  std::map<CountKey, sgfpat::PatternCounts> counts;  // every stored count of the current generation
  std::map<CountKey, sgfpat::PendingPattern> pending;  // the patterns waiting for a catch-up
  std::map<CountKey, sgfpat::PatternCounts> reported() const {
    std::map<CountKey, sgfpat::PatternCounts> r;
    for (const auto& [k, c] : counts)
      if (c.played >= uint64_t(settings.min_played)) r.emplace(k, c);
    return r;
  }
};

// Opens `path` read-only (a secondary instance, as readers do) and reads
// everything of its current generation.
inline DbSnapshot read_db(const std::string& path) {
  DbSnapshot snap;
  sgfpat::OpenOptions opts;
  opts.secondary = true;
  std::unique_ptr<sgfpat::PatternDb> db;
  sgfpat::Status s = sgfpat::PatternDb::Open(path, opts, &db);
  if (!s.ok()) {
    snap.error = s.message();
    return snap;
  }
  snap.opened = true;
  snap.generation = db->generation();
  snap.game_count = db->game_count();
  snap.summary = db->summary();
  snap.settings = db->settings();
  s = db->for_each_count(0, [&](int level, uint64_t key, const sgfpat::PatternCounts& c) {
    snap.counts[{level, key}] = c;
    return true;
  });
  if (s.ok())
    s = db->for_each_pending_pattern([&](const sgfpat::PendingPattern& p) {
      snap.pending[{p.level, p.key}] = p;
      return true;
    });
  if (!s.ok()) {
    snap.opened = false;
    snap.error = s.message();
  }
  return snap;
}

// Two databases opened, holding the same games with the same totals
// counted (games, positions, candidates).
inline void check_same_totals(const DbSnapshot& a, const DbSnapshot& b) {
  INFO(a.error << b.error);
  REQUIRE(a.opened);
  REQUIRE(b.opened);
  CHECK(a.game_count == b.game_count);
  CHECK(a.summary.games == b.summary.games);
  CHECK(a.summary.positions == b.summary.positions);
  CHECK(a.summary.candidates == b.summary.candidates);
}

inline bool same_counts(const sgfpat::PatternCounts& a, const sgfpat::PatternCounts& b) {
  return a.played == b.played && a.seen == b.seen && a.wins == b.wins;
}

// Compares two count maps; describes at most `max_shown` differences into
// *why.  Returns the number of differences.
inline size_t diff_counts(const std::map<CountKey, sgfpat::PatternCounts>& a,
                          const std::map<CountKey, sgfpat::PatternCounts>& b, std::string* why,
                          size_t max_shown = 8) {
  size_t diffs = 0;
  std::ostringstream o;
  auto show = [&](const CountKey& k, const sgfpat::PatternCounts* x, const sgfpat::PatternCounts* y) {
    if (++diffs > max_shown) return;
    o << "  level " << k.first << " key " << std::hex << k.second << std::dec << ": ";
    if (x) o << "(" << x->played << "," << x->seen << "," << x->wins << ")"; else o << "absent";
    o << " vs ";
    if (y) o << "(" << y->played << "," << y->seen << "," << y->wins << ")"; else o << "absent";
    o << "\n";
  };
  auto ia = a.begin();
  auto ib = b.begin();
  while (ia != a.end() || ib != b.end()) {
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
      show(ia->first, &ia->second, nullptr);
      ++ia;
    } else if (ia == a.end() || ib->first < ia->first) {
      show(ib->first, nullptr, &ib->second);
      ++ib;
    } else {
      if (!same_counts(ia->second, ib->second)) show(ia->first, &ia->second, &ib->second);
      ++ia;
      ++ib;
    }
  }
  if (why) *why = o.str();
  return diffs;
}

// ------------------------------------------------- independent rules engine

// Colors as ints: 0 empty, 1 black, 2 white (same values as sgfpat::Color).
// A plain array board; every question is answered by flood fills.
class MiniBoard {
 public:
  enum Err { kOk = 0, kOccupied, kSuicide, kKo, kOffBoard };

  explicit MiniBoard(int n = 19) : n_(n), g_(size_t(n * n), 0), mark_(size_t(n * n), 0) {}
  int size() const { return n_; }
  int at(int x, int y) const { return g_[size_t(y * n_ + x)]; }
  bool on(int x, int y) const { return x >= 0 && y >= 0 && x < n_ && y < n_; }

  void setup(int x, int y, int c) {
    g_[size_t(y * n_ + x)] = int8_t(c);
    ko_ = -1;
  }
  void pass() { ko_ = -1; }

  // Plays color c at (x, y) with the spec's rules.
  Err play(int x, int y, int c, bool allow_suicide) {
    if (!on(x, y)) return kOffBoard;
    int p = y * n_ + x;
    if (g_[size_t(p)] != 0) return kOccupied;
    if (p == ko_ && c == ko_color_) return kKo;
    g_[size_t(p)] = int8_t(c);
    int opp = 3 - c;
    int captured = 0, captured_at = -1;
    for (int q : neighbours(p)) {
      if (g_[size_t(q)] != opp) continue;
      std::vector<int> stones;
      if (chain(q, &stones) == 0) {
        for (int s : stones) g_[size_t(s)] = 0;
        captured += int(stones.size());
        captured_at = stones[0];
      }
    }
    std::vector<int> own;
    int libs = chain(p, &own);
    if (libs == 0) {
      if (!allow_suicide) return kSuicide;  // the record is rejected: the board no longer matters
      for (int s : own) g_[size_t(s)] = 0;
    }
    if (captured == 1 && own.size() == 1 && libs == 1) {
      ko_ = captured_at;
      ko_color_ = opp;
    } else {
      ko_ = -1;
    }
    return kOk;
  }

  // Every empty point where c may play now (spec "candidates"), row-major.
  std::vector<std::pair<int, int>> candidates(int c, bool allow_suicide) {
    // Label chains and count their distinct liberties.
    std::vector<int> label(g_.size(), -1), libs;
    for (int p = 0; p < int(g_.size()); ++p) {
      if (g_[size_t(p)] == 0 || label[size_t(p)] >= 0) continue;
      std::vector<int> stones;
      int l = chain(p, &stones);
      for (int s : stones) label[size_t(s)] = int(libs.size());
      libs.push_back(l);
    }
    std::vector<std::pair<int, int>> out;
    for (int p = 0; p < int(g_.size()); ++p) {
      if (g_[size_t(p)] != 0) continue;
      if (p == ko_ && c == ko_color_) continue;
      bool ok = allow_suicide;
      for (int q : neighbours(p)) {
        int v = g_[size_t(q)];
        if (v == 0) ok = true;
        else if (v == c && libs[size_t(label[size_t(q)])] >= 2) ok = true;
        else if (v != c && libs[size_t(label[size_t(q)])] == 1) ok = true;
      }
      if (ok) out.push_back({p % n_, p / n_});
    }
    return out;
  }

 private:
  std::vector<int> neighbours(int p) const {
    std::vector<int> r;
    int x = p % n_, y = p / n_;
    if (y > 0) r.push_back(p - n_);
    if (x < n_ - 1) r.push_back(p + 1);
    if (y < n_ - 1) r.push_back(p + n_);
    if (x > 0) r.push_back(p - 1);
    return r;
  }
  // Stones of the chain at p into *stones; returns its distinct liberties.
  int chain(int p, std::vector<int>* stones) {
    ++stamp_;
    int color = g_[size_t(p)];
    std::vector<int> todo = {p};
    mark_[size_t(p)] = stamp_;
    int libs = 0;
    while (!todo.empty()) {
      int q = todo.back();
      todo.pop_back();
      stones->push_back(q);
      for (int r : neighbours(q)) {
        if (mark_[size_t(r)] == stamp_) continue;
        if (g_[size_t(r)] == 0) {
          mark_[size_t(r)] = stamp_;
          ++libs;
        } else if (g_[size_t(r)] == color) {
          mark_[size_t(r)] = stamp_;
          todo.push_back(r);
        }
      }
    }
    return libs;
  }

  int n_;
  std::vector<int8_t> g_;
  std::vector<uint32_t> mark_;
  uint32_t stamp_ = 0;
  int ko_ = -1;
  int ko_color_ = 0;
};

// What a game *is* for deduplication (board size and every action), written
// independently of the store's fingerprint.
inline std::string content_key(const sgfpat::Game& g) {
  std::string k = std::to_string(g.info.size) + ":";
  for (const auto& a : g.actions) {
    k += char('0' + int(a.kind));
    k += char('0' + int(a.color));
    k += char('a' + a.point.x + 1);
    k += char('a' + a.point.y + 1);
  }
  return k;
}

// Winner named by RE, read independently: "B+..." or "W+...".  0 if none.
inline int re_winner(const std::string& re) {
  size_t i = re.find_first_not_of(" \t\r\n");
  if (i == std::string::npos || i + 1 >= re.size() || re[i + 1] != '+') return 0;
  return re[i] == 'B' ? 1 : re[i] == 'W' ? 2 : 0;
}

// Replays a parsed game with MiniBoard.  Calls visit(board, mover, x, y) before
// every non-pass move.  Returns false (and visits nothing more) if a move is
// illegal.
template <class Visit>
bool mini_replay(const sgfpat::Game& game, Visit&& visit) {
  MiniBoard b(game.info.size);
  bool suicide = game.info.suicide_allowed();
  for (const auto& a : game.actions) {
    using K = sgfpat::Action::Kind;
    if (a.kind == K::Setup) {
      if (b.on(a.point.x, a.point.y)) b.setup(a.point.x, a.point.y, int(a.color));
    } else if (a.kind == K::Play) {
      if (a.point.is_pass()) {
        b.pass();
        continue;
      }
      visit(b, int(a.color), int(a.point.x), int(a.point.y));
      if (b.play(a.point.x, a.point.y, int(a.color), suicide) != MiniBoard::kOk) return false;
    }
  }
  return true;
}

// Parses every line of `lines` (one game each) and keeps the games an import
// must store: legal records, first copy of each content.  *rejected and
// *duplicates get the numbers of the others.
inline std::vector<sgfpat::Game> expected_stored_games(const std::vector<std::string>& lines, size_t* rejected,
                                                       size_t* duplicates) {
  std::vector<sgfpat::Game> out;
  std::map<std::string, int> seen;
  *rejected = *duplicates = 0;
  for (const auto& line : lines) {
    sgfpat::Game g;
    if (!sgfpat::parse_game(line, &g).ok()) {
      ++*rejected;
      continue;
    }
    bool legal = mini_replay(g, [](MiniBoard&, int, int, int) {});
    if (!legal) {
      ++*rejected;
      continue;
    }
    if (!seen.emplace(content_key(g), 1).second) {
      ++*duplicates;
      continue;
    }
    out.push_back(std::move(g));
  }
  return out;
}

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace testutil

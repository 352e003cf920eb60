// The pattern database reports what went wrong by code: a missing database,
// one locked by another writer, damaged files and damaged stored values are
// told apart without reading the message, and nothing throws.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <rocksdb/db.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "store/game_record.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;
namespace fs = std::filesystem;

namespace {

OpenOptions writer_options() {
  OpenOptions o;
  o.create_if_missing = true;
  return o;
}

// A database with one committed generation of counts (so that it has a
// table file) and no other content.
void make_db(const std::string& path) {
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(path, writer_options(), &db).ok());
  uint32_t gen = 0;
  REQUIRE(db->begin_generation(&gen).ok());
  std::vector<std::tuple<int, uint64_t, PatternCounts>> counts;
  for (uint64_t k = 0; k < 1000; ++k) counts.emplace_back(1, k * 0x9e3779b97f4a7c15ULL, PatternCounts{k + 2, k + 5, 1});
  REQUIRE(db->add_counts(gen, counts).ok());
  REQUIRE(db->commit_generation(gen, CountSummary{}).ok());
}


// A RocksDB database with the default column family only (what a creation
// killed after CURRENT leaves), holding one entry of another program's if
// `with_entry`.
void make_plain_rocksdb(const std::string& path, bool with_entry) {
  rocksdb::Options o;
  o.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(o, path, &raw).ok());
  std::unique_ptr<rocksdb::DB> rdb(raw);
  if (with_entry) REQUIRE(rdb->Put(rocksdb::WriteOptions(), "theirs", "1").ok());
  REQUIRE(rdb->Close().ok());
}

// A child process holding the fcntl write lock RocksDB's writer takes on
// the database's LOCK file, as a process creating the database does, until
// destroyed.
class LockHolder {
 public:
  explicit LockHolder(const std::string& path) {
    const std::string lock = path + "/LOCK";  // before the fork: the child only makes system calls
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    child_ = ::fork();
    REQUIRE(child_ >= 0);
    if (child_ == 0) {
      const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT, 0644);
      struct flock fl {};
      fl.l_type = F_WRLCK;
      fl.l_whence = SEEK_SET;
      const bool locked = fd >= 0 && ::fcntl(fd, F_SETLK, &fl) == 0;
      const char ok = locked ? 'y' : 'n';
      if (::write(ready[1], &ok, 1) != 1 || !locked) ::_exit(1);
      ::pause();
      ::_exit(0);
    }
    // Only the child writes: its end (or death) gives the read below an
    // answer or an end of file, never a wait for good.
    ::close(ready[1]);
    char ok = 0;
    const bool got = ::read(ready[0], &ok, 1) == 1;
    ::close(ready[0]);
    if (!got || ok != 'y') stop();  // the destructor will not run
    REQUIRE(got);
    REQUIRE(ok == 'y');
  }
  ~LockHolder() { stop(); }
  LockHolder(const LockHolder&) = delete;
  LockHolder& operator=(const LockHolder&) = delete;

 private:
  void stop() {
    if (child_ <= 0) return;
    ::kill(child_, SIGKILL);
    ::waitpid(child_, nullptr, 0);
    child_ = -1;
  }
  pid_t child_ = -1;
};

}  // namespace

TEST_CASE("no database at the path: NotFound") {
  TempDir tmp("sgfpat-store-errors");
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(tmp / "none", &db);
  CHECK(st.is_not_found());
  CHECK(st.message().find("no pattern database") != std::string::npos);
  CHECK_FALSE(db);
}

TEST_CASE("a creation killed before the key scheme's write is made again; a database that lost only its key scheme is reported") {
  TempDir tmp("sgfpat-store-errors");
  const std::string path = tmp / "db";
  {
    std::unique_ptr<PatternDb> db;
    REQUIRE(PatternDb::Open(path, writer_options(), &db).ok());
  }
  // What a kill between RocksDB's files and the first write leaves.
  testutil::delete_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme");
  testutil::delete_raw(path, rocksdb::kDefaultColumnFamilyName, "position_index");
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(path, &db);
  CHECK(st.is_corruption());  // a reader makes nothing
  OpenOptions no_create;       // nor a writer not asked to create (repair)
  st = PatternDb::Open(path, no_create, &db);
  CHECK(st.is_corruption());
  OpenOptions again = writer_options();
  again.settings.min_played = 3;  // the new run's settings
  st = PatternDb::Open(path, again, &db);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(db->settings().min_played == 3);
  db.reset();
  REQUIRE(PatternDb::OpenReader(path, &db).ok());
  CHECK(db->settings().min_played == 3);
  db.reset();

  // Counts but no key scheme: damage, never taken for a new database.
  const std::string lost = tmp / "lost";
  make_db(lost);
  testutil::delete_raw(lost, rocksdb::kDefaultColumnFamilyName, "scheme");
  st = PatternDb::Open(lost, writer_options(), &db);
  CHECK(st.is_corruption());
  CHECK(st.message().find("no key scheme") != std::string::npos);
  CHECK_FALSE(db);
}

TEST_CASE("what a creation killed before RocksDB wrote CURRENT left is cleared and the database made; a logged write is not") {
  TempDir tmp("sgfpat-store-errors");
  auto leave = [&](const std::string& path, const std::vector<std::pair<std::string, std::string>>& files) {
    fs::create_directories(path);
    for (const auto& [name, text] : files) testutil::write_file(path + "/" + name, text);
  };
  // The diary's LOG alone (made just before RocksDB opens), then RocksDB's
  // first files with an empty write-ahead log.
  leave(tmp / "log-only", {{"LOG", "2026/11/27-10:00:00 opening\n"}});
  leave(tmp / "first-files", {{"LOG", ""}, {"LOCK", ""}, {"IDENTITY", "0d6e5c9f"}, {"MANIFEST-000001", "cut short"},
                              {"OPTIONS-000005.dbtmp", "[Version]"}, {"000004.log", ""}});
  for (const char* name : {"log-only", "first-files"}) {
    const std::string path = tmp / name;
    std::unique_ptr<PatternDb> db;
    Status st = PatternDb::OpenReader(path, &db);
    CHECK(st.is_not_found());  // a reader clears nothing
    st = PatternDb::Open(path, writer_options(), &db);
    REQUIRE_MESSAGE(st.ok(), st.message());
    db.reset();
    REQUIRE(PatternDb::OpenReader(path, &db).ok());
    CHECK(db->game_count() == 0);
    CHECK_FALSE(fs::exists(path + "/MANIFEST-000001"));
  }
  // Another process holding the leftover's lock is creating it: Busy,
  // nothing removed.
  leave(tmp / "locked", {{"LOG", ""}, {"LOCK", ""}, {"MANIFEST-000001", "x"}});
  {
    auto holder = std::make_unique<LockHolder>(tmp / "locked");
    std::unique_ptr<PatternDb> db;
    Status st = PatternDb::Open(tmp / "locked", writer_options(), &db);
    CHECK(st.is_busy());
    CHECK(fs::exists(tmp / "locked/MANIFEST-000001"));
    holder.reset();
    st = PatternDb::Open(tmp / "locked", writer_options(), &db);
    CHECK_MESSAGE(st.ok(), st.message());
  }
  // A write-ahead log with something in it, or another file: refused, kept.
  leave(tmp / "logged", {{"LOCK", ""}, {"MANIFEST-000001", "x"}, {"000004.log", "a logged write"}});
  leave(tmp / "other", {{"LOG", ""}, {"notes.txt", "mine"}});
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::Open(tmp / "logged", writer_options(), &db);
  CHECK(st.is_corruption());
  CHECK(fs::exists(tmp / "logged/000004.log"));
  st = PatternDb::Open(tmp / "other", writer_options(), &db);
  CHECK(st.is_invalid_argument());
  CHECK(fs::exists(tmp / "other/LOG"));

  // CURRENT written, the column families made one by one: killed after the
  // first, nothing in it.  With an entry, it is somebody's data: refused.
  for (const bool with_entry : {false, true}) {
    const std::string path = tmp / (with_entry ? "cf-entry" : "cf-first");
    make_plain_rocksdb(path, with_entry);
    st = PatternDb::Open(path, writer_options(), &db);
    if (!with_entry) {
      REQUIRE_MESSAGE(st.ok(), st.message());
      db.reset();
      REQUIRE(PatternDb::OpenReader(path, &db).ok());
      db.reset();
    } else {
      CHECK(st.is_corruption());
      CHECK(st.message().find("not made by sgfpat") != std::string::npos);
      std::string v;
      rocksdb::DB* raw = nullptr;
      REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), path, &raw).ok());
      std::unique_ptr<rocksdb::DB> rdb(raw);
      CHECK(rdb->Get(rocksdb::ReadOptions(), "theirs", &v).ok());
    }
  }
}

TEST_CASE("a reader of a database another process is still creating: Busy, not damage; the same leftovers unlocked are reported") {
  TempDir tmp("sgfpat-store-errors");
  // The three states a creation passes through before its first write:
  // RocksDB's first files without CURRENT, some of the column families,
  // all of them without the key scheme.
  const std::string first = tmp / "first-files";
  fs::create_directories(first);
  for (const char* name : {"LOG", "LOCK", "000004.log"}) testutil::write_file(first + "/" + name, "");
  testutil::write_file(first + "/MANIFEST-000001", "x");
  const std::string partial = tmp / "partial";
  make_plain_rocksdb(partial, false);
  const std::string unschemed = tmp / "unschemed";
  {
    std::unique_ptr<PatternDb> db;
    REQUIRE(PatternDb::Open(unschemed, writer_options(), &db).ok());
  }
  testutil::delete_raw(unschemed, rocksdb::kDefaultColumnFamilyName, "scheme");
  testutil::delete_raw(unschemed, rocksdb::kDefaultColumnFamilyName, "position_index");
  for (const std::string& path : {first, partial, unschemed}) {
    CAPTURE(path);
    std::unique_ptr<PatternDb> db;
    {
      LockHolder creator(path);
      Status st = PatternDb::OpenReader(path, &db);
      CHECK_MESSAGE(st.is_busy(), st.message());
      CHECK(st.message().find("being created") != std::string::npos);
      OpenOptions no_create;  // nor a writer not asked to create (repair)
      st = PatternDb::Open(path, no_create, &db);
      CHECK_MESSAGE(st.is_busy(), st.message());
      CHECK_FALSE(db);
    }
    // Nobody holds it: what a kill left, reported as before.
    Status st = PatternDb::OpenReader(path, &db);
    CHECK_FALSE(st.is_busy());
    CHECK((path == first ? st.is_not_found() : st.is_corruption()));
  }
  // A database with an entry under another process's lock is no creation:
  // it is still reported for what it is (here: sgfpat's, its key scheme
  // lost, its counts there; then another program's).
  const std::string lost = tmp / "lost";
  make_db(lost);
  testutil::delete_raw(lost, rocksdb::kDefaultColumnFamilyName, "scheme");
  {
    LockHolder writer(lost);
    std::unique_ptr<PatternDb> db;
    Status st = PatternDb::OpenReader(lost, &db);
    CHECK_MESSAGE(st.is_corruption(), st.message());
    CHECK(st.message().find("no key scheme") != std::string::npos);
  }
  const std::string theirs = tmp / "theirs";
  make_plain_rocksdb(theirs, true);
  LockHolder other(theirs);
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(theirs, &db);
  CHECK(st.is_corruption());
  CHECK(st.message().find("not made by sgfpat") != std::string::npos);
}

TEST_CASE("a database another process writes: Busy, and a reader still opens it") {
  TempDir tmp("sgfpat-store-errors");
  const std::string path = tmp / "db";
  make_db(path);
  // The child takes the write lock RocksDB takes (an fcntl lock on LOCK)
  // and holds it until the parent is done.
  int ready[2], done[2];
  REQUIRE(::pipe(ready) == 0);
  REQUIRE(::pipe(done) == 0);
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int fd = ::open((path + "/LOCK").c_str(), O_RDWR);
    struct flock lk {};
    lk.l_type = F_WRLCK;
    lk.l_whence = SEEK_SET;
    char c = (fd >= 0 && ::fcntl(fd, F_SETLK, &lk) == 0) ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    // Holds the lock until the parent says so, or ends (its end of the pipe
    // closes), or 60 s pass: never outlives a failed test for good.
    pollfd p{done[0], POLLIN, 0};
    (void)::poll(&p, 1, 60000);
    ::_exit(0);
  }
  ::close(ready[1]);  // the child's end: its death gives the read an end of file
  ::close(done[0]);
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  CHECK(c == 'y');
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::Open(path, OpenOptions{}, &db);
  INFO(st.to_string());
  CHECK(st.is_busy());
  CHECK(st.message().find("in use by another writer") != std::string::npos);
  // Readers do not take the lock.
  std::unique_ptr<PatternDb> reader;
  Status rs = PatternDb::OpenReader(path, &reader);
  CHECK_MESSAGE(rs.ok(), rs.to_string());
  (void)!::write(done[1], "x", 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  for (int fd : {ready[0], done[1]}) ::close(fd);
  // The lock gone, the writer opens.
  reader.reset();
  st = PatternDb::Open(path, OpenOptions{}, &db);
  CHECK_MESSAGE(st.ok(), st.to_string());
}

TEST_CASE("damaged table files: Corruption, never 'in use by another writer'") {
  // RocksDB's messages about damaged blocks contain "block", in which the
  // old code found "lock" and blamed another writer.
  TempDir tmp("sgfpat-store-errors");
  const std::string path = tmp / "db";
  make_db(path);
  // Every byte but the footer's: RocksDB then finds a block whose checksum
  // does not match ("Corruption: block checksum mismatch ...").
  size_t garbled = 0;
  for (const auto& e : fs::directory_iterator(path)) {
    if (e.path().extension() != ".sst") continue;
    std::string bytes = testutil::read_file(e.path().string());
    REQUIRE(bytes.size() > 64);
    std::fill(bytes.begin(), bytes.end() - 64, 'x');
    testutil::write_file(e.path().string(), bytes);
    ++garbled;
  }
  REQUIRE(garbled > 0);
  for (bool reader : {false, true}) {
    INFO("reader " << reader);
    std::unique_ptr<PatternDb> db;
    Status st = reader ? PatternDb::OpenReader(path, &db) : PatternDb::Open(path, OpenOptions{}, &db);
    INFO(st.to_string());
    CHECK(st.is_corruption());
    CHECK_FALSE(st.is_busy());
    CHECK(st.message().find("another writer") == std::string::npos);
    if (!reader) CHECK(st.message().find("block") != std::string::npos);  // the case that fooled the old code
  }
}

TEST_CASE("a malformed stored value is Corruption, not an exception") {
  // The game count used to go through std::stoull, which threw.
  TempDir tmp("sgfpat-store-errors");
  for (const std::string& bad :
       {std::string("12x"), std::string(""), std::string("-1"), std::string("99999999999999999999999")}) {
    INFO("games = '" << bad << "'");
    const std::string path = tmp / ("db" + std::to_string(bad.size()) + bad.substr(0, 1));
    make_db(path);
    testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "games", bad);
    std::unique_ptr<PatternDb> db;
    Status st;
    CHECK_NOTHROW(st = PatternDb::Open(path, OpenOptions{}, &db));
    CHECK(st.is_corruption());
    CHECK(st.message().find("games") != std::string::npos);
    CHECK_NOTHROW(st = PatternDb::OpenReader(path, &db));
    CHECK(st.is_corruption());
  }
  // A generation beyond 32 bits cannot be one this program wrote.
  const std::string path = tmp / "gen";
  make_db(path);
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "generation", "4294967296");
  std::unique_ptr<PatternDb> db;
  CHECK(PatternDb::Open(path, OpenOptions{}, &db).is_corruption());
  // A well-formed value opens.
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "generation", "7");
  Status st = PatternDb::Open(path, OpenOptions{}, &db);
  REQUIRE_MESSAGE(st.ok(), st.to_string());
  CHECK(db->generation() == 7);
}

TEST_CASE("a reader cannot write; a damaged game record is Corruption") {
  TempDir tmp("sgfpat-store-errors");
  const std::string path = tmp / "db";
  make_db(path);
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(path, &db).ok());
  uint32_t gen = 0;
  CHECK(db->begin_generation(&gen).is_not_supported());
  CHECK(db->add_games({}, 0).is_not_supported());

  Game g;
  CHECK(decode_game("", &g).is_corruption());
  CHECK(decode_game(std::string("\x7f garbage", 9), &g).is_corruption());
  // A real record cut short.
  g.info.size = 9;
  g.actions = {Action{Action::Kind::Play, Color::Black, Point{2, 2}},
               Action{Action::Kind::Play, Color::White, Point{6, 6}}};
  std::string rec = encode_game(g);
  Game back;
  REQUIRE(decode_game(rec, &back).ok());
  rec.pop_back();
  CHECK(decode_game(rec, &back).is_corruption());
}

// Damaged and foreign databases: refused with what is wrong and what to
// do, never answered silently, never made worse.  Ends with a bounded damage
// campaign (scripts/damage_campaign.sh runs more seeds): bytes flipped in
// every file of a counted database, and every command either answers exactly
// as on the undamaged database or exits non-zero with a message.
//
// SGFPAT_TEST_BINARY=/path/to/sgfpat runs them against another build.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "store/wal_check.h"
#include "test_util.h"

using namespace testutil;

namespace {

std::string corpus_games(size_t first, size_t n) {
  return join(sample_lines(first, n));
}

// name -> size of the files of a directory (LOG files aside: RocksDB's own
// diary, rewritten at every open).
std::map<std::string, uintmax_t> files_of(const std::string& dir) {
  std::map<std::string, uintmax_t> m;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("LOG", 0) == 0 || name == "LOCK") continue;
    m[name] = e.is_regular_file() ? e.file_size() : 0;
  }
  return m;
}

void flip(const std::string& path, size_t offset, unsigned char mask) {
  std::string b = read_file(path);
  REQUIRE(offset < b.size());
  b[offset] = char(b[offset] ^ mask);
  write_file(path, b);
}

// A small counted database, built once per test binary.
struct Built {
  TempDir dir{"sgfpat-damage"};
  std::string db = dir / "pristine";
  std::string games = dir / "g.sgf";
  Built() {
    write_file(games, corpus_games(0, 60));
    RunResult r = run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", games}, dir.path());
    if (r.exit_code != 0) throw std::runtime_error("building the test database failed: " + r.err);
  }
};
Built& built() {
  static Built b;
  return b;
}

// A private copy of the pristine database.
std::string copy_db(const std::string& to) {
  fs::remove_all(to);
  fs::copy(built().db, to, fs::copy_options::recursive);
  return to;
}

// stats as JSON without the fields that say where and how big.
std::string stats_answer(const RunResult& r) {
  nlohmann::json j = r.json();
  if (!j.is_object()) return r.out;
  // Where it is, how big on disk and how long it took are not answers.
  std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& x) {
    if (x.is_object()) {
      for (const char* k : {"db", "disk_bytes", "size_on_disk", "search_seconds", "seconds"}) x.erase(k);
      for (auto& [k, v] : x.items()) strip(v);
    } else if (x.is_array()) {
      for (auto& v : x) strip(v);
    }
  };
  strip(j);
  return j.dump();
}

}  // namespace

TEST_CASE("a database that lost its CURRENT file is refused, and nothing in it is deleted") {
  TempDir dir("sgfpat-current");
  const std::string db = copy_db(dir / "db");
  fs::remove(db + "/CURRENT");
  const auto before = files_of(db);
  for (int attempt = 0; attempt < 2; ++attempt) {
    INFO("attempt " << attempt);
    RunResult r = run_cli({"ingest", "--db", db, "--quiet", built().games}, dir.path());
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 5);
    CHECK(r.err.find("CURRENT") != std::string::npos);
    CHECK(r.err.find("repair") != std::string::npos);
    CHECK(files_of(db) == before);  // no new CURRENT, MANIFEST or log; no file removed
  }
  for (const std::string cmd : {"stats", "export"}) {
    std::vector<std::string> args = {cmd, "--db", db};
    if (cmd == "export") args.insert(args.end(), {"-o", dir / "p.priors"});
    RunResult r = run_cli(args, dir.path());
    CHECK(r.exit_code == 5);
    CHECK(r.err.find("CURRENT") != std::string::npos);
  }
  CHECK(files_of(db) == before);
}

TEST_CASE("ingest refuses a directory of other files and a database made by another program") {
  TempDir dir("sgfpat-foreign");
  fs::create_directories(dir / "mine");
  write_file(dir / "mine/notes.txt", "my notes\n");
  RunResult r = run_cli({"ingest", "--db", dir / "mine", "--quiet", built().games}, dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("not empty") != std::string::npos);
  CHECK(files_of(dir / "mine") == std::map<std::string, uintmax_t>{{"notes.txt", 9}});

  // A RocksDB database of somebody else's: one default column family.
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(o, dir / "other", &raw).ok());
    REQUIRE(raw->Put(rocksdb::WriteOptions(), "their-key", "their-value").ok());
    delete raw;
  }
  RunResult o = run_cli({"ingest", "--db", dir / "other", "--quiet", built().games}, dir.path());
  INFO("stderr: " << o.err);
  CHECK(o.exit_code == 5);
  CHECK(o.err.find("not made by sgfpat") != std::string::npos);
  std::vector<std::string> cfs;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir / "other", &cfs).ok());
  CHECK(cfs == std::vector<std::string>{"default"});
  RunResult s = run_cli({"stats", "--db", dir / "other"}, dir.path());
  CHECK(s.exit_code == 5);
  CHECK_FALSE(s.err.empty());

  // A new and an empty directory are fine.
  fs::create_directories(dir / "empty");
  CHECK(run_cli({"ingest", "--db", dir / "empty", "--quiet", built().games}, dir.path()).exit_code == 0);
}

TEST_CASE("a flipped bit near the end of the counts table: stats and export fail, the good priors file stays") {
  TempDir dir("sgfpat-flip");
  REQUIRE(run_cli({"export", "--db", built().db, "-o", dir / "good.priors"}, dir.path()).exit_code == 0);
  const std::string good = read_file(dir / "good.priors");
  const std::string db = copy_db(dir / "db");
  const auto counts = tables_of(db, "counts");
  REQUIRE_FALSE(counts.empty());
  const std::string sst = counts.front();
  REQUIRE(fs::file_size(sst) > 1000);
  flip(sst, size_t(fs::file_size(sst) - 300), 0x10);
  RunResult st = run_cli({"stats", "--db", db, "--json"}, dir.path());
  INFO("stats stderr: " << st.err);
  CHECK(st.exit_code != 0);
  CHECK_FALSE(st.err.empty());
  RunResult ex = run_cli({"export", "--db", db, "-o", dir / "good.priors"}, dir.path());
  INFO("export stderr: " << ex.err);
  CHECK(ex.exit_code != 0);
  CHECK(read_file(dir / "good.priors") == good);
  RunResult tsv = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, dir.path());
  CHECK(tsv.exit_code != 0);
}

TEST_CASE("a log record whose type byte turned recyclable: readers report the damage (RocksDB 7.8's reader looped on it)") {
  TempDir dir("sgfpat-log-type");
  const std::string db = copy_db(dir / "db");
  // The last record of the last log that holds one (the switch to the
  // count's generation, with its summary) gets its type byte set to 5: a
  // recyclable full record, of a log number that is not the file's.
  std::string last;
  for (const auto& [name, size] : files_of(db))
    if (name.ends_with(".log") && size >= 7) last = db + "/" + name;
  REQUIRE_FALSE(last.empty());
  std::string bytes = read_file(last);
  // RocksDB's log format: 32 KiB blocks of records, each a 7-byte header
  // (checksum 4, length 2, type 1); a logical record starts at a full (1)
  // or first (2) fragment.
  size_t record = std::string::npos;
  for (size_t block = 0; block < bytes.size(); block += 32768) {
    const size_t end = std::min(bytes.size(), block + 32768);
    for (size_t pos = block; pos + 7 <= end;) {
      const size_t length = size_t(uint8_t(bytes[pos + 4])) | size_t(uint8_t(bytes[pos + 5])) << 8;
      const int type = uint8_t(bytes[pos + 6]);
      if (type == 0) break;  // padding
      if (type == 1 || type == 2) record = pos;
      pos += 7 + length;
    }
  }
  REQUIRE(record != std::string::npos);
  bytes[record + 6] = char(5);
  write_file(last, bytes);
  const sgfpat::Status found = sgfpat::check_log_record_types(db);
  CHECK(found.is_corruption());
  CHECK(found.message().find("byte " + std::to_string(record)) != std::string::npos);
  CHECK(sgfpat::check_log_record_types(built().db).ok());
  for (const std::string cmd : {"stats", "query", "export"}) {
    std::vector<std::string> args = {cmd, "--db", db};
    if (cmd == "export") args.insert(args.end(), {"-f", "tsv", "-o", "-"});
    if (cmd == "query") args.insert(args.end(), {"--pattern", "...."});
    RunResult r = run_cli(args, dir.path());
    INFO(cmd << " stderr: " << r.err);
    CHECK(r.exit_code == 5);
    CHECK(r.err.find("write-ahead log") != std::string::npos);
  }
  // repair takes it back, every game with it: they were in an earlier log
  // that RocksDB's RepairDB alone used to drop (their family had no table
  // file yet), which the normal open before it replays and flushes.
  RunResult rep = run_cli({"repair", "--db", db, "--no-backup", "--json"}, dir.path());
  INFO("repair stderr: " << rep.err);
  CHECK(rep.exit_code == 0);
  CHECK(rep.json()["games_lost"].get<int>() == 0);
  CHECK(rep.json()["games_kept"].get<int>() == 60);
  RunResult after = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, dir.path());
  CHECK(after.exit_code == 0);
  CHECK(after.out == run_cli({"export", "--db", built().db, "-f", "tsv", "-o", "-"}, dir.path()).out);
}

TEST_CASE("damage campaign (bounded): every run answers as undamaged or fails with a message") {
  TempDir dir("sgfpat-campaign");
  const RunResult clean_stats = run_cli({"stats", "--db", built().db, "--json", "--top", "5"}, dir.path());
  REQUIRE(clean_stats.exit_code == 0);
  const RunResult clean_tsv = run_cli({"export", "--db", built().db, "-f", "tsv", "-o", "-"}, dir.path());
  REQUIRE(clean_tsv.exit_code == 0);
  const std::string want_stats = stats_answer(clean_stats);
  // A query of the empty level-1 shape (present in any counted database);
  // its answer without the "db" field, which names the copy.
  auto query_answer = [](const RunResult& r) {
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::string("unparsable");
    j.erase("db");
    return j.dump();
  };
  const RunResult clean_query = run_cli({"query", "--db", built().db, "--pattern", "....", "--json"}, dir.path());
  REQUIRE(clean_query.exit_code == 0);
  const std::string want_query = query_answer(clean_query);
  const int seeds = std::getenv("SGFPAT_DAMAGE_SEEDS") ? std::atoi(std::getenv("SGFPAT_DAMAGE_SEEDS")) : 3;
  std::map<std::string, int> same, failed, wrong;
  std::vector<std::string> wrong_cases;
  for (const auto& [name, size] : files_of(built().db)) {
    if (size == 0) continue;
    for (int seed = 1; seed <= seeds; ++seed) {
      const std::string db = copy_db(dir / "db");
      std::mt19937_64 rng(uint64_t(seed) * 7919 + std::hash<std::string>()(name));
      const size_t offset = size_t(rng() % size);
      flip(db + "/" + name, offset, (unsigned char)(1u << (rng() % 8)));
      const std::string kind = name.find(".sst") != std::string::npos   ? "sst"
                               : name.find(".log") != std::string::npos ? "wal"
                               : name.substr(0, name.find('-'));
      auto judge = [&](const std::string& what, const RunResult& r, bool equal) {
        if (r.exit_code == 0 && equal) {
          ++same[kind];
        } else if (r.exit_code > 0 && !r.err.empty()) {
          ++failed[kind];
        } else {
          ++wrong[kind];
          wrong_cases.push_back(what + " on " + name + " offset " + std::to_string(offset) + ": exit " +
                                std::to_string(r.exit_code) + " " + r.err.substr(0, 200));
        }
      };
      RunResult s = run_cli({"stats", "--db", db, "--json", "--top", "5"}, dir.path());
      judge("stats", s, stats_answer(s) == want_stats);
      RunResult t = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, dir.path());
      judge("export", t, t.out == clean_tsv.out);
      RunResult q = run_cli({"query", "--db", db, "--pattern", "....", "--json"}, dir.path());
      judge("query", q, query_answer(q) == want_query);
      // The same games again: nothing new.  Either it says what is wrong, or
      // the database afterwards still exports exactly the undamaged counts
      // (no stored game lost, nothing counted twice).
      RunResult i = run_cli({"ingest", "--db", db, "--quiet", built().games}, dir.path());
      if (i.exit_code == 0) {
        RunResult after = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, dir.path());
        judge("ingest then export", after, after.out == clean_tsv.out);
      } else {
        judge("ingest", i, false);
      }
    }
  }
  std::string report;
  for (const auto& [kind, n] : same) report += " " + kind + ":same=" + std::to_string(n);
  for (const auto& [kind, n] : failed) report += " " + kind + ":failed=" + std::to_string(n);
  for (const auto& [kind, n] : wrong) report += " " + kind + ":WRONG=" + std::to_string(n);
  MESSAGE("damage campaign:" << report);
  for (const auto& w : wrong_cases) MESSAGE(w);
  CHECK(wrong_cases.empty());
}

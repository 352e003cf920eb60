// Damaged and foreign databases: refused with what is wrong and what to
// do, never answered silently, never made worse.  Ends with a bounded damage
// campaign (scripts/damage_campaign.sh runs a longer one): every file of a
// counted database (after one ingest, killed before its flush, or after a
// night) deleted, cut and flipped; every command either answers
// exactly as on the undamaged database or exits non-zero with a message,
// and repair keeps every readable game.
//
// SGFPAT_TEST_BINARY=/path/to/sgfpat runs them against another build.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <set>
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

namespace {

// What a file of a database is, for the campaign's report: RocksDB's files
// by kind, table files by their column family, sgfpat's own by name.
std::string kind_of(const std::string& db, const std::string& name) {
  if (name.ends_with(".sst")) {
    rocksdb::SstFileReader reader{rocksdb::Options()};
    if (!reader.Open(db + "/" + name).ok()) return "sst:?";
    return "sst:" + reader.GetTableProperties()->column_family_name;
  }
  if (name.ends_with(".log")) return "log";
  if (name.rfind("MANIFEST-", 0) == 0) return "MANIFEST";
  if (name.rfind("OPTIONS-", 0) == 0) return "OPTIONS";
  if (name.rfind("sgfpat-", 0) == 0) return "sgfpat:" + name.substr(7, name.find_first_of("-.", 7) - 7);
  return name;
}

// One damage of one file: deleted, cut at a point, or one bit flipped.
struct Damage {
  std::string what;
  std::function<void(const std::string& path)> apply;
};

// The damages of a file of `size` bytes: deletion, cuts at several points
// and `flips` flipped bits at random places (seeded by `seed_base`).
std::vector<Damage> damages_of(uintmax_t size, int flips, uint64_t seed_base, bool all_cuts) {
  std::vector<Damage> d;
  d.push_back({"deleted", [](const std::string& p) { fs::remove(p); }});
  std::vector<uintmax_t> cuts = {0, size / 2, size - std::min<uintmax_t>(size, 1)};
  if (all_cuts) cuts.insert(cuts.end(), {size / 3, 2 * size / 3, size - std::min<uintmax_t>(size, 100)});
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (uintmax_t c : cuts)
    if (c < size) d.push_back({"cut to " + std::to_string(c), [c](const std::string& p) { fs::resize_file(p, c); }});
  for (int i = 1; i <= flips && size > 0; ++i) {
    std::mt19937_64 rng(seed_base * 7919 + uint64_t(i));
    const size_t offset = size_t(rng() % size);
    const unsigned char mask = (unsigned char)(1u << (rng() % 8));
    d.push_back({"bit flipped at " + std::to_string(offset), [offset, mask](const std::string& p) { flip(p, offset, mask); }});
  }
  return d;
}

// The game fingerprints of a database (empty when it does not open).
std::set<std::string> games_of(const std::string& db) {
  std::unique_ptr<sgfpat::PatternDb> p;
  std::set<std::string> fps;
  if (!sgfpat::PatternDb::OpenReader(db, &p).ok()) return fps;
  (void)p->for_each_game([&](const sgfpat::Fingerprint& fp, std::string_view) {
    fps.insert(std::string(fp.begin(), fp.end()));
    return true;
  });
  return fps;
}

// A database whose last ingest was killed before its closing flush: its
// games live in the write-ahead log only (what every database written
// before that flush existed holds).
struct Logged {
  TempDir dir{"sgfpat-damage-logged"};
  std::string db = dir / "logged";
  Logged() {
    Child c({sgfpat_binary(), "ingest", "--db", db, "--quiet", "--threads", "1", built().games}, dir.path(), "ingest",
            {fail_point_env("ingest.before_flush")});
    const RunResult r = c.wait();
    if (!died_at_fail_point(r, "ingest.before_flush") && r.exit_code != 0)
      throw std::runtime_error("building the logged test database failed: " + r.err);
  }
};
Logged& logged() {
  static Logged l;
  return l;
}

// The same 60 games as a count of 40 and a night of 20: a frontier index,
// pending patterns and a night's counts file beside the count's.
struct Nights {
  TempDir dir{"sgfpat-damage-nights"};
  std::string db = dir / "nights";
  Nights() {
    const std::string first = dir / "first.sgf", second = dir / "second.sgf";
    write_file(first, corpus_games(0, 40));
    write_file(second, corpus_games(40, 20));
    for (const std::string& in : {first, second}) {
      RunResult r = run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", in}, dir.path());
      if (r.exit_code != 0) throw std::runtime_error("building the nights test database failed: " + r.err);
    }
  }
};
Nights& nights() {
  static Nights n;
  return n;
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
  // Games in the log only (a completed ingest leaves its logs empty).
  const std::string db = dir / "db";
  fs::copy(logged().db, db, fs::copy_options::recursive);
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
  CHECK(sgfpat::check_log_record_types(logged().db).ok());
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

// Every file kind of a database (CURRENT, MANIFEST, OPTIONS, IDENTITY, each
// log, each table file of each column family, sgfpat's sketch), in a
// database whose games are in table files and in one whose games are in
// its log only: deleted, cut at several points, one bit flipped.  Every
// command either answers exactly as on the undamaged database or exits
// non-zero with a message; `repair` then keeps every game that was
// readable (all of them, unless the damage hit a table file or log that
// holds games) and reports the rest by number (exit 8).
// SGFPAT_DAMAGE_SEEDS (default 1) sets the bits flipped per file;
// SGFPAT_DAMAGE_FULL=1 cuts at more points and damages every table file
// of the counts (CI damages two of them): scripts/damage_campaign.sh.
TEST_CASE("damage campaign (bounded): every run answers as undamaged or fails with a message; repair keeps every readable game") {
  TempDir dir("sgfpat-campaign");
  const int seeds = std::getenv("SGFPAT_DAMAGE_SEEDS") ? std::atoi(std::getenv("SGFPAT_DAMAGE_SEEDS")) : 1;
  const bool full = std::getenv("SGFPAT_DAMAGE_FULL") && std::string(std::getenv("SGFPAT_DAMAGE_FULL")) == "1";
  std::map<std::string, int> same, failed, wrong;
  std::map<std::string, int> repaired_whole, repaired_loss;
  std::vector<std::string> wrong_cases;
  int cases = 0;
  // What repair leaves of the nights database: as it was (nothing to
  // recount), or the count of its 60 games from scratch (the pending
  // patterns reported).
  const RunResult scratch_tsv = run_cli({"export", "--db", built().db, "-f", "tsv", "-o", "-"}, dir.path());
  REQUIRE(scratch_tsv.exit_code == 0);
  for (const std::string& pristine : {built().db, logged().db, nights().db}) {
    const std::string label = pristine == built().db ? "flushed" : pristine == logged().db ? "logged" : "nights";
    const RunResult clean_stats = run_cli({"stats", "--db", pristine, "--json", "--top", "5"}, dir.path());
    REQUIRE(clean_stats.exit_code == 0);
    const RunResult clean_tsv = run_cli({"export", "--db", pristine, "-f", "tsv", "-o", "-"}, dir.path());
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
    const RunResult clean_query = run_cli({"query", "--db", pristine, "--pattern", "....", "--json"}, dir.path());
    REQUIRE(clean_query.exit_code == 0);
    const std::string want_query = query_answer(clean_query);
    // Counted before any damage: every one of them is readable.
    const std::set<std::string> games = games_of(pristine);
    REQUIRE(games.size() == 60);
    int counts_tables = 0;
    for (const auto& [name, size] : files_of(pristine)) {
      const std::string kind = kind_of(pristine, name);
      // The logged database's table files are the flushed one's kinds again;
      // of the nights database's, those a night writes are new (the bounded
      // campaign takes every counts file of it: the night's is one).
      if (label == "logged" && kind.rfind("sst:", 0) == 0 && kind != "sst:games") continue;
      if (label == "nights" && !full && kind.rfind("sst:", 0) == 0 &&
          kind != "sst:counts" && kind != "sst:frontier" && kind != "sst:pending_patterns")
        continue;
      if (kind == "sst:counts" && !full && label != "nights" && ++counts_tables > 2) continue;
      if (fs::is_directory(pristine + "/" + name)) continue;
      const std::string tag = label + " " + kind;
      for (const Damage& damage : damages_of(size, seeds, std::hash<std::string>()(name) + size, full)) {
        ++cases;
        const std::string where = label + " " + name + " (" + kind + ") " + damage.what;
        const std::string db = dir / "db";
        fs::remove_all(db);
        fs::copy(pristine, db, fs::copy_options::recursive);
        damage.apply(db + "/" + name);
        // A log of the unflushed database deleted or cut is what a crash
        // leaves of writes not yet synced (not acknowledged: the ingest was
        // killed before its end): readers may see the writes before the cut,
        // and repair cannot know how many games came after it.  Bit flips in
        // it must still be found.
        const bool crash_like = label == "logged" && kind == "log" && damage.what.rfind("bit", 0) != 0;
        auto judge = [&](const std::string& what, const RunResult& r, bool equal) {
          if (crash_like && r.exit_code >= 0) {
            ++same[tag + " (crash-like)"];
          } else if (r.exit_code == 0 && equal) {
            ++same[tag];
          } else if (r.exit_code > 0 && !r.err.empty()) {
            ++failed[tag];
          } else {
            ++wrong[tag];
            wrong_cases.push_back(what + " on " + where + ": exit " + std::to_string(r.exit_code) + " " +
                                  r.err.substr(0, 300));
          }
        };
        RunResult s = run_cli({"stats", "--db", db, "--json", "--top", "5"}, dir.path());
        judge("stats", s, stats_answer(s) == want_stats);
        RunResult t = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, dir.path());
        judge("export", t, t.out == clean_tsv.out);
        RunResult q = run_cli({"query", "--db", db, "--pattern", "....", "--json"}, dir.path());
        judge("query", q, query_answer(q) == want_query);
        // The damaged database as it is, and the same copy again for the
        // repair (the ingest below may change it).
        const std::string before_ingest = dir / "damaged";
        fs::remove_all(before_ingest);
        fs::copy(db, before_ingest, fs::copy_options::recursive);
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
        // repair: every game that was readable kept; the others reported
        // lost by number, with exit 8.
        RunResult rep = run_cli({"repair", "--db", before_ingest, "--no-backup", "--json"}, dir.path());
        const nlohmann::json j = rep.json();
        const int64_t kept = j.is_object() ? j.value("games_kept", int64_t(-1)) : -1;
        const int64_t lost = j.is_object() ? j.value("games_lost", int64_t(-1)) : -1;
        const std::set<std::string> after = games_of(before_ingest);
        const bool holds_games = kind == "sst:games" || (kind == "log" && label == "logged");
        std::string problem;
        // (A first ingest's log lost holds the key scheme too: nothing of
        // the database is left, and repair says so.)
        if (crash_like && rep.exit_code == 5 && rep.err.find("no key scheme") != std::string::npos)
          problem = "";
        else if (rep.exit_code != 0 && rep.exit_code != 8)
          problem = "exit " + std::to_string(rep.exit_code) + " " + rep.err.substr(0, 300);
        else if (kept < 0 || size_t(kept) != after.size())
          problem = "reports " + std::to_string(kept) + " games kept, holds " + std::to_string(after.size());
        else if (!std::includes(games.begin(), games.end(), after.begin(), after.end()))
          problem = "holds games it never had";
        else if (crash_like ? size_t(kept + lost) > games.size() : size_t(kept + lost) != games.size())
          problem = "kept " + std::to_string(kept) + " + lost " + std::to_string(lost) + " != " +
                    std::to_string(games.size()) + " games";
        else if ((rep.exit_code == 0) != (lost == 0))
          problem = "exit " + std::to_string(rep.exit_code) + " with " + std::to_string(lost) + " games lost";
        else if (lost > 0 && !holds_games)
          problem = "lost " + std::to_string(lost) + " games to damage in a file that holds none";
        else if (lost == 0 && !crash_like) {
          const std::string tsv = run_cli({"export", "--db", before_ingest, "-f", "tsv", "-o", "-"}, dir.path()).out;
          if (tsv != clean_tsv.out && (label != "nights" || tsv != scratch_tsv.out))
            problem = "exports other counts than the undamaged database";
        }
        if (!problem.empty()) {
          ++wrong[tag + " repair"];
          wrong_cases.push_back("repair on " + where + ": " + problem);
        } else {
          ++(lost == 0 ? repaired_whole : repaired_loss)[tag];
        }
      }
    }
  }
  std::string report;
  for (const auto& [kind, n] : same) report += " " + kind + ":same=" + std::to_string(n);
  for (const auto& [kind, n] : failed) report += " " + kind + ":failed=" + std::to_string(n);
  for (const auto& [kind, n] : repaired_whole) report += " " + kind + ":repaired-whole=" + std::to_string(n);
  for (const auto& [kind, n] : repaired_loss) report += " " + kind + ":repaired-with-loss=" + std::to_string(n);
  for (const auto& [kind, n] : wrong) report += " " + kind + ":WRONG=" + std::to_string(n);
  MESSAGE("damage campaign: " << cases << " damaged copies:" << report);
  for (const auto& w : wrong_cases) MESSAGE(w);
  CHECK(wrong_cases.empty());
}

// No readable game is ever lost (issue 75): `repair` takes back the games
// that live only in the write-ahead log (a night killed before its closing
// flush, or a database written before ingest flushed), keeps the intact
// records of a damaged log and reports the rest by number, is taken up
// again after a kill at any of its steps; a completed ingest leaves nothing
// in its logs that the table files lack; a lost table of the position index
// is reported, not answered as an empty index; an export of a database
// without counts refuses to replace a good file.
//
// SGFPAT_TEST_BINARY=/path/to/sgfpat runs them against another build.
#include <doctest/doctest.h>

#include <set>

#include "test_util.h"

using namespace testutil;

namespace {

constexpr int kFirst = 40, kSecond = 20, kGames = kFirst + kSecond;

std::set<std::string> fingerprints_of(const std::string& db) {
  std::unique_ptr<sgfpat::PatternDb> p;
  sgfpat::Status st = sgfpat::PatternDb::OpenReader(db, &p);
  INFO("opening " << db << ": " << st.message());
  REQUIRE(st.ok());
  std::set<std::string> fps;
  REQUIRE(p->for_each_game([&](const sgfpat::Fingerprint& fp, std::string_view) {
               fps.insert(std::string(fp.begin(), fp.end()));
               return true;
             }).ok());
  return fps;
}

std::string tsv_of(const std::string& db, const std::string& scratch) {
  RunResult r = run_cli({"export", "--db", db, "-f", "tsv", "-o", "-"}, scratch);
  INFO("export of " << db << ": " << r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

// An ingest killed at its fail point before the closing flush: its games,
// totals and counts are in the write-ahead log only (a build before that
// flush existed runs to the end and leaves the same).
void ingest_unflushed(const std::string& db, const std::string& input, const std::string& scratch) {
  Child c({sgfpat_binary(), "ingest", "--db", db, "--quiet", "--threads", "1", input}, scratch, "unflushed",
          {fail_point_env("ingest.before_flush")});
  const RunResult r = c.wait();
  INFO("stderr: " << r.err);
  REQUIRE((died_at_fail_point(r, "ingest.before_flush") || r.exit_code == 0));
}

std::vector<std::string> files_named(const std::string& db, const std::string& prefix, const std::string& suffix) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(db)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.ends_with(suffix)) found.push_back(e.path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

void flip(const std::string& path, size_t offset) {
  std::string b = read_file(path);
  REQUIRE(offset < b.size());
  b[offset] = char(b[offset] ^ 0x20);
  write_file(path, b);
}

struct Built {
  TempDir dir{"sgfpat-salvage"};
  std::string first = dir / "first.sgf", second = dir / "second.sgf";
  std::string logged = dir / "logged";    // one ingest, killed before its flush
  std::string logged2 = dir / "logged2";  // two such ingests
  std::string flushed = dir / "flushed";  // two complete ingests
  std::string logged_tsv, flushed_tsv;
  std::set<std::string> logged_games, all_games;
  Built() {
    const auto lines = sample_lines(0, kGames);
    write_file(first, join({lines.begin(), lines.begin() + kFirst}));
    write_file(second, join({lines.begin() + kFirst, lines.end()}));
    ingest_unflushed(logged, first, dir.path());
    ingest_unflushed(logged2, first, dir.path());
    ingest_unflushed(logged2, second, dir.path());
    for (const auto& in : {first, second}) {
      RunResult r = run_cli({"ingest", "--db", flushed, "--quiet", "--threads", "1", "--catch-up", in}, dir.path());
      if (r.exit_code != 0) throw std::runtime_error("building the test database failed: " + r.err);
    }
    logged_tsv = tsv_of(logged, dir.path());
    flushed_tsv = tsv_of(flushed, dir.path());
    logged_games = fingerprints_of(logged);
    all_games = fingerprints_of(flushed);
  }
};
Built& built() {
  static Built b;
  return b;
}

std::string copy_of(const std::string& from, const std::string& to) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
  return to;
}

nlohmann::json repair_json(const std::string& db, const std::string& scratch, int* exit_code) {
  RunResult r = run_cli({"repair", "--db", db, "--no-backup", "--json"}, scratch);
  INFO("repair stderr: " << r.err);
  INFO("repair stdout: " << r.out);
  *exit_code = r.exit_code;
  const nlohmann::json j = r.json();
  CHECK(j.is_object());
  return j.is_object() ? j : nlohmann::json::object();
}

// The damages of item 1 (each leaves every game readable in the log).
const std::vector<std::pair<std::string, std::function<void(const std::string&)>>>& log_only_damages() {
  static const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> d = {
      {"CURRENT deleted", [](const std::string& db) { fs::remove(db + "/CURRENT"); }},
      {"a bit flipped in the MANIFEST",
       [](const std::string& db) {
         const auto m = files_named(db, "MANIFEST-", "");
         REQUIRE(m.size() == 1);
         flip(m[0], size_t(fs::file_size(m[0]) / 2));
       }},
      {"every MANIFEST deleted",
       [](const std::string& db) {
         for (const auto& m : files_named(db, "MANIFEST-", "")) fs::remove(m);
       }},
      {"a table file of counts deleted",
       [](const std::string& db) {
         const auto counts = tables_of(db, "counts");
         REQUIRE_FALSE(counts.empty());
         fs::remove(counts.front());
       }},
  };
  return d;
}

}  // namespace

TEST_CASE("repair keeps the games that live only in the write-ahead log (CURRENT, MANIFEST or a counts table lost)") {
  TempDir dir("sgfpat-salvage-1");
  REQUIRE(built().logged_games.size() == size_t(kFirst));
  for (const auto& [what, damage] : log_only_damages()) {
    SUBCASE(what.c_str()) {
      const std::string db = copy_of(built().logged, dir / "db");
      damage(db);
      int code = -1;
      const nlohmann::json j = repair_json(db, dir.path(), &code);
      CHECK(code == 0);
      CHECK(j.value("games_kept", -1) == kFirst);
      CHECK(j.value("games_lost", -1) == 0);
      CHECK(fingerprints_of(db) == built().logged_games);
      CHECK(tsv_of(db, dir.path()) == built().logged_tsv);
      RunResult again = run_cli({"repair", "--db", db, "--json"}, dir.path());
      CHECK(again.exit_code == 0);
      CHECK(again.json().value("was_sound", false));
    }
  }
}

TEST_CASE("repair keeps the games of two ingests that live only in the logs (a counts table deleted)") {
  TempDir dir("sgfpat-salvage-2");
  const std::string db = copy_of(built().logged2, dir / "db");
  REQUIRE(fingerprints_of(db) == built().all_games);
  const auto counts = tables_of(db, "counts");
  REQUIRE_FALSE(counts.empty());
  fs::remove(counts.front());
  int code = -1;
  const nlohmann::json j = repair_json(db, dir.path(), &code);
  CHECK(code == 0);
  CHECK(j.value("games_kept", -1) == kGames);
  CHECK(j.value("games_lost", -1) == 0);
  CHECK(fingerprints_of(db) == built().all_games);
  CHECK(tsv_of(db, dir.path()) == built().flushed_tsv);
}

TEST_CASE("a bit flipped in the middle of the log: repair keeps every intact record and reports the rest by number") {
  TempDir dir("sgfpat-salvage-3");
  // One ingest killed before its flush: its 40 games live in the log only
  // (a night flushes before it takes its files in, so the second ingest of
  // logged2 leaves its games in table files).
  const std::string db = copy_of(built().logged, dir / "db");
  const auto logs = files_named(db, "", ".log");
  std::string biggest;
  for (const auto& l : logs)
    if (biggest.empty() || fs::file_size(l) > fs::file_size(biggest)) biggest = l;
  REQUIRE_FALSE(biggest.empty());
  REQUIRE(fs::file_size(biggest) > 1000);
  flip(biggest, size_t(fs::file_size(biggest) / 2));
  int code = -1;
  const nlohmann::json j = repair_json(db, dir.path(), &code);
  CHECK(code == 8);
  const int kept = j.value("games_kept", -1), lost = j.value("games_lost", -1);
  CHECK(lost > 0);
  CHECK(kept + lost == kFirst);
  const std::set<std::string> after = fingerprints_of(db);
  CHECK(after.size() == size_t(kept));
  CHECK(std::includes(built().logged_games.begin(), built().logged_games.end(), after.begin(), after.end()));
  RunResult again = run_cli({"repair", "--db", db, "--json"}, dir.path());
  CHECK(again.exit_code == 0);
  CHECK(again.json().value("was_sound", false));
}

TEST_CASE("after complete ingests the logs hold nothing the table files lack: a log deleted or cut, every answer as before") {
  TempDir dir("sgfpat-salvage-4");
  const RunResult clean_stats = run_cli({"stats", "--db", built().flushed, "--json"}, dir.path());
  REQUIRE(clean_stats.exit_code == 0);
  const uint64_t games = clean_stats.json().value("games", uint64_t(0));
  CHECK(games == uint64_t(kGames));
  const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> damages = {
      {"the newest log deleted", [](const std::string& db) {
         const auto logs = files_named(db, "", ".log");
         REQUIRE_FALSE(logs.empty());
         fs::remove(logs.back());
       }},
      {"every log cut to nothing", [](const std::string& db) {
         for (const auto& l : files_named(db, "", ".log")) fs::resize_file(l, 0);
       }},
      {"every log cut in half", [](const std::string& db) {
         for (const auto& l : files_named(db, "", ".log")) fs::resize_file(l, fs::file_size(l) / 2);
       }},
  };
  for (const auto& [what, damage] : damages) {
    SUBCASE(what.c_str()) {
      const std::string db = copy_of(built().flushed, dir / "db");
      damage(db);
      RunResult s = run_cli({"stats", "--db", db, "--json"}, dir.path());
      INFO("stats: " << s.err);
      CHECK(s.exit_code == 0);
      CHECK(s.json().value("games", uint64_t(0)) == uint64_t(kGames));
      CHECK(tsv_of(db, dir.path()) == built().flushed_tsv);
      RunResult rep = run_cli({"repair", "--db", db, "--json"}, dir.path());
      CHECK(rep.exit_code == 0);
      CHECK(rep.json().value("games_kept", -1) == kGames);
      RunResult i = run_cli({"ingest", "--db", db, "--quiet", "--catch-up", built().second}, dir.path());
      CHECK(i.exit_code == 0);
      CHECK(fingerprints_of(db) == built().all_games);
      CHECK(tsv_of(db, dir.path()) == built().flushed_tsv);
    }
  }
}

TEST_CASE("a lost table file of the position index is reported, and repair builds the index again") {
  TempDir dir("sgfpat-salvage-5");
  const std::string db = copy_of(built().flushed, dir / "db");
  const auto positions = tables_of(db, "positions");
  REQUIRE_FALSE(positions.empty());
  for (const auto& p : positions) fs::remove(p);
  const std::vector<std::string> similar = {"similar", "--db", db, "--sgf", built().first, "--game", "3",
                                            "--move", "40", "--exact", "--json"};
  RunResult s = run_cli({"stats", "--db", db, "--json"}, dir.path());
  INFO("stats: " << s.err);
  CHECK(s.exit_code == 5);
  CHECK(s.err.find("missing") != std::string::npos);
  RunResult sim = run_cli(similar, dir.path());
  INFO("similar: " << sim.err);
  CHECK(sim.exit_code == 5);
  int code = -1;
  const nlohmann::json j = repair_json(db, dir.path(), &code);
  CHECK(code == 0);
  CHECK(j.value("games_kept", -1) == kGames);
  RunResult after = run_cli({"stats", "--db", db, "--json"}, dir.path());
  REQUIRE(after.exit_code == 0);
  CHECK(after.json().value("position_index", "") == "complete");
  RunResult found = run_cli(similar, dir.path());
  INFO("similar after the repair: " << found.err);
  CHECK(found.exit_code == 0);
  // The same answer as the undamaged database's (but for how long it took).
  auto answer = [](const RunResult& r) {
    nlohmann::json j = r.json();
    if (j.is_object()) j.erase("seconds");
    return j.dump();
  };
  RunResult clean = run_cli({"similar", "--db", built().flushed, "--sgf", built().first, "--game", "3", "--move",
                             "40", "--exact", "--json"},
                            dir.path());
  REQUIRE(clean.exit_code == 0);
  CHECK(answer(found) == answer(clean));
  CHECK(run_cli({"ingest", "--db", db, "--quiet", "--catch-up", built().second}, dir.path()).exit_code == 0);
  CHECK(tsv_of(db, dir.path()) == built().flushed_tsv);
}

TEST_CASE("a repair killed at any of its steps is taken up by the next one, nothing lost") {
  TempDir dir("sgfpat-salvage-6");
  for (const std::string point : {"repair.logs_read", "repair.files_repaired", "repair.games_taken_back",
                                  "repair.recounted", "line:repairing the files"}) {
    SUBCASE(point.c_str()) {
      const std::string db = copy_of(built().logged, dir / "db");
      fs::remove(db + "/CURRENT");
      const std::vector<std::string> args = {sgfpat_binary(), "repair", "--db", db, "--no-backup"};
      if (point.rfind("line:", 0) == 0) {
        Child c(args, dir.path(), "repair");
        c.kill_at_line(point.substr(5));
      } else {
        Child c(args, dir.path(), "repair", {fail_point_env(point)});
        const RunResult r = c.wait();
        INFO("first repair: " << r.err);
        CHECK((died_at_fail_point(r, point) || r.exit_code == 0));
      }
      int code = -1;
      const nlohmann::json j = repair_json(db, dir.path(), &code);
      CHECK((code == 0));
      CHECK(fingerprints_of(db) == built().logged_games);
      CHECK(tsv_of(db, dir.path()) == built().logged_tsv);
    }
  }
}

TEST_CASE("export -f tsv of a database whose first count was killed refuses and keeps the good file") {
  TempDir dir("sgfpat-salvage-7");
  const std::string db = dir / "db";
  Child c({sgfpat_binary(), "ingest", "--db", db, "--quiet", "--threads", "1", built().first}, dir.path(), "ingest",
          {fail_point_env("import.batch_stored")});
  const RunResult killed = c.wait();
  INFO("ingest: " << killed.err);
  REQUIRE(died_at_fail_point(killed, "import.batch_stored"));
  write_file(dir / "good.tsv", built().flushed_tsv);
  RunResult r = run_cli({"export", "--db", db, "-f", "tsv", "-o", dir / "good.tsv"}, dir.path());
  INFO("export: " << r.err);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("no counts yet") != std::string::npos);
  CHECK(read_file(dir / "good.tsv") == built().flushed_tsv);
}

TEST_CASE("accuracy --csv: written whole, a write error is an error, never into a database directory") {
  TempDir dir("sgfpat-salvage-8");
  const std::string priors = dir / "p.priors";
  REQUIRE(run_cli({"export", "--db", built().flushed, "-o", priors}, dir.path()).exit_code == 0);
  const std::vector<std::string> base = {"accuracy", "-p", priors, "--max-games", "2", built().second};
  auto with_csv = [&](const std::string& csv) {
    std::vector<std::string> a = base;
    a.insert(a.end(), {"--csv", csv});
    return run_cli(a, dir.path());
  };
  RunResult ok = with_csv(dir / "a.csv");
  INFO("accuracy: " << ok.err);
  REQUIRE(ok.exit_code == 0);
  CHECK(read_file(dir / "a.csv").rfind("rank,cumulative_accuracy\n", 0) == 0);
  RunResult full = with_csv("/dev/full");
  INFO("accuracy --csv /dev/full: " << full.err);
  CHECK(full.exit_code == 6);
  const std::string db = copy_of(built().flushed, dir / "db");
  RunResult inside = with_csv(db + "/a.csv");
  INFO("accuracy --csv inside the database: " << inside.err);
  CHECK(inside.exit_code == 2);
  CHECK_FALSE(fs::exists(db + "/a.csv"));
}

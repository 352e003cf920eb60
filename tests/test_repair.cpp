// `sgfpat repair`: a database damaged in several ways (MANIFEST and CURRENT
// lost, a table file of games deleted or cut short, a table file of counts
// cut short) is repaired; what it then exports equals, byte for byte, the
// export of a fresh ingest of exactly the games that survived; the games
// lost are reported with exit code 8; a sound database is left unchanged.
#include <doctest/doctest.h>

#include <set>

#include "priors/sgfpat_priors.h"
#include "store/game_record.h"
#include "test_util.h"

using namespace testutil;

namespace {

constexpr int kBatches = 3, kPerBatch = 12;

// One game per file, so that a stored game's origin names the file to
// ingest again; three ingests, so that the games lie in several table files.
struct Built {
  TempDir dir{"sgfpat-repair"};
  std::string db = dir / "pristine";
  std::string tsv, priors;
  Built() {
    const auto lines = sample_lines(0, kBatches * kPerBatch);
    for (int b = 0; b < kBatches; ++b) {
      const std::string in = dir / ("in" + std::to_string(b));
      fs::create_directories(in);
      for (int i = 0; i < kPerBatch; ++i)
        write_file(in + "/g" + std::to_string(b * kPerBatch + i) + ".sgf", lines[size_t(b * kPerBatch + i)]);
      RunResult r = run_cli({"ingest", "--db", db, "--quiet", "--threads", "1", "--catch-up", in}, dir.path());
      if (r.exit_code != 0) throw std::runtime_error("building the test database failed: " + r.err);
    }
    tsv = export_of(db, "tsv");
    priors = export_of(db, "priors");
  }
  std::string export_of(const std::string& d, const std::string& format) {
    const std::string out = dir / ("export." + format);
    RunResult r = run_cli({"export", "--db", d, "-f", format, "-o", out}, dir.path());
    if (r.exit_code != 0) throw std::runtime_error("export failed: " + r.err);
    return read_file(out);
  }
};
Built& built() {
  static Built b;
  return b;
}

std::string copy_db(const std::string& to) {
  fs::copy(built().db, to, fs::copy_options::recursive);
  return to;
}

// name -> content of every file but RocksDB's diaries (LOG*) and LOCK.
std::map<std::string, std::string> contents_of(const std::string& dir) {
  std::map<std::string, std::string> m;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("LOG", 0) == 0 || name == "LOCK") continue;
    m[name] = e.is_regular_file() ? read_file(e.path().string()) : "<dir>";
  }
  return m;
}

// The input files of the games stored in `db`.
std::set<std::string> stored_origins(const std::string& db) {
  std::unique_ptr<sgfpat::PatternDb> p;
  REQUIRE(sgfpat::PatternDb::OpenReader(db, &p).ok());
  std::set<std::string> files;
  REQUIRE(p->for_each_game([&](const sgfpat::Fingerprint&, std::string_view rec) {
               sgfpat::Game g;
               REQUIRE(sgfpat::decode_game(rec, &g).ok());
               files.insert(g.origin.file);
               return true;
             }).ok());
  return files;
}

// A priors file without what says when it was written (the export time
// and the header checksum that covers it).
std::string timeless(std::string priors) {
  using sgfpat_priors::Header;
  REQUIRE(priors.size() >= sizeof(Header));
  std::fill_n(priors.begin() + offsetof(Header, export_time), sizeof(int64_t), '\0');
  std::fill_n(priors.begin() + offsetof(Header, header_checksum), sizeof(uint64_t), '\0');
  return priors;
}

// Repairs a damaged copy and checks it against a fresh ingest of the games
// that survived.  Returns the repair's JSON report.
nlohmann::json repair_and_compare(const std::string& db, const TempDir& dir, int want_exit) {
  RunResult before = run_cli({"stats", "--db", db}, dir.path());
  INFO("stats on the damaged database: " << before.err);
  CHECK(before.exit_code == 5);  // damaged: run sgfpat repair
  CHECK(before.err.find("sgfpat repair") != std::string::npos);
  RunResult r = run_cli({"repair", "--db", db, "--json"}, dir.path());
  INFO("repair stdout: " << r.out);
  INFO("repair stderr: " << r.err);
  REQUIRE(r.exit_code == want_exit);
  const nlohmann::json j = r.json();
  REQUIRE(j.is_object());
  CHECK_FALSE(j["was_sound"].get<bool>());
  CHECK(fs::is_directory(j["backup"].get<std::string>()));

  const std::set<std::string> kept = stored_origins(db);
  CHECK(kept.size() == j["games_kept"].get<size_t>());
  CHECK(j["games_lost"].get<size_t>() == size_t(kBatches * kPerBatch) - kept.size());
  const std::string fresh_in = dir / "fresh-in";
  fs::create_directories(fresh_in);
  for (const auto& f : kept) fs::copy_file(f, fresh_in + "/" + fs::path(f).filename().string());
  const std::string fresh = dir / "fresh";
  RunResult ing = run_cli({"ingest", "--db", fresh, "--quiet", "--threads", "1", fresh_in}, dir.path());
  REQUIRE(ing.exit_code == (kept.empty() ? 3 : 0));
  CHECK(built().export_of(db, "tsv") == built().export_of(fresh, "tsv"));
  CHECK(timeless(built().export_of(db, "priors")) == timeless(built().export_of(fresh, "priors")));
  // Everything else reads it again, and ingest takes the lost games back.
  CHECK(run_cli({"stats", "--db", db}, dir.path()).exit_code == 0);
  std::vector<std::string> all = {"ingest", "--db", db, "--quiet", "--threads", "1", "--catch-up"};
  for (int b = 0; b < kBatches; ++b) all.push_back(built().dir / ("in" + std::to_string(b)));
  CHECK(run_cli(all, dir.path()).exit_code == 0);
  CHECK(built().export_of(db, "tsv") == built().tsv);
  return j;
}

}  // namespace

TEST_CASE("repair leaves a sound database unchanged") {
  TempDir dir("sgfpat-repair-sound");
  const std::string db = copy_db(dir / "db");
  const auto before = contents_of(db);
  RunResult r = run_cli({"repair", "--db", db, "--json"}, dir.path());
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.json()["was_sound"].get<bool>());
  CHECK(r.json()["games_kept"].get<int>() == kBatches * kPerBatch);
  CHECK(contents_of(db) == before);
  CHECK_FALSE(fs::exists(db + ".before-repair"));
  RunResult text = run_cli({"repair", "--db", db}, dir.path());
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("nothing was changed") != std::string::npos);
}

TEST_CASE("repair: MANIFEST and CURRENT lost, nothing else: every game and count comes back") {
  TempDir dir("sgfpat-repair-manifest");
  const std::string db = copy_db(dir / "db");
  for (const auto& e : fs::directory_iterator(db))
    if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) fs::remove(e.path());
  fs::remove(db + "/CURRENT");
  const auto j = repair_and_compare(db, dir, 0);
  CHECK(j["games_kept"].get<int>() == kBatches * kPerBatch);
}

TEST_CASE("repair: a table file of games deleted: the other games are kept and counted exactly") {
  TempDir dir("sgfpat-repair-delete");
  const std::string db = copy_db(dir / "db");
  const auto games = tables_of(db, "games");
  REQUIRE_FALSE(games.empty());
  fs::remove(games.back());
  const auto j = repair_and_compare(db, dir, 8);
  CHECK(j["games_lost"].get<int>() > 0);
  CHECK(j["games_kept"].get<int>() > 0);
}

TEST_CASE("repair: a table file of games cut short is set aside, its games reported lost") {
  TempDir dir("sgfpat-repair-truncate");
  const std::string db = copy_db(dir / "db");
  const auto games = tables_of(db, "games");
  REQUIRE_FALSE(games.empty());
  fs::resize_file(games.front(), fs::file_size(games.front()) / 2);
  const auto j = repair_and_compare(db, dir, 8);
  CHECK(j["games_lost"].get<int>() > 0);
  INFO(j["set_aside"].dump());
  CHECK(j["set_aside"].size() == 1);
}

TEST_CASE("repair after the position index was dropped and built again: everything comes back, index complete") {
  // A rebuild clears the index with a range deletion first; RocksDB's
  // RepairDB once made a second table of it from the log and refused the
  // pair, leaving no database at all.
  TempDir dir("sgfpat-repair-rebuilt");
  const std::string db = copy_db(dir / "db");
  RunResult off = run_cli({"ingest", "--db", db, "--quiet", "--no-position-index"}, dir.path());
  REQUIRE(off.exit_code == 0);
  RunResult on = run_cli({"ingest", "--db", db, "--quiet", "--position-index"}, dir.path());
  INFO("ingest --position-index: " << on.err);
  REQUIRE(on.exit_code == 0);
  const auto counts = tables_of(db, "counts");
  REQUIRE_FALSE(counts.empty());
  fs::resize_file(counts.front(), fs::file_size(counts.front()) - 100);
  const auto j = repair_and_compare(db, dir, 0);
  CHECK(j["games_kept"].get<int>() == kBatches * kPerBatch);
  RunResult s = run_cli({"stats", "--db", db, "--json"}, dir.path());
  REQUIRE(s.exit_code == 0);
  CHECK(s.json()["position_index"] == "complete");
}

TEST_CASE("repair: a table file of counts cut short: the counts are recounted, no game is lost") {
  TempDir dir("sgfpat-repair-counts");
  const std::string db = copy_db(dir / "db");
  const auto counts = tables_of(db, "counts");
  REQUIRE_FALSE(counts.empty());
  fs::resize_file(counts.front(), fs::file_size(counts.front()) - 100);
  const auto j = repair_and_compare(db, dir, 0);
  CHECK(j["games_lost"].get<int>() == 0);
  CHECK(built().export_of(db, "tsv") == built().tsv);
}

TEST_CASE("repair: totals that disagree with the stored games; refused while another process writes") {
  TempDir dir("sgfpat-repair-busy");
  const std::string db = copy_db(dir / "db");
  put_raw(db, "default", "games", "999");
  {
    // Held open as a writer by this process: repair must not touch it.
    rocksdb::DBOptions options;
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(options, db, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    for (const auto& n : names) cfs.push_back({n, {}});
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(options, db, cfs, &handles, &raw).ok());
    RunResult r = run_cli({"repair", "--db", db}, dir.path());
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 7);
    CHECK(r.err.find("in use") != std::string::npos);
    // (the files themselves: the holder's own compactions may change them)
    CHECK_FALSE(fs::exists(db + ".before-repair"));
    CHECK_FALSE(fs::exists(db + "/lost"));
    for (auto* h : handles) CHECK(raw->DestroyColumnFamilyHandle(h).ok());
    CHECK(raw->Close().ok());
    delete raw;
  }
  RunResult r = run_cli({"repair", "--db", db, "--json"}, dir.path());
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 8);  // 999 games were recorded, 36 are there
  const auto j = r.json();
  CHECK(j["found"].get<std::string>().find("999") != std::string::npos);
  CHECK(j["games_kept"].get<int>() == kBatches * kPerBatch);
  CHECK(built().export_of(db, "tsv") == built().tsv);
  CHECK(run_cli({"repair", "--db", db}, dir.path()).exit_code == 0);  // sound now

  RunResult none = run_cli({"repair", "--db", dir / "nothing"}, dir.path());
  CHECK(none.exit_code == 1);
  CHECK(none.err.find(dir / "nothing") != std::string::npos);
}

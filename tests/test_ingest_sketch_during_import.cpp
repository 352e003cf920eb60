// The count's first pass made while a new database's games are stored
// ($SGFPAT_SKETCH_DURING_IMPORT) gives the counts of the pass made after
// the import: byte for byte in the TSV export, for K = 1, 2, 3, symmetry
// on and off, budgets that count in parts, with illegal, filtered
// and duplicate games; its sketch serves later incremental ingests; and a
// run killed during such an import, then run again, counts exactly.
#include <csignal>
#include <cstdlib>
#include <random>
#include <sys/wait.h>
#include <thread>

#include "ingest/import_inputs.h"
#include "ingest/importer.h"
#include "test_util.h"

using namespace testutil;

namespace {

const char* const kIllegal = "(;GM[1]SZ[19]RE[B+R];B[dd];W[dd])\n";
const char* const kSmall = "(;GM[1]SZ[9]RE[W+R];B[ee];W[cc];B[gg];W[cg])\n";

// Three inputs from a month of the corpus: the first two share some games
// and each holds an illegal and a filtered record; the third comes later.
std::vector<std::string> write_inputs(const TempDir& tmp, unsigned seed) {
  const std::vector<std::string> lines = sample_lines(1200, 150);
  std::mt19937 rng(seed);
  std::vector<std::string> text(3);
  for (const std::string& line : lines) {
    const size_t part = rng() % 10 < 8 ? rng() % 2 : 2;
    text[part] += line;
    if (part < 2 && rng() % 8 == 0) text[1 - part] += line;  // a duplicate across the inputs
  }
  std::vector<std::string> files;
  for (size_t i = 0; i < text.size(); ++i) {
    files.push_back(tmp / ("in" + std::to_string(i) + ".sgf"));
    write_file(files.back(), text[i] + kIllegal + kSmall);
  }
  return files;
}

std::string export_tsv(const std::string& db, const std::string& scratch) {
  const std::string out = db + ".tsv";
  RunResult r = run({SGFPAT_BINARY, "export", "--db", db, "-f", "tsv", "-o", out}, scratch);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return read_file(out);
}

struct Config {
  int k;
  bool symmetry;
  std::vector<std::string> extra;
  std::string mode;  // the count mode of the first ingest
};

// The flags of an ingest of `c`, and pass 1 during its import `when`
// (auto, always, never): set in the environment the ingest inherits
// ($SGFPAT_SKETCH_DURING_IMPORT: tests' choice, not a flag), so the
// flags must be made right before the ingest is run.
std::vector<std::string> flags_of(const Config& c, const std::string& when) {
  REQUIRE(::setenv("SGFPAT_SKETCH_DURING_IMPORT", when.c_str(), 1) == 0);
  std::vector<std::string> f = {"--levels", "6", "--min-played", std::to_string(c.k), "--sizes", "19"};
  if (!c.symmetry) f.push_back("--no-symmetry");
  f.insert(f.end(), c.extra.begin(), c.extra.end());
  // Later ingests are nights: caught up, they count as from scratch.
  f.push_back("--catch-up");
  f.push_back("--");
  return f;
}

}  // namespace

TEST_CASE("the sketch made during the import gives the counts of the one made after it, and serves later ingests") {
  const std::vector<Config> configs = {
      {1, true, {"--threads", "2"}, "resident"},
      {2, true, {"--threads", "2"}, "resident"},
      {3, false, {"--threads", "2"}, "resident"},
      {2, false, {"--threads", "2"}, "resident"},
      {1, false, {"--threads", "2", "--memory-mb", "7"}, "parts"},
      {1, true, {"--threads", "2", "--memory-mb", "4"}, "parts"},
  };
  unsigned seed = 3;
  for (const Config& c : configs) {
    TempDir tmp("sgfpat-sketch-import");
    CAPTURE(c.k);
    CAPTURE(c.symmetry);
    CAPTURE(c.mode);
    const auto files = write_inputs(tmp, seed++);
    const std::vector<std::string> first = {files[0], files[1]};
    nlohmann::json during = ingest_ok(tmp / "during", flags_of(c, "always"), first, tmp.path());
    nlohmann::json after = ingest_ok(tmp / "after", flags_of(c, "never"), first, tmp.path());
    CHECK(during["sketched_during_import"] == true);
    CHECK(after["sketched_during_import"] == false);
    CHECK(during["count"]["mode"] == c.mode);
    CHECK(during["rejected"].get<int>() == 2);
    CHECK(during["filtered"].get<int>() == 2);
    CHECK(during["duplicates"].get<int>() > 0);
    CHECK(during["count"]["games"] == during["games_in_db"]);
    CHECK(during["count"]["games"] == after["count"]["games"]);
    const std::string tsv = export_tsv(tmp / "during", tmp.path());
    CHECK(tsv.size() > 1000);
    CHECK(tsv == export_tsv(tmp / "after", tmp.path()));
    // The next input, counted incrementally on top of each (with the sketch
    // each saved), and both against one ingest of all three.
    nlohmann::json more = ingest_ok(tmp / "during", flags_of(c, "always"), {files[2]}, tmp.path());
    CHECK(more["sketched_during_import"] == false);  // the database has games: pass 1 after the import
    ingest_ok(tmp / "after", flags_of(c, "never"), {files[2]}, tmp.path());
    ingest_ok(tmp / "all", flags_of(c, "never"), files, tmp.path());
    if (c.mode == "resident") CHECK(more["count_plan"] == "incremental");
    const std::string all = export_tsv(tmp / "all", tmp.path());
    CHECK(export_tsv(tmp / "during", tmp.path()) == all);
    CHECK(export_tsv(tmp / "after", tmp.path()) == all);
  }
}

TEST_CASE("the sketch is made during the import only into a database without games, with two threads, and when asked or the inputs are large") {
  TempDir tmp("sgfpat-sketch-import-when");
  const auto files = write_inputs(tmp, 11);
  const Config c{2, true, {}, "resident"};
  auto with_threads = [&](std::vector<std::string> f, const char* n) {
    f.insert(f.end() - 1, {"--threads", n});
    return f;
  };
  // Small inputs: auto leaves it after the import.
  CHECK(ingest_ok(tmp / "auto", with_threads(flags_of(c, "auto"), "2"), {files[0]}, tmp.path())["sketched_during_import"] ==
        false);
  CHECK(ingest_ok(tmp / "one", with_threads(flags_of(c, "always"), "1"), {files[0]}, tmp.path())["sketched_during_import"] ==
        false);
  // A database that holds games already: the pass must cover them too, so
  // it runs after the import.
  CHECK(ingest_ok(tmp / "held", with_threads(flags_of(c, "always"), "2"), {files[0]}, tmp.path())["sketched_during_import"] ==
        true);
  CHECK(ingest_ok(tmp / "held", with_threads(flags_of(c, "always"), "2"), {files[1]}, tmp.path())["sketched_during_import"] ==
        false);
}

TEST_CASE("a database holding games never counted (an ingest stopped after its import) gets pass 1 over all its games") {
  TempDir tmp("sgfpat-sketch-import-held");
  const auto files = write_inputs(tmp, 31);
  const Config c{2, true, {"--threads", "2"}, "resident"};
  {
    // What an ingest killed after storing the first input leaves.
    sgfpat::OpenOptions open;
    open.create_if_missing = true;
    open.settings.scheme.levels = 6;
    std::unique_ptr<sgfpat::PatternDb> db;
    REQUIRE(sgfpat::PatternDb::Open(tmp / "held", open, &db).ok());
    sgfpat::GameFilter filter;
    filter.sizes = {19};
    sgfpat::Importer importer(db.get(), filter);
    uint64_t input_errors = 0;
    REQUIRE(sgfpat::import_inputs({files[0]}, &importer, {}, &input_errors).ok());
    REQUIRE(importer.finish().ok());
    REQUIRE(db->game_count() > 0);
    REQUIRE(db->generation() == 0);
  }
  nlohmann::json j = ingest_ok(tmp / "held", flags_of(c, "always"), files, tmp.path());
  CHECK(j["sketched_during_import"] == false);
  CHECK(j["count_plan"] == "full");
  ingest_ok(tmp / "whole", flags_of(c, "never"), files, tmp.path());
  CHECK(export_tsv(tmp / "held", tmp.path()) == export_tsv(tmp / "whole", tmp.path()));
}

namespace {
// One input of `games` games of a month (several of the import's batches
// of 1,000), with an illegal and a filtered record.
std::string write_big_input(const TempDir& tmp, size_t games) {
  const std::string path = tmp / "big.sgf";
  write_file(path, join(sample_lines(0, games)) + kIllegal + kSmall);
  return path;
}
}  // namespace

TEST_CASE("several batches sketched during the import, the importing thread helping, give the counts of one pass after it") {
  TempDir tmp("sgfpat-sketch-import-big");
  const std::string big = write_big_input(tmp, kSampleGames);
  const Config c{2, true, {"--threads", "2"}, "resident"};
  nlohmann::json during = ingest_ok(tmp / "during", flags_of(c, "always"), {big}, tmp.path());
  nlohmann::json after = ingest_ok(tmp / "after", flags_of(c, "never"), {big}, tmp.path());
  CHECK(during["sketched_during_import"] == true);
  CHECK(during["ingested"].get<int>() > 1900);
  CHECK(export_tsv(tmp / "during", tmp.path()) == export_tsv(tmp / "after", tmp.path()));
}

TEST_CASE("an ingest killed while it sketches during the import, then run again, gives the uninterrupted counts") {
  TempDir tmp("sgfpat-sketch-import-kill");
  const std::string big = write_big_input(tmp, kSampleGames);
  const Config c{2, true, {"--threads", "2"}, "resident"};
  ingest_ok(tmp / "whole", flags_of(c, "never"), {big}, tmp.path());
  const std::string whole = export_tsv(tmp / "whole", tmp.path());
  // Kills at fail points of the import (the sketching thread is then at
  // work on what was stored) and at the count's progress lines: each leaves
  // what it leaves, and the same command then ends with the counts of one
  // uninterrupted ingest.
  struct Kill {
    std::string fail_point, line;  // one of the two
  };
  const std::vector<Kill> kills = {{"import.batch_stored@1", ""},
                                   {"import.batch_stored@2", ""},
                                   {"", "count: exact counts"},
                                   {"", "count: writing the counts"}};
  int killed = 0, stored_uncounted = 0, serial = 0;
  for (const Kill& k : kills) {
    CAPTURE(k.fail_point);
    CAPTURE(k.line);
    const std::string db = tmp / ("killed" + std::to_string(++serial));
    std::vector<std::string> flags = flags_of(c, "always");
    flags.insert(flags.begin(), "--progress");  // flags_of() ends with "--"
    bool hit = false;
    if (!k.fail_point.empty()) {
      Child child(ingest_args(db, flags, {big}), tmp.path(), "k" + std::to_string(serial),
                  {fail_point_env(k.fail_point)});
      const RunResult r = child.wait();
      INFO(r.err);
      hit = died_at_fail_point(r, k.fail_point);
      CHECK(hit);
    } else {
      Child child(ingest_args(db, flags, {big}), tmp.path(), "k" + std::to_string(serial));
      hit = child.kill_at_line(k.line);
      if (k.line != "count: writing the counts") CHECK(hit);  // a small commit may end before the kill lands
    }
    killed += hit;
    DbSnapshot left = read_db(db);
    stored_uncounted += left.opened && left.game_count > 0 && left.generation == 0;
    ingest_ok(db, flags_of(c, "always"), {big}, tmp.path());
    CHECK(export_tsv(db, tmp.path()) == whole);
  }
  MESSAGE(killed << " of " << kills.size() << " runs killed, " << stored_uncounted
                 << " leaving stored games no count covered");
  CHECK(stored_uncounted >= 2);  // the two import kills
}

// Counting in shards equals one ingest: the steps of `sgfpat shard` run as
// separate processes for N = 1, 2, 3 shards give a database whose TSV export
// is byte-identical to that of `sgfpat ingest` of the same inputs
// (duplicates across files, an illegal record, a filtered game; K = 1 and
// 2, symmetry on and off); scripts/sharded-ingest.sh gives the same; steps
// killed with SIGKILL and run again give the same; a later incremental
// ingest into the combined database equals one into the single one.
#include <chrono>
#include <thread>

#include "shard_test_util.h"

using namespace shardtest;

namespace {

struct Config {
  std::vector<std::string> flags;  // ingest / shard plan flags
  std::vector<int> shard_counts;
};

// The plan and every step, in order, N processes per shard step.
// `count_mb` > 0: the count steps' --memory-mb; *parts gets their most
// parts; `tasks` > 1: each shard's count in that many tasks (--part P/Q).
void run_shards(const std::string& work, const std::string& db, int n, const std::vector<std::string>& flags,
                const std::vector<std::string>& inputs, const std::string& scratch, int count_mb = 0,
                uint64_t* parts = nullptr, int tasks = 1) {
  std::vector<std::string> plan = {"plan", "--work", work, "--shards", std::to_string(n), "--sketch-mb", "2"};
  plan.insert(plan.end(), flags.begin(), flags.end());
  plan.insert(plan.end(), inputs.begin(), inputs.end());
  shard_step(plan, scratch);
  uint64_t imported = 0, elsewhere = 0;
  for (int i = 0; i < n; ++i) {
    // Odd shards make their sketch after the import, even ones while
    // storing their games (two threads): the same counts either way.
    const bool during = i % 2 == 0;
    auto j = shard_step({"import", "--work", work, "--shard", std::to_string(i), "--threads", during ? "2" : "1", "-q"},
                        scratch);
    CHECK(j["sketched_during_import"] == during);
    imported += j["ingested"].get<uint64_t>();
    elsewhere += j["elsewhere"].get<uint64_t>();
  }
  CHECK(imported > 0);
  if (n > 1) CHECK(elsewhere > 0);
  shard_step({"sum-sketches", "--work", work}, scratch);
  for (int i = 0; i < n; ++i) shard_step({"kept", "--work", work, "--shard", std::to_string(i), "--threads", "1"}, scratch);
  shard_step({"merge-kept", "--work", work}, scratch);
  for (int i = 0; i < n; ++i)
    for (int p = 1; p <= tasks; ++p) {
      std::vector<std::string> count = {"count", "--work", work, "--shard", std::to_string(i), "--threads", "1"};
      if (count_mb > 0) count.insert(count.end(), {"--memory-mb", std::to_string(count_mb)});
      if (tasks > 1) count.insert(count.end(), {"--part", std::to_string(p) + "/" + std::to_string(tasks)});
      auto j = shard_step(count, scratch);
      CHECK(j["parts"].get<uint64_t>() >= 1);
      if (parts) *parts = std::max(*parts, j["parts"].get<uint64_t>());
    }
  auto j = shard_step({"finish", "--work", work, "--db", db}, scratch);
  CHECK(j["games"].get<uint64_t>() == imported);
}

}  // namespace

TEST_CASE("shards == one ingest, byte for byte, for N = 1, 2, 3, K = 1 and 2, symmetry on and off") {
  TempDir dir("sgfpat-shard");
  const auto inputs = write_corpus(dir.path(), 600);
  const std::vector<Config> configs = {
      {{"--min-played", "2"}, {1, 2, 3}},
      {{"--min-played", "1", "--no-symmetry", "--sizes", "19", "--levels", "6"}, {3}},
  };
  int c = 0;
  for (const Config& config : configs) {
    ++c;
    const std::string single = dir / ("single" + std::to_string(c));
    nlohmann::json ij = ingest_ok(single, config.flags, inputs, dir.path());
    CHECK(ij["rejected"].get<uint64_t>() == 2);
    CHECK(ij["duplicates"].get<uint64_t>() > 50);
    const std::string expected = export_tsv(single, dir.path());
    REQUIRE(expected.size() > 10000);
    const std::vector<std::string> index = position_entries(single);
    REQUIRE(index.size() > 10000);
    for (int n : config.shard_counts) {
      CAPTURE(c);
      CAPTURE(n);
      const std::string db = dir / ("sharded" + std::to_string(c) + "-" + std::to_string(n));
      run_shards(db + ".work", db, n, config.flags, inputs, dir.path());
      const std::string got = export_tsv(db, dir.path());
      CHECK(got.size() == expected.size());
      CHECK(got == expected);
      // The position index too: the union of the shards' entries.
      CHECK(position_entries(db) == index);
      DbSnapshot a = read_db(single), b = read_db(db);
      CHECK(a.game_count == b.game_count);
      CHECK(b.summary.games == b.game_count);
      CHECK(a.summary.positions == b.summary.positions);
      CHECK(a.summary.candidates == b.summary.candidates);
      if (n == 3) {
        // The indexes merged two shards at a time: two overlapping files
        // that the database merges, the same entries.
        const std::string grouped = db + "-fan2";
        shard_step({"finish", "--work", db + ".work", "--db", grouped, "--merge-fan-in", "2"}, dir.path());
        CHECK(position_entries(grouped) == index);
        CHECK(export_tsv(grouped, dir.path()) == expected);
        // A shard without an index (cleared here, as a killed build leaves
        // it): nothing to merge from it, so the index is built from the
        // games, and it is the same.
        {
          sgfpat::OpenOptions open;
          std::unique_ptr<sgfpat::PatternDb> shard;
          REQUIRE(sgfpat::PatternDb::Open(db + ".work/shard-1/db", open, &shard).ok());
          REQUIRE(shard->reset_position_index().ok());
          REQUIRE_FALSE(shard->has_position_index());
        }
        const std::string rebuilt = db + "-unindexed";
        shard_step({"finish", "--work", db + ".work", "--db", rebuilt}, dir.path());
        CHECK(position_entries(rebuilt) == index);
        CHECK(export_tsv(rebuilt, dir.path()) == expected);
        {
          sgfpat::OpenOptions read;
          read.secondary = true;
          std::unique_ptr<sgfpat::PatternDb> db_read;
          REQUIRE(sgfpat::PatternDb::Open(rebuilt, read, &db_read).ok());
          CHECK(db_read->has_position_index());  // recorded complete, not only filled
        }
      }
    }
  }
}

// A count step whose budget does not hold the kept set counts it in parts
// (runs of the buckets the kept lists name), and a shard's count can be
// split into tasks (--part P/Q, each maybe in parts again): the same
// export, whatever the number of parts.  Counts of an earlier split are
// replaced, a missing task's part is an error at finish.
TEST_CASE("count steps with a budget too small for the kept set count it in parts: same export") {
  TempDir dir("sgfpat-shard-parts");
  const auto inputs = write_corpus(dir.path(), 600);
  const std::vector<std::string> flags = {"--min-played", "1"};
  const std::string single = dir / "single";
  ingest_ok(single, flags, inputs, dir.path());
  const std::string expected = export_tsv(single, dir.path());
  REQUIRE(expected.size() > 10000);
  for (int mb : {8, 16}) {
    CAPTURE(mb);
    const std::string db = dir / ("parts" + std::to_string(mb));
    uint64_t parts = 0;
    run_shards(db + ".work", db, 2, flags, inputs, dir.path(), mb, &parts);
    CHECK(parts > 1);
    CHECK(export_tsv(db, dir.path()) == expected);
  }
  // Three tasks a shard, then two tasks of 8 MB each (split again inside),
  // in the same work folder: the second split replaces the first.
  const std::string work = dir / "tasks.work";
  uint64_t parts = 0;
  run_shards(work, dir / "tasks3", 2, flags, inputs, dir.path(), 0, &parts, 3);
  CHECK(testutil::fs::exists(work + "/shard-0/counts-3-of-3.records"));
  CHECK(!testutil::fs::exists(work + "/shard-0/counts.records"));
  CHECK(export_tsv(dir / "tasks3", dir.path()) == expected);
  for (int i = 0; i < 2; ++i)
    for (int p = 1; p <= 2; ++p) {
      auto j = shard_step({"count", "--work", work, "--shard", std::to_string(i), "--threads", "1", "--memory-mb", "8",
                           "--part", std::to_string(p) + "/2"},
                          dir.path());
      CHECK(j["part"] == std::to_string(p) + "/2");
      CHECK(j["parts"].get<uint64_t>() > 1);  // split again inside the task
    }
  shard_step({"finish", "--work", work, "--db", dir / "tasks2"}, dir.path());
  CHECK(export_tsv(dir / "tasks2", dir.path()) == expected);
  CHECK(!testutil::fs::exists(work + "/shard-1/counts-3-of-3.records"));
  testutil::fs::remove(work + "/shard-1/counts-2-of-2.records");
  RunResult r = run_cli({"shard", "finish", "--work", work, "--db", dir / "incomplete"}, dir.path());
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("counts part 2 of 2 is missing") != std::string::npos);
  CHECK(!testutil::fs::exists(dir / "incomplete"));
  // A count in parts killed half-way leaves parts' files; the rerun (whole,
  // now) replaces them and the split's files, and removes them.
  {
    auto j = shard_step({"count", "--work", work, "--shard", "1", "--threads", "1", "--memory-mb", "8"}, dir.path());
    CHECK(j["parts"].get<uint64_t>() > 1);
    // Killed once its second part is counted: the first part's file is written.
    Child c({sgfpat_binary(), "shard", "count", "--work", work, "--shard", "0", "--threads", "1", "--memory-mb", "8"},
            dir.path(), "kill", {fail_point_env("shard.count.part_counted@2")});
    const RunResult killed = c.wait();
    INFO(killed.err);
    CHECK(died_at_fail_point(killed, "shard.count.part_counted@2"));
    bool leftovers = false;
    for (const auto& e : testutil::fs::directory_iterator(work + "/shard-0"))
      leftovers |= e.path().filename().string().find(".part-") != std::string::npos;
    CHECK(leftovers);
    shard_step({"count", "--work", work, "--shard", "0", "--threads", "1"}, dir.path());
    for (const auto& e : testutil::fs::directory_iterator(work + "/shard-0")) {
      CHECK(e.path().filename().string().find(".part-") == std::string::npos);
      CHECK(e.path().filename().string().find("-of-") == std::string::npos);
    }
    shard_step({"finish", "--work", work, "--db", dir / "killed"}, dir.path());
    CHECK(export_tsv(dir / "killed", dir.path()) == expected);
  }
}

TEST_CASE("an import step whose budget cannot hold the sketch beside the position index run makes the sketch after storing") {
  TempDir dir("sgfpat-shard-import-budget");
  const auto inputs = write_corpus(dir.path(), 200);
  const std::string work = dir / "work";
  std::vector<std::string> plan = {"plan", "--work", work, "--shards", "2", "--sketch-mb", "2"};
  plan.insert(plan.end(), inputs.begin(), inputs.end());
  shard_step(plan, dir.path());
  // 6 MB leaves the counting 2.25 MB: the 2 MB sketch fits alone (the step
  // runs), not beside the smallest run.
  auto j = shard_step({"import", "--work", work, "--shard", "0", "--threads", "2", "--memory-mb", "6", "-q"}, dir.path());
  CHECK(j["sketched_during_import"] == false);
  j = shard_step({"import", "--work", work, "--shard", "1", "--threads", "2", "--memory-mb", "64", "-q"}, dir.path());
  CHECK(j["sketched_during_import"] == true);
}

TEST_CASE("the combined database takes a night of later games like the single one; after a catch-up, as one ingest") {
  TempDir dir("sgfpat-shard-inc");
  auto inputs = write_corpus(dir.path(), 300);
  const std::string more = dir / "more.sgf";
  write_file(more, join(sample_lines(250, 100)) + kIllegal);
  const std::string single = dir / "single", db = dir / "sharded";
  ingest_ok(single, {}, inputs, dir.path());
  run_shards(dir / "work", db, 2, {}, inputs, dir.path());
  auto a = ingest_ok(single, {}, {more}, dir.path());
  auto b = ingest_ok(db, {}, {more}, dir.path());
  CHECK(b["count_plan"] == "incremental");
  CHECK(b["count"]["mode"] == "night");
  CHECK(a["ingested"] == b["ingested"]);
  CHECK(export_tsv(single, dir.path()) == export_tsv(db, dir.path()));
  RunResult c = run_cli({"catch-up", "--db", db, "--quiet"}, dir.path());
  INFO("catch-up: " << c.err);
  REQUIRE(c.exit_code == 0);
  std::vector<std::string> all = inputs;
  all.push_back(more);
  const std::string scratch = dir / "scratch";
  ingest_ok(scratch, {}, all, dir.path());
  CHECK(export_tsv(scratch, dir.path()) == export_tsv(db, dir.path()));
}

TEST_CASE("scripts/sharded-ingest.sh runs the same steps: same export; clear errors and exit codes") {
  TempDir dir("sgfpat-shard-script");
  const auto inputs = write_corpus(dir.path(), 450);
  const std::string single = dir / "single", db = dir / "sharded";
  ingest_ok(single, {"--min-played", "2"}, inputs, dir.path());
  const std::string script = std::string(SGFPAT_SOURCE_DIR) + "/scripts/sharded-ingest.sh";
  std::vector<std::string> args = {"/bin/bash", script, "--workers", "3", "--db", db, "--sgfpat", sgfpat_binary(),
                                   "--sketch-mb", "2", "--min-played", "2", "--count-parts", "2"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  RunResult r = run(args, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(!testutil::fs::exists(db + ".work"));  // removed after success
  CHECK(export_tsv(db, dir.path()) == export_tsv(single, dir.path()));
  // The closing table has a row for every step.
  for (const std::string step : {"import", "sum-sketches", "kept", "merge-kept", "count", "finish"})
    CHECK_MESSAGE(r.err.find("\n" + step + " ") != std::string::npos, step);

  // The database exists now: refused, exit 2, nothing touched.
  r = run(args, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("already exists") != std::string::npos);
  // A missing input: the plan says which, exit 3.
  r = run({"/bin/bash", script, "--workers", "2", "--db", dir / "other", "--sgfpat", sgfpat_binary(),
           dir / "missing.sgf"},
          dir.path());
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("missing.sgf does not exist") != std::string::npos);
  // No --workers: usage, exit 2.
  r = run({"/bin/bash", script, "--db", dir / "other", inputs[0]}, dir.path());
  CHECK(r.exit_code == 2);
}

TEST_CASE("shard steps killed with SIGKILL and run again give the uninterrupted result") {
  TempDir dir("sgfpat-shard-kill");
  const auto inputs = write_corpus(dir.path(), 500);
  const std::string single = dir / "single", db = dir / "sharded", work = dir / "work";
  ingest_ok(single, {}, inputs, dir.path());
  const std::string expected = export_tsv(single, dir.path());
  std::vector<std::string> plan = {"plan", "--work", work, "--shards", "2", "--sketch-mb", "2"};
  plan.insert(plan.end(), inputs.begin(), inputs.end());
  shard_step(plan, dir.path());

  // Runs `sgfpat shard ARGS` to die at fail point `point`; true if it did.
  auto kill_at = [&](std::vector<std::string> args, const std::string& point) {
    args.insert(args.begin(), {sgfpat_binary(), "shard"});
    Child c(args, dir.path(), "kill", {fail_point_env(point)});
    const RunResult r = c.wait();
    INFO(r.err);
    return died_at_fail_point(r, point);
  };
  // Import of shard 0: killed once its games are stored, then completed by
  // a rerun.  Two threads: the sketch is made while the games are stored,
  // and the rerun, which finds games stored, makes it after the import over
  // all of them.
  CHECK(kill_at({"import", "--work", work, "--shard", "0", "--threads", "2", "-q"}, "import.batch_stored@1"));
  shard_step({"import", "--work", work, "--shard", "0", "--threads", "2", "-q"}, dir.path());
  shard_step({"import", "--work", work, "--shard", "1", "--threads", "2", "-q"}, dir.path());
  shard_step({"sum-sketches", "--work", work}, dir.path());
  for (const char* s : {"0", "1"}) shard_step({"kept", "--work", work, "--shard", s, "--threads", "1"}, dir.path());
  shard_step({"merge-kept", "--work", work}, dir.path());
  shard_step({"count", "--work", work, "--shard", "1", "--threads", "1"}, dir.path());
  // Count of shard 0: killed with its counts made and not written.
  CHECK(kill_at({"count", "--work", work, "--shard", "0", "--threads", "1"}, "shard.count.part_counted@1"));
  shard_step({"count", "--work", work, "--shard", "0", "--threads", "1"}, dir.path());
  // finish, killed with the games copied: no database at --db, a leftover
  // .partial that the rerun replaces.
  CHECK(kill_at({"finish", "--work", work, "--db", db}, "shard.finish.games_copied"));
  CHECK(!testutil::fs::exists(db));
  CHECK(testutil::fs::exists(db + ".partial"));
  shard_step({"finish", "--work", work, "--db", db}, dir.path());
  CHECK(!testutil::fs::exists(db + ".partial"));
  CHECK(export_tsv(db, dir.path()) == expected);
  // A damaged step output is reported, never read as a shorter list.
  {
    const std::string whole = read_file(work + "/shard-0/counts.records");
    std::string bytes = whole;
    bytes.resize(bytes.size() - 3);
    write_file(work + "/shard-0/counts.records", bytes);
    RunResult r = run_cli({"shard", "finish", "--work", work, "--db", dir / "third"}, dir.path());
    CHECK(r.exit_code == 5);  // Corruption: damaged data
    CHECK(r.err.find("damaged") != std::string::npos);
    CHECK(!testutil::fs::exists(dir / "third"));
    write_file(work + "/shard-0/counts.records", whole);
  }
  // An input that grew after the sketches were summed: a rerun import stores
  // the new games, and finish refuses the steps that no longer fit together.
  {
    std::ofstream(inputs[0], std::ios::app)
        << join(sample_lines(1950, 30));
    for (const char* s : {"0", "1"}) shard_step({"import", "--work", work, "--shard", s, "-q"}, dir.path());
    RunResult r = run_cli({"shard", "finish", "--work", work, "--db", dir / "fourth"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("run the steps again from import") != std::string::npos);
    CHECK(!testutil::fs::exists(dir / "fourth"));
    CHECK(!testutil::fs::exists(dir / "fourth.partial"));
  }
}

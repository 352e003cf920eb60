// An ingest killed with SIGKILL at any moment (import, count pass 1, pass 2)
// leaves a database that the same command, run again, completes to exactly
// the counts of an uninterrupted run; and a reader opened while an ingest
// runs, or after it died, sees one whole generation: no counts, or exactly
// the counts of a complete count of some set of games, never a mix.
#include <atomic>
#include <set>


#include "test_util.h"

using namespace testutil;

namespace {

const std::vector<std::string> kFlags = {"--levels", "6", "--min-played", "2", "--threads", "2"};
// The same, with progress lines on stderr, by which the tests know where a run is.
const std::vector<std::string> kFlagsProgress = {"--levels", "6", "--min-played", "2", "--threads", "2", "--progress"};

struct Reference {
  std::string name;
  uint64_t games = 0;
  uint64_t positions = 0;
  std::map<CountKey, sgfpat::PatternCounts> reported;
};

Reference reference_of(const std::string& name, const std::string& db_path) {
  DbSnapshot s = read_db(db_path);
  INFO(s.error);
  REQUIRE(s.opened);
  REQUIRE(s.generation > 0);
  Reference r;
  r.name = name;
  r.games = s.game_count;
  r.positions = s.summary.positions;
  REQUIRE(s.summary.games == r.games);
  r.reported = s.reported();
  REQUIRE(!r.reported.empty());
  // Summary and counts agree: every counted position adds one `played` at
  // every level, so no level can hold more played than there were positions,
  // and the patterns of level 1 (a few dozen, all frequent) hold them all.
  const int levels = s.settings.scheme.levels;
  std::vector<uint64_t> played(size_t(levels) + 1, 0);
  for (const auto& [k, c] : s.counts) played[size_t(k.first)] += c.played;
  CHECK(played[1] == r.positions);
  for (int i = 2; i <= levels; ++i) CHECK(played[size_t(i)] <= r.positions);
  return r;
}

// What a reader sees: "none" (no generation yet), the name of the reference
// it equals exactly, or a description of the inconsistency.
std::string classify(const DbSnapshot& s, const std::vector<const Reference*>& refs) {
  if (!s.opened) return "open failed: " + s.error;
  if (s.generation == 0) {
    if (s.counts.empty() && s.summary == sgfpat::CountSummary{}) return "none";
    return "generation 0 with " + std::to_string(s.counts.size()) + " counts";
  }
  if (s.summary.games == 0 || s.summary.positions == 0)
    return "bad summary: " + std::to_string(s.summary.games) + " games, " + std::to_string(s.summary.positions) +
           " positions";
  auto got = s.reported();
  std::string why_all;
  for (const Reference* r : refs) {
    if (s.summary.games != r->games) continue;
    std::string why;
    size_t d = diff_counts(r->reported, got, &why, 4);
    if (d == 0 && s.summary.positions == r->positions) return r->name;
    why_all += "vs " + r->name + ": " + std::to_string(d) + " differences\n" + why;
  }
  return "generation " + std::to_string(s.generation) + " of " + std::to_string(s.summary.games) +
         " games matches no complete count:\n" + why_all;
}

// Opens readers on `db` again and again while `child` runs, until it ends or
// its progress shows `step` ("" for no step); records what each saw.
void poll_readers(Child& child, const std::string& db, const std::string& step,
                  const std::vector<const Reference*>& refs, std::map<std::string, int>* seen) {
  while (child.running() && (step.empty() || child.err_text().find(step) == std::string::npos)) {
    DbSnapshot s = read_db(db);
    ++(*seen)[classify(s, refs)];
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// Waits until the child's progress shows `step`, then kills it; true if it
// was killed there (false: it ended first).
bool kill_at_step(Child& child, const std::string& step) { return child.kill_at_line(step); }

// The steps that ingest --progress announces, in order.
const std::string kImportStep = "import: ";
const std::string kPass1Step = "count: sketch of played patterns";
const std::string kPass2Step = "count: exact counts";
const std::string kCommitStep = "count: writing the counts";

struct Phases {
  double import_s = 0, pass1 = 0, pass2 = 0, commit = 0, startup = 0;
};

}  // namespace

// The uninterrupted run of the whole month, made once for every test case.
struct Shared {
  TempDir tmp{"sgfpat-crash"};
  std::string full = sample_path();
  std::string part;  // the first 1200 games, as a plain file
  Phases ph;
  uint64_t full_games = 0;
  Reference ref_full;
};
Shared& shared() {
  static std::unique_ptr<Shared> sh;  // destroyed at exit, with its directory
  if (sh) return *sh;
  sh = std::make_unique<Shared>();
  sh->part = sh->tmp / "first-1200.sgf";
  write_file(sh->part, join(sample_lines(0, 1200)));
  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json jr = ingest_ok(sh->tmp / "ref-full", kFlags, {sh->full}, sh->tmp.path());
  Phases& ph = sh->ph;
  ph.import_s = jr["import_seconds"].get<double>();
  ph.pass1 = jr["count"]["seconds"]["pass1"].get<double>();
  ph.pass2 = jr["count"]["seconds"]["pass2"].get<double>();
  ph.commit = jr["count"]["seconds"]["commit"].get<double>();
  ph.startup = std::max(0.0, jr["elapsed_seconds"].get<double>() - ph.import_s - ph.pass1 - ph.pass2 - ph.commit);
  MESSAGE("reference run: " << seconds_since(t0) << " s (import " << ph.import_s << ", pass 1 " << ph.pass1
                            << ", pass 2 " << ph.pass2 << ", commit " << ph.commit << ")");
  sh->full_games = jr["games_in_db"].get<uint64_t>();
  CHECK(sh->full_games + jr["rejected"].get<uint64_t>() + jr["duplicates"].get<uint64_t>() == kSampleGames);
  sh->ref_full = reference_of("full", sh->tmp / "ref-full");
  CHECK(sh->ref_full.games == sh->full_games);
  return *sh;
}

TEST_CASE("ingest killed in import, pass 1 and pass 2 of successive runs; a complete run then gives exactly the uninterrupted counts") {
  Shared& sh = shared();
  const std::string& full = sh.full;
  const uint64_t full_games = sh.full_games;
  const Reference& ref_full = sh.ref_full;
  TempDir tmp("sgfpat-crash");
  {
    const std::string db = tmp / "chain";
    // First a kill in the middle of the import of new games: right after
    // its first batch of 1,000 games is stored (a fail point), so some but
    // not all games are stored.
    {
      Child c(ingest_args(db, kFlags, {full}), tmp.path(), "import", {fail_point_env("import.batch_stored@1")});
      const RunResult r = c.wait();
      INFO(r.err);
      REQUIRE(died_at_fail_point(r, "import.batch_stored@1"));
      DbSnapshot s = read_db(db);
      MESSAGE("killed after the import's first batch: " << s.game_count << " games stored, reader: "
                                                         << (s.opened ? classify(s, {&ref_full}) : s.error));
      if (s.opened) CHECK(classify(s, {&ref_full}) == "none");
      CHECK(s.game_count > 0);
      CHECK(s.game_count < full_games);
    }

    // Then kills in later runs on that database: while importing again
    // (only duplicates and the rest), in count pass 1, in pass 2 and in
    // the commit (the switch, then the counts' compaction), each at the
    // moment the run's progress announces that step.
    const std::vector<std::pair<std::string, std::string>> kills = {
        {"import (again)", kImportStep},
        {"count pass 1", kPass1Step},
        {"count pass 2", kPass2Step},
        {"the commit", kCommitStep},
    };
    int serial = 0;
    for (const auto& [what, step] : kills) {
      Child c(ingest_args(db, kFlagsProgress, {full}), tmp.path(), "chain" + std::to_string(++serial));
      bool hit = kill_at_step(c, step);
      DbSnapshot s = read_db(db);
      std::string cls = classify(s, {&ref_full});
      MESSAGE("kill at the start of " << what << " after " << c.elapsed() << " s: "
                                      << std::string(hit ? "killed" : "had already ended") << "; reader sees: " << cls
                                      << ", " << s.game_count << " games stored");
      if (step != kCommitStep) CHECK(hit);  // a month's commit may end before the kill lands
      CHECK((cls == "none" || cls == "full"));
      CHECK(s.game_count <= full_games);
    }

    nlohmann::json j = ingest_ok(db, kFlags, {full}, tmp.path());
    CHECK(j["games_in_db"].get<uint64_t>() == full_games);
    CHECK(j["games_read"].get<uint64_t>() == kSampleGames);
    CHECK(j["ingested"].get<uint64_t>() + j["duplicates"].get<uint64_t>() + j["rejected"].get<uint64_t>() == kSampleGames);
    DbSnapshot s = read_db(db);
    CHECK(classify(s, {&ref_full}) == "full");
    CHECK(s.game_count == full_games);
    std::string why;
    size_t diffs = diff_counts(ref_full.reported, s.reported(), &why);
    INFO(why);
    CHECK(diffs == 0);
    // A last run has nothing to do.
    nlohmann::json again = ingest_ok(db, kFlags, {full}, tmp.path());
    CHECK(again["ingested"].get<uint64_t>() == 0);
    CHECK_FALSE(again["recounted"].get<bool>());
    CHECK(classify(read_db(db), {&ref_full}) == "full");
  }

}

TEST_CASE("a recount killed in pass 2 leaves the previous counts intact; readers see old or new counts only") {
  Shared& sh = shared();
  const std::string& full = sh.full;
  const std::string& part = sh.part;
  const uint64_t full_games = sh.full_games;
  const Reference& ref_full = sh.ref_full;
  TempDir tmp("sgfpat-crash");
  {
    const std::string db = tmp / "two-step";
    nlohmann::json ja = ingest_ok(db, kFlags, {part}, tmp.path());
    CHECK(ja["games_in_db"].get<uint64_t>() + ja["rejected"].get<uint64_t>() + ja["duplicates"].get<uint64_t>() ==
          1200);
    Reference ref_a = reference_of("A", db);
    DbSnapshot before = read_db(db);
    REQUIRE(ref_a.games < ref_full.games);

    // Grow to the whole month with a full recount; kill it as soon as pass 2
    // has begun, while readers keep opening the database.
    std::map<std::string, int> seen;
    std::vector<std::string> recount_flags = kFlagsProgress;
    recount_flags.push_back("--recount");
    Child c(ingest_args(db, recount_flags, {full}), tmp.path(), "grow1");
    poll_readers(c, db, kPass2Step, {&ref_a, &ref_full}, &seen);
    bool hit = kill_at_step(c, kPass2Step);
    CHECK(hit);
    DbSnapshot after = read_db(db);
    std::string cls = classify(after, {&ref_a, &ref_full});
    MESSAGE("recount killed in pass 2 at " << c.elapsed() << " s (" << std::string(hit ? "killed" : "had already ended")
                                 << "); reader sees: " << cls << ", " << after.game_count << " games stored");
    if (hit) {
      // Every game was stored (import ends long before), counts are the old ones.
      CHECK(cls == "A");
      CHECK(after.game_count == full_games);
      CHECK(after.generation == before.generation);
      CHECK(after.counts.size() == before.counts.size());
    }

    // Run again to completion (a recount again: a night would leave
    // patterns pending), still with readers.
    std::vector<std::string> again_flags = kFlags;
    again_flags.push_back("--recount");
    Child c2(ingest_args(db, again_flags, {full}), tmp.path(), "grow2");
    poll_readers(c2, db, "", {&ref_a, &ref_full}, &seen);
    RunResult r = c2.wait();
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    nlohmann::json j = r.json();
    REQUIRE(j.is_object());
    if (hit) {
      CHECK(j["ingested"].get<uint64_t>() == 0);
      CHECK(j["duplicates"].get<uint64_t>() == full_games);
    }
    CHECK(j["recounted"].get<bool>());
    CHECK(j["games_in_db"].get<uint64_t>() == full_games);
    DbSnapshot s = read_db(db);
    CHECK(classify(s, {&ref_a, &ref_full}) == "full");
    std::string why;
    size_t diffs = diff_counts(ref_full.reported, s.reported(), &why);
    INFO(why);
    CHECK(diffs == 0);

    std::string seen_text;
    int polls = 0;
    for (const auto& [k, n] : seen) {
      seen_text += "  " + std::to_string(n) + " x " + k + "\n";
      polls += n;
    }
    MESSAGE("readers during the two runs:\n" << seen_text);
    for (const auto& [k, n] : seen) {
      INFO("a reader saw: " << k);
      CHECK((k == "A" || k == "full"));
    }
    CHECK(polls >= 5);
    CHECK(seen.count("A") == 1);
  }
}

TEST_CASE("a recount killed in its commit leaves the previous counts or the new ones, never a mix") {
  // The commit writes the new generation, switches to it and reclaims the
  // old one's space; a kill anywhere in it must leave one whole generation.
  Shared& sh = shared();
  TempDir tmp("sgfpat-crash-commit");
  const std::string db = tmp / "commit";
  ingest_ok(db, kFlags, {sh.part}, tmp.path());
  const Reference ref_a = reference_of("A", db);
  REQUIRE(ref_a.games < sh.ref_full.games);

  std::vector<std::string> recount_flags = kFlagsProgress;
  recount_flags.push_back("--recount");
  Child c(ingest_args(db, recount_flags, {sh.full}), tmp.path(), "commit1");
  const bool hit = kill_at_step(c, kCommitStep);
  DbSnapshot after = read_db(db);
  const std::string cls = classify(after, {&ref_a, &sh.ref_full});
  MESSAGE("recount killed at its commit after " << c.elapsed() << " s ("
                                               << std::string(hit ? "killed" : "had already ended")
                                               << "); reader sees: " << cls);
  CHECK((cls == "A" || cls == "full"));
  CHECK(after.game_count == sh.full_games);  // the import ended long before

  // The same command again ends with exactly the uninterrupted counts.
  nlohmann::json j = ingest_ok(db, kFlags, {sh.full}, tmp.path());
  CHECK(j["games_in_db"].get<uint64_t>() == sh.full_games);
  DbSnapshot s = read_db(db);
  CHECK(classify(s, {&ref_a, &sh.ref_full}) == "full");
  std::string why;
  const size_t diffs = diff_counts(sh.ref_full.reported, s.reported(), &why);
  INFO(why);
  CHECK(diffs == 0);
}

TEST_CASE("a count in parts killed after a part goes on from the next part, to exactly the uninterrupted counts") {
  Shared& sh = shared();
  TempDir tmp("sgfpat-crash-parts");
  const std::string db = tmp / "parts";
  // A budget that counts the sample in several parts: levels 16 (more
  // patterns a move than the other cases' 6), 11 MiB; its own reference.
  const std::vector<std::string> whole_flags = {"--levels", "16", "--min-played", "2", "--threads", "2"};
  ingest_ok(tmp / "reference", whole_flags, {sh.full}, tmp.path());
  const Reference ref = reference_of("full", tmp / "reference");
  std::vector<std::string> flags = whole_flags;
  flags.insert(flags.end(), {"--progress", "--memory-mb", "11"});
  const std::string kCounting2 = "count: exact counts of part 2";
  const std::string kCounting3 = "count: exact counts of part 3";

  // Killed while part 2 is counted: part 1 is written and recorded.
  Child c1(ingest_args(db, flags, {sh.full}), tmp.path(), "run1");
  const bool hit1 = kill_at_step(c1, kCounting2);
  REQUIRE_MESSAGE(hit1, "the first run ended before its second part: " << c1.err_text());
  CHECK(classify(read_db(db), {&ref}) == "none");
  // stats tells that the next ingest goes on from there.
  {
    const RunResult st = run_cli({"stats", "--db", db, "--json", "--top", "0"}, tmp.path());
    REQUIRE(st.exit_code == 0);
    const nlohmann::json js = st.json();
    REQUIRE(js.contains("interrupted_count"));
    CHECK(js["interrupted_count"]["parts"].get<uint64_t>() == 1);
    const double share = js["interrupted_count"]["share_counted"].get<double>();
    CHECK(share > 0.0);
    CHECK(share < 1.0);
  }

  // Run again, killed while part 3 is counted.
  Child c2(ingest_args(db, flags, {sh.full}), tmp.path(), "run2");
  const bool hit2 = kill_at_step(c2, kCounting3);
  const std::string err2 = c2.err_text();
  INFO(err2);
  CHECK(err2.find("of part 1:") == std::string::npos);  // part 1 is not counted again
  CHECK(err2.find("count: sketch of played patterns:") == std::string::npos);
  // The kept file the first run listed is taken up, not listed again.
  CHECK(err2.find("count: listing the kept patterns") == std::string::npos);
  CHECK(err2.find("count: exact counts of part 2:") != std::string::npos);
  if (hit2) CHECK(classify(read_db(db), {&ref}) == "none");

  // And to the end: parts 3.. (or the commit only).
  Child c3(ingest_args(db, flags, {sh.full}), tmp.path(), "run3");
  RunResult r = c3.wait();
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = r.json();
  REQUIRE(j.is_object());
  CHECK(j["ingested"].get<uint64_t>() == 0);
  CHECK(j["duplicates"].get<uint64_t>() == sh.full_games);
  REQUIRE(j["recounted"].get<bool>());
  CHECK(j["count"]["mode"] == "parts");
  CHECK(j["count"]["parts"].get<uint64_t>() >= 3);
  CHECK(j["count"]["resumed_parts"].get<uint64_t>() >= (hit2 ? 2u : 1u));
  CHECK(j["count"]["games"].get<uint64_t>() == sh.full_games);
  CHECK(j["count"]["positions"].get<uint64_t>() == ref.positions);
  CHECK(r.err.find("of part 1:") == std::string::npos);
  CHECK(r.err.find("of part 2:") == std::string::npos);

  DbSnapshot after = read_db(db);
  CHECK(classify(after, {&ref}) == "full");
  std::string why;
  CHECK_MESSAGE(diff_counts(ref.reported, after.reported(), &why) == 0, why);
  // Nothing of the interrupted runs is left to resume, nor their kept files.
  CHECK_FALSE(run_cli({"stats", "--db", db, "--json", "--top", "0"}, tmp.path()).json().contains("interrupted_count"));
  for (const auto& e : std::filesystem::directory_iterator(db))
    CHECK_MESSAGE(e.path().extension() != ".parts", e.path());
  Child c4(ingest_args(db, flags, {sh.full}), tmp.path(), "run4");
  const RunResult r4 = c4.wait();
  REQUIRE(r4.exit_code == 0);
  CHECK(r4.json()["recounted"].get<bool>() == false);
}

TEST_CASE("readers opened while ingests commit nights and catch-ups see whole states") {
  // Many small ingests, one new game each, so that nights and catch-ups are
  // committed again and again while a reader thread keeps opening the
  // database.  With min-played 1 every played pattern is reported or
  // pending, so in any whole state the played counts of each level, the
  // reported patterns' and the pending ones', add up to the summary's
  // positions.
  TempDir tmp("sgfpat-crash");
  const std::string db = tmp / "db";
  const std::vector<std::string> flags = {"--levels", "2", "--min-played", "1", "--threads", "1"};
  std::vector<std::string> lines = sample_lines(0, 60);
  REQUIRE(lines.size() == 60);
  ingest_ok(db, flags, {}, tmp.path());  // creates the database

  struct Seen {
    long polls = 0, counted = 0, open_failures = 0;
    std::vector<std::string> bad;
    std::set<uint64_t> states;  // games counted
  } seen;
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    while (!stop) {
      DbSnapshot s = read_db(db);
      ++seen.polls;
      if (!s.opened) {
        ++seen.open_failures;
        if (seen.bad.size() < 10) seen.bad.push_back("open failed: " + s.error);
        continue;
      }
      if (s.generation == 0) continue;
      ++seen.counted;
      seen.states.insert(s.summary.games);
      const uint64_t positions = s.summary.positions;
      uint64_t played[3] = {0, 0, 0};
      for (const auto& [k, c] : s.counts)
        if (k.first >= 1 && k.first <= 2) played[k.first] += c.played;
      for (const auto& [k, p] : s.pending)
        if (k.first >= 1 && k.first <= 2) played[k.first] += p.played;
      if (positions == 0 || played[1] != positions || played[2] != positions) {
        if (seen.bad.size() < 10)
          seen.bad.push_back("generation " + std::to_string(s.generation) + ", " + std::to_string(s.summary.games) +
                             " games: summary positions " + std::to_string(positions) + ", played at level 1 " +
                             std::to_string(played[1]) + ", at level 2 " + std::to_string(played[2]) + " (" +
                             std::to_string(s.counts.size()) + " counts, " + std::to_string(s.pending.size()) +
                             " pending)");
        else
          seen.bad.push_back("");
      }
    }
  });
  auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string f = tmp / ("game" + std::to_string(i) + ".sgf");
    write_file(f, lines[i]);
    // Every third night is caught up as well.
    std::vector<std::string> these = flags;
    if (i % 3 == 2) these.push_back("--catch-up");
    RunResult r = run(ingest_args(db, these, {f}), tmp.path());
    if (r.exit_code != 0) {
      stop = true;
      reader.join();
      FAIL("ingest " << i << " failed: " << r.err);
    }
  }
  stop = true;
  reader.join();
  MESSAGE(lines.size() << " ingests in " << seconds_since(t0) << " s; " << seen.polls << " reader opens, "
                       << seen.counted << " saw counts, " << seen.states.size() << " states seen, "
                       << seen.bad.size() << " inconsistent");
  std::string text;
  for (const auto& b : seen.bad)
    if (!b.empty()) text += "  " + b + "\n";
  INFO("inconsistent reader states:\n" << text);
  CHECK(seen.bad.empty());
  CHECK(seen.states.size() >= 10);
  DbSnapshot final_state = read_db(db);
  CHECK(final_state.game_count == 60);
}

TEST_CASE("a reader removes the scratch folders of readers killed before they could") {
  TempDir tmp("sgfpat-crash");
  const std::string db = tmp / "db";
  std::vector<std::string> lines = sample_lines(0, 5);
  const std::string f = tmp / "games.sgf";
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  write_file(f, text);
  ingest_ok(db, kFlags, {f}, tmp.path());

  // A process that is gone for sure: a child we have waited for.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  REQUIRE(::waitpid(child, nullptr, 0) == child);
  const auto scratch = std::filesystem::temp_directory_path();
  const auto dead = scratch / ("sgfpat-reader-" + std::to_string(child) + "-12345");
  const auto alive = scratch / ("sgfpat-reader-" + std::to_string(::getpid()) + "-12345");
  std::filesystem::create_directories(dead);
  std::filesystem::create_directories(alive);
  write_file((dead / "LOG").string(), "left by a killed reader");
  write_file((dead / "LOG.old.1").string(), "left by a killed reader");
  // The temp folder is shared: nothing found there is followed.
  const std::string victim = tmp / "victim";
  write_file(victim, "not the reader's");
  const auto planted = scratch / ("sgfpat-reader-" + std::to_string(child) + "-777");
  std::filesystem::create_directory_symlink(tmp.path(), planted);

  DbSnapshot s = read_db(db);
  CHECK(s.opened);
  CHECK_FALSE(std::filesystem::exists(dead));
  CHECK(std::filesystem::exists(alive));  // its process still runs
  CHECK(std::filesystem::exists(victim));
  CHECK(std::filesystem::is_symlink(planted));
  std::filesystem::remove_all(alive);
  std::filesystem::remove(planted);
}

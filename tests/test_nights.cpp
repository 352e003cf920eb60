// Nights (docs/nightly.md) against counts from scratch: a database fed its
// games in parts (random splits, duplicates across parts, illegal and
// filtered games; K = 1, 2, 3, symmetry on and off, budgets that count in
// parts or in full) reports after every night exactly the counts a count
// from scratch of the same games reports, for every pattern it reports; its
// pending patterns are exactly those the count from scratch reports beside
// them, with their played and wins; after a catch-up its counts and its
// TSV and priors exports are those of the count from scratch, byte for
// byte.  A night or a catch-up killed with SIGKILL, then run again, gives
// the same; a night on a damaged database reports the damage and changes
// nothing.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>

#include <rocksdb/write_batch.h>

#include "count/part_range.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace testutil;

namespace {

// Hand-made records that must not count: an illegal one (rejected), a 9x9
// game (filtered by --sizes 19), and a game every part holds (stored once).
const char* const kIllegal = "(;GM[1]SZ[19]RE[B+R];B[dd];W[dd])\n";
const char* const kSmall = "(;GM[1]SZ[9]RE[W+R];B[ee];W[cc];B[gg];W[cg])\n";

std::vector<std::string> corpus_lines() {
  static std::vector<std::string> lines = sample_lines(1000, 160);
  return lines;
}

// `parts` random parts of the corpus lines, the first holding about 60% of
// the games (like an archive and its nightly additions; a part adding more
// than the database holds may rebuild the sketch instead): each game lands
// in one part, about one in ten also in another part, and the hand-made
// records go to every part.  Deterministic for a seed.
std::vector<std::string> split(size_t parts, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out(parts);
  for (const std::string& line : corpus_lines()) {
    out[rng() % 10 < 6 ? 0 : 1 + rng() % (parts - 1)] += line;
    if (rng() % 10 == 0) out[rng() % parts] += line;
  }
  for (auto& p : out) p += std::string(kIllegal) + kSmall;
  return out;
}

// Writes split(2, seed)'s parts as a.sgf (the archive) and b.sgf (a night) in `tmp`.
void write_two_parts(const TempDir& tmp, unsigned seed) {
  const auto texts = split(2, seed);
  write_file(tmp / "a.sgf", texts[0]);
  write_file(tmp / "b.sgf", texts[1]);
}

std::string export_tsv(const std::string& db, const std::string& scratch) {
  const std::string out = scratch + "/export-" + std::to_string(std::hash<std::string>()(db)) + ".tsv";
  RunResult r = run({SGFPAT_BINARY, "export", "--db", db, "-f", "tsv", "-o", out}, scratch);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return read_file(out);
}

void require_same_counts(const std::string& a, const std::string& b) {
  DbSnapshot sa = read_db(a), sb = read_db(b);
  REQUIRE(sa.opened);
  REQUIRE(sb.opened);
  CHECK(sa.game_count == sb.game_count);
  std::string why;
  const size_t d = diff_counts(sa.reported(), sb.reported(), &why);
  INFO("nights vs from scratch:\n" << why);
  CHECK(d == 0);
  CHECK(!sa.reported().empty());
}

std::map<CountKey, sgfpat::PendingPattern> pending_of(const std::string& db) {
  std::unique_ptr<sgfpat::PatternDb> pdb;
  REQUIRE(sgfpat::PatternDb::OpenReader(db, &pdb).ok());
  std::map<CountKey, sgfpat::PendingPattern> out;
  REQUIRE(pdb->for_each_pending_pattern([&](const sgfpat::PendingPattern& p) {
                out[{p.level, p.key}] = p;
                return true;
              })
              .ok());
  return out;
}

// After a night: every pattern `night` reports has the counts `scratch`
// (one ingest of the same games) reports, and its pending patterns are
// exactly the others `scratch` reports, with their played and wins.
// Returns how many are pending.
size_t check_night(const std::string& night, const std::string& scratch) {
  DbSnapshot sn = read_db(night), ss = read_db(scratch);
  check_same_totals(sn, ss);
  const auto reported = sn.reported(), expected = ss.reported();
  size_t wrong = 0, extra = 0;
  for (const auto& [k, c] : reported) {
    auto it = expected.find(k);
    if (it == expected.end()) ++extra;
    else if (!same_counts(c, it->second)) ++wrong;
  }
  CHECK(extra == 0);
  CHECK(wrong == 0);
  const auto pending = pending_of(night);
  size_t missing = 0, not_pending = 0, bad_played = 0;
  for (const auto& [k, c] : expected) {
    if (reported.count(k)) continue;
    auto p = pending.find(k);
    if (p == pending.end()) ++missing;
    else if (p->second.played != c.played || p->second.wins != c.wins) ++bad_played;
  }
  for (const auto& [k, p] : pending)
    if (!expected.count(k) || reported.count(k)) ++not_pending;
  CHECK(missing == 0);
  CHECK(not_pending == 0);
  CHECK(bad_played == 0);
  return pending.size();
}

// Its --json: games_resumed says how many games a killed run had counted.
nlohmann::json catch_up_ok(const std::string& db, const std::string& scratch) {
  RunResult r = run({SGFPAT_BINARY, "catch-up", "--db", db, "--json"}, scratch);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(pending_of(db).empty());
  return r.json();
}

struct Config {
  int k;
  bool symmetry;
  std::vector<std::string> extra;  // e.g. a small --memory-mb
  // A budget too small for the kept set: how the first part is counted
  // ("parts"; a later part may not fit memory either).
  std::string tiny;
  // F built a level at a time, each in two ranges of its keys, and the
  // moves crossed a bucket at a time, as past the resident size
  // ($SGFPAT_FRONTIER_GROUPS=levels).
  bool frontier_by_level = false;
};

// Sets an environment variable for the life of the object (the runs of
// sgfpat a test makes inherit it).
struct EnvFor {
  std::string name;
  EnvFor(std::string n, const std::string& value) : name(std::move(n)) { ::setenv(name.c_str(), value.c_str(), 1); }
  ~EnvFor() { ::unsetenv(name.c_str()); }
};

// Ingests the parts one by one into one database and all at once into
// another; both must hold the same counts.  Returns the two paths.
std::pair<std::string, std::string> ingest_both(const TempDir& tmp, const Config& c, size_t parts, unsigned seed) {
  std::vector<std::string> flags = {"--levels", "6", "--min-played", std::to_string(c.k), "--sizes", "19"};
  if (!c.symmetry) flags.push_back("--no-symmetry");
  flags.insert(flags.end(), c.extra.begin(), c.extra.end());
  flags.push_back("--");  // --sizes takes a list: the inputs are not part of it
  std::vector<std::string> files;
  const auto texts = split(parts, seed);
  for (size_t i = 0; i < parts; ++i) {
    files.push_back(tmp / ("part" + std::to_string(i) + ".sgf"));
    write_file(files.back(), texts[i]);
  }
  const std::string inc = tmp / "incremental", full = tmp / "full";
  size_t nights_with_pending = 0;
  uint64_t filter_dropped = 0;
  std::optional<EnvFor> env;
  if (c.frontier_by_level) env.emplace("SGFPAT_FRONTIER_GROUPS", "levels");
  for (size_t i = 0; i < parts; ++i) {
    nlohmann::json j = ingest_ok(inc, flags, {files[i]}, tmp.path());
    CHECK(j["rejected"].get<int>() == 1);
    CHECK(j["filtered"].get<int>() == 1);
    if (i > 0) {
      // Every later part has new games: a night, on top of the others.
      CHECK(j["count_plan"] == "incremental");
      if (!c.tiny.empty() && j.contains("counted_in_full_because")) {
        MESSAGE("counted in full: " << j["counted_in_full_because"]);
        continue;
      }
      CHECK(!j.contains("counted_in_full_because"));
      CHECK(j["count"]["mode"] == "night");
      CHECK(j["count"]["new_games"].get<uint64_t>() == j["ingested"].get<uint64_t>());
      // K through a filter; the first night builds F, by one group of
      // levels or a replay per level.
      CHECK(j["count"]["kept_filter_bits"].get<uint64_t>() >= 4);
      filter_dropped += j["count"]["filter_dropped"].get<uint64_t>();
      if (c.tiny.empty())
        CHECK(j["count"]["frontier_passes"].get<uint64_t>() == (i == 1 ? (c.frontier_by_level ? 12u : 1u) : 0u));
      // The crossing in one part, or (as past the resident size) a part a
      // bucket: every bucket that holds a move's frontier.
      const uint64_t crossing_parts = j["count"]["crossing_parts"].get<uint64_t>();
      if (c.frontier_by_level)
        CHECK(crossing_parts == 64);
      else if (c.tiny.empty())
        CHECK(crossing_parts == 1);
      // The same games from scratch.
      const std::string scratch = tmp / ("scratch" + std::to_string(i));
      ingest_ok(scratch, flags, std::vector<std::string>(files.begin(), files.begin() + long(i) + 1), tmp.path());
      CAPTURE(i);
      nights_with_pending += check_night(inc, scratch) > 0;
    } else if (!c.tiny.empty()) {
      CHECK(j["count"]["mode"] == c.tiny);
      if (c.tiny == "parts") CHECK(j["count"]["parts"].get<uint64_t>() >= 2);
    }
    CHECK(j["count"]["games"].get<uint64_t>() == j["games_in_db"].get<uint64_t>());
  }
  if (c.tiny.empty()) CHECK(nights_with_pending > 0);  // patterns joined P and waited
  // The filter let patterns K lacks through, and the nights dropped them.
  if (c.tiny.empty()) CHECK(filter_dropped > 0);
  env.reset();
  nlohmann::json j = ingest_ok(full, flags, files, tmp.path());
  CHECK(j["count_plan"] == "full");
  // Running again adds nothing and counts nothing.
  j = ingest_ok(inc, flags, {files[0]}, tmp.path());
  CHECK(j["count_plan"] == "none");
  CHECK(j["ingested"].get<int>() == 0);
  // The catch-up in one part, or (as past the resident size) a part for
  // each bucket that holds pending patterns, each a replay and a commit.
  std::set<int> buckets;
  for (const auto& [k, p] : pending_of(inc)) buckets.insert(sgfpat::part_bucket(k.second));
  if (c.frontier_by_level) env.emplace("SGFPAT_FRONTIER_GROUPS", "levels");
  const nlohmann::json caught = catch_up_ok(inc, tmp.path());
  env.reset();
  if (!buckets.empty()) CHECK(caught["parts"].get<size_t>() == (c.frontier_by_level ? buckets.size() : 1u));
  return {inc, full};
}

// The archive of write_two_parts() (a.sgf) counted, then a one-game night,
// which builds the frontier index; returns the flags both used.
std::vector<std::string> archive_with_frontier(const TempDir& tmp, unsigned seed) {
  write_two_parts(tmp, seed);
  const std::vector<std::string> flags = {"--levels", "6", "--threads", "2"};
  ingest_ok(tmp / "db", flags, {tmp / "a.sgf"}, tmp.path());
  write_file(tmp / "one.sgf", sample_lines(1500, 1)[0]);
  ingest_ok(tmp / "db", flags, {tmp / "one.sgf"}, tmp.path());
  return flags;
}

// ingest_both() of each config, seeds from `seed` on, 2 to 4 parts: the
// nights caught up give the counts and the TSV of one ingest.
void nights_as_from_scratch(const std::vector<Config>& configs, unsigned seed) {
  for (const Config& c : configs) {
    TempDir tmp("sgfpat-incr");
    const size_t parts = 2 + seed % 3;
    CAPTURE(c.k);
    CAPTURE(c.symmetry);
    CAPTURE(c.frontier_by_level);
    CAPTURE(seed);
    CAPTURE(parts);
    auto [inc, full] = ingest_both(tmp, c, parts, seed++);
    require_same_counts(inc, full);
    CHECK(export_tsv(inc, tmp.path()) == export_tsv(full, tmp.path()));
  }
}

}  // namespace

TEST_CASE("nights, then a catch-up == from scratch: random splits, K = 1, 2, 3, symmetry on and off") {
  nights_as_from_scratch(
      {{1, true, {}, ""}, {2, true, {}, ""}, {3, true, {}, ""}, {2, false, {}, ""}, {3, false, {}, ""}}, 12);
}

TEST_CASE("nights with the frontier index built a level and a range at a time, crossed a bucket at a time == from scratch") {
  // As past the resident size: the first night builds F a level at a time,
  // each level in two ranges of its keys, each pass knowing K there only;
  // every night crosses its moves' frontiers in 64 parts.
  nights_as_from_scratch({{1, true, {}, "", true}, {2, false, {}, "", true}, {3, true, {}, "", true}}, 42);
}

TEST_CASE("a way of building the frontier index that does not exist is a usage error") {
  TempDir tmp("sgfpat-incr-env");
  write_file(tmp / "a.sgf", sample_lines(0, 3)[0]);
  EnvFor env("SGFPAT_FRONTIER_GROUPS", "ranges");
  RunResult r = run(ingest_args(tmp / "db", {}, {tmp / "a.sgf"}), tmp.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("SGFPAT_FRONTIER_GROUPS") != std::string::npos);
  CHECK(!std::filesystem::exists(tmp / "db"));
}

TEST_CASE("nights == from scratch with budgets that leave the listing of the parts the least room") {
  TempDir tmp("sgfpat-incr-tiny");
  // 4 MB leaves counting next to nothing: the first part is listed with
  // the least room and counted in parts; later parts count in memory or
  // fall back to a full count, and either way must give the counts of one
  // ingest.
  auto [inc, full] = ingest_both(tmp, {1, true, {"--memory-mb", "4", "--threads", "1"}, "parts"}, 3, 99);
  require_same_counts(inc, full);
  CHECK(export_tsv(inc, tmp.path()) == export_tsv(full, tmp.path()));
}

TEST_CASE("nights == from scratch with budgets that count the base in parts") {
  TempDir tmp("sgfpat-incr-parts");
  auto [inc, full] = ingest_both(tmp, {1, false, {"--memory-mb", "6", "--threads", "2"}, "parts"}, 3, 7);
  require_same_counts(inc, full);
  CHECK(export_tsv(inc, tmp.path()) == export_tsv(full, tmp.path()));
}

TEST_CASE("a night that finds a stored count lost reports the damage and changes nothing") {
  // A night reads the stored counts a level per thread: a level that lost
  // an entry is reported whichever thread reads it, and nothing is
  // committed; with the entry back, the night counts as from scratch.
  TempDir tmp("sgfpat-incr-lost-count");
  write_two_parts(tmp, 11);
  const std::vector<std::string> flags = {"--levels", "6", "--threads", "2"};
  ingest_ok(tmp / "db", flags, {tmp / "a.sgf"}, tmp.path());
  const DbSnapshot before = read_db(tmp / "db");
  REQUIRE(before.opened);
  const auto reported = before.reported();
  const auto lost = std::find_if(reported.begin(), reported.end(), [](const auto& kv) { return kv.first.first == 4; });
  REQUIRE(lost != reported.end());
  const std::string key = counts_key(before.generation, 4, lost->first.second);
  const std::string value = get_raw(tmp / "db", "counts", key);
  delete_raw(tmp / "db", "counts", key);
  RunResult r = run(ingest_args(tmp / "db", flags, {tmp / "b.sgf"}), tmp.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 5);
  CHECK(r.err.find("level 4") != std::string::npos);
  put_raw(tmp / "db", "counts", key, value);
  const DbSnapshot after = read_db(tmp / "db");
  REQUIRE(after.opened);
  CHECK(after.generation == before.generation);
  std::string why;
  CHECK(diff_counts(after.counts, before.counts, &why) == 0);
  INFO(why);
  const nlohmann::json j = ingest_ok(tmp / "db", flags, {}, tmp.path());
  CHECK(j["count_plan"] == "incremental");
  ingest_ok(tmp / "full", flags, {tmp / "a.sgf", tmp / "b.sgf"}, tmp.path());
  check_night(tmp / "db", tmp / "full");
  catch_up_ok(tmp / "db", tmp.path());
  require_same_counts(tmp / "db", tmp / "full");
}

TEST_CASE("a reader that finds more nights' marks than its summary counts answers busy; fewer is damage") {
  // Each night leaves a mark in its counts file, counted by the summary of
  // the same commit.  More marks than the summary counts is what a reader
  // sees when it reads a commit's counts before its summary (a writer's
  // commit under way): the reader opens again, a bounded number of times,
  // then answers busy; a writer, which has no earlier state to read,
  // reports damage, as does a reader that finds fewer marks.
  TempDir tmp("sgfpat-night-marks");
  write_two_parts(tmp, 13);
  const std::string db = tmp / "db";
  const std::vector<std::string> flags = {"--levels", "4", "--threads", "2"};
  ingest_ok(db, flags, {tmp / "a.sgf"}, tmp.path());
  REQUIRE(ingest_ok(db, flags, {tmp / "b.sgf"}, tmp.path())["count_plan"] == "incremental");
  const DbSnapshot before = read_db(db);
  REQUIRE(before.opened);
  const std::string mark = counts_key(before.generation, 0, 1), later = counts_key(before.generation, 0, 2);
  const std::string value = get_raw(db, "counts", mark);

  put_raw(db, "counts", later, value);
  DbSnapshot seen = read_db(db);
  CHECK_FALSE(seen.opened);
  CHECK(seen.error.find("commit is under way") != std::string::npos);
  RunResult stats = run({SGFPAT_BINARY, "stats", "--db", db, "--top", "0"}, tmp.path());
  INFO("stats: " << stats.err);
  CHECK(stats.exit_code == 7);
  RunResult night = run(ingest_args(db, flags, {}), tmp.path());
  INFO("night: " << night.err);
  CHECK(night.exit_code == 5);

  delete_raw(db, "counts", later);
  delete_raw(db, "counts", mark);
  seen = read_db(db);
  CHECK_FALSE(seen.opened);
  CHECK(seen.error.find("missing or damaged") != std::string::npos);

  put_raw(db, "counts", mark, value);
  seen = read_db(db);
  CHECK(seen.opened);
  INFO(seen.error);
}

TEST_CASE("a night or a catch-up killed with SIGKILL, then run again, gives the counts of an uninterrupted run") {
  TempDir tmp("sgfpat-night-kill");
  write_two_parts(tmp, 7);
  const std::vector<std::string> flags = {"--levels", "6", "--threads", "2"};
  ingest_ok(tmp / "full", flags, {tmp / "a.sgf", tmp / "b.sgf"}, tmp.path());
  ingest_ok(tmp / "base", flags, {tmp / "a.sgf"}, tmp.path());
  // The uninterrupted night and catch-up, on a copy.
  fs::copy(tmp / "base", tmp / "whole", fs::copy_options::recursive);
  nlohmann::json j = ingest_ok(tmp / "whole", flags, {tmp / "b.sgf"}, tmp.path());
  REQUIRE(j["count_plan"] == "incremental");
  REQUIRE(check_night(tmp / "whole", tmp / "full") > 0);
  const std::string night_tsv = export_tsv(tmp / "whole", tmp.path());
  catch_up_ok(tmp / "whole", tmp.path());
  require_same_counts(tmp / "whole", tmp / "full");
  // Killed where the night's games are stored, at the start of each step
  // of the night (a progress line), after the third replay of a frontier
  // index built a level at a time, just before its commit, after the
  // catch-up recorded its third share of the games, and just before the
  // catch-up's commit (fail points).
  struct Kill {
    std::string fail_point, line;  // one of the two
    bool in_catchup = false;
    std::vector<std::string> env = {};
  };
  const std::vector<Kill> kills = {{"import.batch_stored@1", ""},
                                   {"", "count: frontier index of the counted moves"},
                                   {"frontier.pass_done@3", "", false, {"SGFPAT_FRONTIER_GROUPS=levels"}},
                                   {"", "count: exact counts"},
                                   {"", "count: patterns reaching --min-played"},
                                   {"night.part_crossed@3", "", false, {"SGFPAT_FRONTIER_GROUPS=levels"}},
                                   {"night.before_commit", ""},
                                   {"catchup.share_saved@3", "", true},
                                   {"catchup.part_done@2", "", true, {"SGFPAT_FRONTIER_GROUPS=levels"}},
                                   {"catchup.before_commit", "", true}};
  int killed = 0, serial = 0;
  for (const Kill& k : kills) {
    CAPTURE(k.fail_point);
    CAPTURE(k.line);
    const std::string db = tmp / ("kill" + std::to_string(++serial));
    fs::copy(tmp / "base", db, fs::copy_options::recursive);
    if (k.in_catchup) ingest_ok(db, flags, {tmp / "b.sgf"}, tmp.path());
    const size_t pending_before = pending_of(db).size();
    std::vector<std::string> progress_flags = flags;
    progress_flags.push_back("--progress");
    const std::vector<std::string> args =
        k.in_catchup ? std::vector<std::string>{SGFPAT_BINARY, "catch-up", "--db", db}
                     : ingest_args(db, progress_flags, {tmp / "b.sgf"});
    bool hit = false;
    if (!k.fail_point.empty()) {
      std::vector<std::string> env = k.env;
      env.push_back(fail_point_env(k.fail_point));
      Child c(args, tmp.path(), "kill" + std::to_string(serial), env);
      const RunResult r = c.wait();
      INFO(r.err);
      hit = died_at_fail_point(r, k.fail_point);
    } else {
      Child c(args, tmp.path(), "kill" + std::to_string(serial));
      hit = c.kill_at_line(k.line);
      INFO(c.err_text());
    }
    CHECK(hit);
    killed += hit;
    // A night killed once its scratch holds runs leaves it; the next
    // night removes it, and its own.
    const fs::path scratch = fs::path(db) / "night.scratch";
    if (k.fail_point.starts_with("night.")) CHECK(fs::exists(scratch));
    // A reader sees the counts before the night (or catch-up) or after it.
    DbSnapshot s = read_db(db);
    REQUIRE(s.opened);
    CHECK(!s.reported().empty());
    if (!k.in_catchup) {
      nlohmann::json again = ingest_ok(db, flags, {tmp / "b.sgf"}, tmp.path());
      CHECK(again["count"]["games"].get<uint64_t>() == again["games_in_db"].get<uint64_t>());
      CHECK(export_tsv(db, tmp.path()) == night_tsv);
      CHECK(!fs::exists(scratch));
      check_night(db, tmp / "full");
    }
    // A catch-up killed between two parts leaves the parts done reported
    // and the others pending.
    const bool between_parts = k.fail_point.starts_with("catchup.part_done");
    if (between_parts) {
      const size_t pending_after = pending_of(db).size();
      CHECK(pending_after > 0);
      CHECK(pending_after < pending_before);
    }
    const nlohmann::json c = catch_up_ok(db, tmp.path());
    // A killed catch-up goes on from the games it recorded as counted.
    if (k.in_catchup && !between_parts) CHECK(c["games_resumed"].get<uint64_t>() > 0);
    require_same_counts(db, tmp / "full");
  }
  CHECK(killed == int(kills.size()));

  // A night after a killed catch-up makes its record stale: the next
  // catch-up counts every game again, and exactly.
  write_file(tmp / "one.sgf", sample_lines(1500, 1)[0]);
  ingest_ok(tmp / "full2", flags, {tmp / "a.sgf", tmp / "b.sgf", tmp / "one.sgf"}, tmp.path());
  const std::string db = tmp / "stale";
  fs::copy(tmp / "base", db, fs::copy_options::recursive);
  ingest_ok(db, flags, {tmp / "b.sgf"}, tmp.path());
  {
    Child c({SGFPAT_BINARY, "catch-up", "--db", db}, tmp.path(), "stale", {fail_point_env("catchup.share_saved@2")});
    CHECK(died_at_fail_point(c.wait(), "catchup.share_saved"));
  }
  ingest_ok(db, flags, {tmp / "one.sgf"}, tmp.path());
  const nlohmann::json c = catch_up_ok(db, tmp.path());
  CHECK(c["games_resumed"].get<uint64_t>() == 0);
  require_same_counts(db, tmp / "full2");
}

TEST_CASE("a night on a database with a damaged frontier index reports the damage and changes nothing") {
  TempDir tmp("sgfpat-night-damaged-frontier");
  const std::vector<std::string> flags = archive_with_frontier(tmp, 3);
  // Every entry of the index given a value of the wrong size.
  size_t damaged = 0;
  with_raw_family(tmp / "db", "frontier", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), cf));
    rocksdb::WriteBatch batch;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++damaged) batch.Put(cf, it->key(), "damaged");
    CHECK(db.Write(rocksdb::WriteOptions(), &batch).ok());
  });
  REQUIRE(damaged > 0);
  // The night: an archive game without its last move, whose moves have the
  // archive game's frontiers, so that the night reads their entries.
  const std::string first = read_file(tmp / "a.sgf").substr(0, read_file(tmp / "a.sgf").find('\n'));
  const size_t last = first.rfind(';');
  REQUIRE(last != std::string::npos);
  write_file(tmp / "night.sgf", first.substr(0, last) + ")\n");
  const DbSnapshot before = read_db(tmp / "db");
  REQUIRE(before.opened);
  RunResult r = run(ingest_args(tmp / "db", flags, {tmp / "night.sgf"}), tmp.path());
  INFO(r.err);
  CHECK(r.exit_code == 5);
  CHECK(r.err.find("frontier") != std::string::npos);
  const DbSnapshot after = read_db(tmp / "db");
  REQUIRE(after.opened);
  std::string why;
  CHECK(diff_counts(after.counts, before.counts, &why) == 0);
  CHECK(after.summary == before.summary);
}

TEST_CASE("a night on a frontier index that lost entries builds it again and counts exactly") {
  // RocksDB's repair drops a lost table file: the index then opens with
  // fewer entries than the last night left.  It is an index (K, P and the
  // counted games make it exactly): the night builds it again.  Without
  // that, the plays of the lost entries would be missing from the pending
  // patterns' played counts.
  TempDir tmp("sgfpat-night-short-frontier");
  const std::vector<std::string> flags = archive_with_frontier(tmp, 5);
  // Every other entry deleted, and the deletions compacted away, so that
  // the table files hold fewer entries (as after a repair).
  uint64_t kept = 0, lost = 0;
  with_raw_family(tmp / "db", "frontier", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), cf));
    rocksdb::WriteBatch batch;
    for (it->SeekToFirst(); it->Valid(); it->Next())
      if ((kept + lost) % 2 == 0) {
        batch.Delete(cf, it->key());
        ++lost;
      } else {
        ++kept;
      }
    CHECK(it->status().ok());
    CHECK(db.Write(rocksdb::WriteOptions(), &batch).ok());
    rocksdb::CompactRangeOptions all;
    all.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    CHECK(db.CompactRange(all, cf, nullptr, nullptr).ok());
  });
  REQUIRE(lost > 100);
  {
    std::unique_ptr<sgfpat::PatternDb> pdb;
    REQUIRE(sgfpat::PatternDb::OpenReader(tmp / "db", &pdb).ok());
    REQUIRE(pdb->summary().frontier_entries == kept + lost);
    CHECK(!pdb->check_frontier_present(kept + lost).ok());  // the night's test of the index
  }
  ingest_ok(tmp / "db", flags, {tmp / "b.sgf"}, tmp.path());
  ingest_ok(tmp / "full", flags, {tmp / "a.sgf", tmp / "one.sgf", tmp / "b.sgf"}, tmp.path());
  check_night(tmp / "db", tmp / "full");
  {
    std::unique_ptr<sgfpat::PatternDb> pdb;
    REQUIRE(sgfpat::PatternDb::OpenReader(tmp / "db", &pdb).ok());
    CHECK(pdb->check_frontier_present(pdb->summary().frontier_entries).ok());
  }
  catch_up_ok(tmp / "db", tmp.path());
  require_same_counts(tmp / "db", tmp / "full");
}

TEST_CASE("a frontier index built again after a recount leaves nothing of the old one behind") {
  // A recount leaves the frontier index stale; the next night clears it
  // (a range deletion: RocksDB's DeleteFilesInRange leaves level 0, where
  // its runs lie, alone) and builds it again as one sorted run, which
  // drops the old index's files.  Left behind, they took the disk space of
  // a second index (4 GB at 606k games) and a probe in every seek.
  TempDir tmp("sgfpat-night-frontier-rebuilt");
  const std::vector<std::string> flags = archive_with_frontier(tmp, 7);
  std::vector<std::string> recount = flags;
  recount.push_back("--recount");
  ingest_ok(tmp / "db", recount, {}, tmp.path());
  ingest_ok(tmp / "db", flags, {tmp / "b.sgf"}, tmp.path());  // builds it again
  uint64_t recorded = 0;
  {
    std::unique_ptr<sgfpat::PatternDb> pdb;
    REQUIRE(sgfpat::PatternDb::OpenReader(tmp / "db", &pdb).ok());
    recorded = pdb->summary().frontier_entries;
  }
  REQUIRE(recorded > 0);
  // The table files: the index as built, and the night's own file (its
  // puts, and deletions of entries of the index as built).
  uint64_t in_tables = 0, deletions = 0, range_deletions = 0;
  with_raw_family(tmp / "db", "frontier", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
    rocksdb::TablePropertiesCollection tables;
    REQUIRE(db.GetPropertiesOfAllTables(cf, &tables).ok());
    for (const auto& [file, props] : tables) {
      in_tables += props->num_entries;
      deletions += props->num_deletions;
      range_deletions += props->num_range_deletions;
    }
  });
  CHECK(range_deletions == 0);
  CHECK(in_tables - 2 * deletions == recorded);
  ingest_ok(tmp / "full", flags, {tmp / "a.sgf", tmp / "one.sgf", tmp / "b.sgf"}, tmp.path());
  check_night(tmp / "db", tmp / "full");
}

TEST_CASE("stats and export say what is pending and since when; export --complete catches up first") {
  TempDir tmp("sgfpat-night-report");
  write_two_parts(tmp, 5);
  const std::vector<std::string> flags = {"--levels", "6", "--threads", "2"};
  ingest_ok(tmp / "db", flags, {tmp / "a.sgf"}, tmp.path());
  ingest_ok(tmp / "full", flags, {tmp / "a.sgf", tmp / "b.sgf"}, tmp.path());
  const nlohmann::json night = ingest_ok(tmp / "db", flags, {tmp / "b.sgf"}, tmp.path());
  const size_t pending = check_night(tmp / "db", tmp / "full");
  REQUIRE(pending > 0);
  CHECK(night["pending_patterns"].get<size_t>() == pending);
  RunResult st = run({SGFPAT_BINARY, "stats", "--db", tmp / "db", "--json", "--top", "0"}, tmp.path());
  REQUIRE(st.exit_code == 0);
  const nlohmann::json js = st.json();
  CHECK(js["pending_patterns"].get<size_t>() == pending);
  CHECK(js["pending_since"].is_string());
  size_t per_level = 0;
  for (const auto& n : js["pending_per_level"]) per_level += n.get<size_t>();
  CHECK(per_level == pending);
  RunResult text = run({SGFPAT_BINARY, "stats", "--db", tmp / "db", "--top", "0"}, tmp.path());
  CHECK(text.out.find(std::to_string(pending) + " patterns reached --min-played since") != std::string::npos);
  // A plain export leaves them out and says so.
  RunResult ex = run({SGFPAT_BINARY, "export", "--db", tmp / "db", "-f", "tsv", "-o", tmp / "x.tsv", "--json"}, tmp.path());
  REQUIRE(ex.exit_code == 0);
  CHECK(ex.json()["pending_patterns"].get<size_t>() == pending);
  CHECK(read_file(tmp / "x.tsv") != export_tsv(tmp / "full", tmp.path()));
  // --complete --no-wait refuses (exit 2) while patterns are pending, and
  // writes nothing.
  RunResult waits = run({SGFPAT_BINARY, "export", "--db", tmp / "db", "-f", "tsv", "-o", tmp / "w.tsv", "--complete",
                         "--no-wait"},
                        tmp.path());
  CHECK(waits.exit_code == 2);
  CHECK(waits.err.find("--no-wait") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp / "w.tsv"));
  // --complete catches up first: the export of a count from scratch.
  ex = run({SGFPAT_BINARY, "export", "--db", tmp / "db", "-f", "tsv", "-o", tmp / "y.tsv", "--complete", "--json"},
           tmp.path());
  INFO(ex.err);
  REQUIRE(ex.exit_code == 0);
  CHECK(ex.json()["pending_patterns"].get<size_t>() == 0);
  CHECK(ex.json()["pending_since"].is_null());
  CHECK(read_file(tmp / "y.tsv") == export_tsv(tmp / "full", tmp.path()));
  // Nothing waits now: --no-wait exports the same.
  waits = run({SGFPAT_BINARY, "export", "--db", tmp / "db", "-f", "tsv", "-o", tmp / "w.tsv", "--complete", "--no-wait"},
              tmp.path());
  CHECK(waits.exit_code == 0);
  CHECK(read_file(tmp / "w.tsv") == read_file(tmp / "y.tsv"));
  // With games stored but not counted yet (an ingest killed after its
  // import), the catch-up is refused: ingest counts them first.
  ingest_ok(tmp / "db2", flags, {tmp / "a.sgf"}, tmp.path());
  Child c3(ingest_args(tmp / "db2", flags, {tmp / "b.sgf"}), tmp.path(), "import-killed",
           {fail_point_env("import.batch_stored@1")});
  REQUIRE(died_at_fail_point(c3.wait(), "import.batch_stored"));
  RunResult refused = run({SGFPAT_BINARY, "catch-up", "--db", tmp / "db2"}, tmp.path());
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("not counted yet") != std::string::npos);
  refused = run({SGFPAT_BINARY, "export", "--db", tmp / "db2", "-f", "tsv", "-o", tmp / "z.tsv", "--complete"},
                tmp.path());
  CHECK(refused.exit_code == 2);
}

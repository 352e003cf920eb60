// Games are stored once: ingesting the same games again, from the same file,
// a copy, a copy with other metadata, or a superset, adds only what is new,
// and counts only depend on the set of stored games (file A then file B
// gives the counts of A and B at once).  The expected numbers come from an
// independent replay and content key (test_util.h), not from the importer.
#include <set>

#include "test_util.h"

using namespace testutil;

namespace {

const std::vector<std::string> kFlags = {"--levels", "4", "--min-played", "2", "--threads", "2", "--catch-up"};

// An illegal record (stone on an occupied point) and a game that differs
// from a corpus game only by its metadata.
const char* kIllegal = "(;GM[1]FF[4]SZ[19]RE[B+R]GN[illegal];B[pd];W[dd];B[pd])\n";

std::string with_other_metadata(std::string line) {
  auto gn = line.find("GN[");
  REQUIRE(gn != std::string::npos);
  line.insert(gn + 3, "copy-");
  auto pb = line.find("PB[");
  REQUIRE(pb != std::string::npos);
  line.insert(pb + 3, "someone-else-");
  return line;
}

struct Corpus {
  TempDir tmp{"sgfpat-dedupe"};
  std::vector<std::string> lines;  // 600 games of the sample
  std::vector<std::string> a, b, super;
  std::string file_a, file_b, file_ab, file_super, file_a_copy, file_a_renamed;
};

Corpus& corpus() {
  static std::unique_ptr<Corpus> c;  // destroyed at exit, with its directory
  if (c) return *c;
  c = std::make_unique<Corpus>();
  c->lines = sample_lines(1000, 600);
  REQUIRE(c->lines.size() == 600);
  // A: games 0..299, plus an illegal record and a renamed copy of game 5.
  c->a.assign(c->lines.begin(), c->lines.begin() + 300);
  c->a.push_back(kIllegal);
  c->a.push_back(with_other_metadata(c->lines[5]));
  // B: games 300..599.  Superset of A: games 0..449.
  c->b.assign(c->lines.begin() + 300, c->lines.end());
  c->super.assign(c->lines.begin(), c->lines.begin() + 450);
  c->file_a = c->tmp / "a.sgf";
  c->file_b = c->tmp / "b.sgf";
  c->file_ab = c->tmp / "ab.sgf";
  c->file_super = c->tmp / "super.sgf";
  c->file_a_copy = c->tmp / "copy-of-a.sgf";
  c->file_a_renamed = c->tmp / "a-renamed.sgf";
  write_file(c->file_a, join(c->a));
  write_file(c->file_b, join(c->b));
  write_file(c->file_ab, join(c->a) + join(c->b));
  write_file(c->file_super, join(c->super));
  write_file(c->file_a_copy, join(c->a));
  std::vector<std::string> renamed;
  for (const auto& l : c->a) renamed.push_back(l == kIllegal ? l : with_other_metadata(l));
  write_file(c->file_a_renamed, join(renamed));
  return *c;
}

struct Expect {
  size_t stored = 0, rejected = 0, duplicates = 0;
  std::set<std::string> keys;  // content keys of the stored games
};
Expect expect(const std::vector<std::string>& lines) {
  Expect e;
  auto games = expected_stored_games(lines, &e.rejected, &e.duplicates);
  e.stored = games.size();
  for (const auto& g : games) e.keys.insert(content_key(g));
  return e;
}

uint64_t u(const nlohmann::json& j, const char* k) { return j[k].get<uint64_t>(); }

// Same reported counts and same summary totals.
void check_same_counts(const std::string& db1, const std::string& db2) {
  DbSnapshot s1 = read_db(db1), s2 = read_db(db2);
  check_same_totals(s1, s2);
  auto r1 = s1.reported(), r2 = s2.reported();
  CHECK(!r1.empty());
  std::string why;
  size_t diffs = diff_counts(r1, r2, &why);
  INFO(db1 << " vs " << db2 << ":\n" << why);
  CHECK(diffs == 0);
}

}  // namespace

TEST_CASE("the same games ingested twice: nothing added, counts unchanged") {
  Corpus& c = corpus();
  TempDir tmp("sgfpat-dedupe");
  const std::string db = tmp / "db";
  Expect ea = expect(c.a);
  REQUIRE(ea.rejected == 1);
  REQUIRE(ea.duplicates >= 1);  // the renamed copy of game 5 at least

  nlohmann::json j1 = ingest_ok(db, kFlags, {c.file_a}, tmp.path());
  CHECK(u(j1, "games_read") == c.a.size());
  CHECK(u(j1, "ingested") == ea.stored);
  CHECK(u(j1, "duplicates") == ea.duplicates);
  CHECK(u(j1, "rejected") == ea.rejected);
  CHECK(j1["rejected_by_reason"].size() == 1);
  CHECK(j1["rejected_by_reason"].begin().key().find("occupied") != std::string::npos);
  CHECK(u(j1, "games_in_db") == ea.stored);
  CHECK(j1["recounted"].get<bool>());
  CHECK(u(j1["count"], "games") == ea.stored);
  DbSnapshot first = read_db(db);
  REQUIRE(first.opened);
  CHECK(first.game_count == ea.stored);

  // Again the same file, then a byte-for-byte copy under another name, then
  // the same games with other metadata (names): all duplicates.
  for (const std::string& input : {c.file_a, c.file_a_copy, c.file_a_renamed}) {
    INFO("input " << input);
    nlohmann::json j = ingest_ok(db, kFlags, {input}, tmp.path());
    CHECK(u(j, "games_read") == c.a.size());
    CHECK(u(j, "ingested") == 0);
    CHECK(u(j, "duplicates") == c.a.size() - ea.rejected);
    CHECK(u(j, "rejected") == ea.rejected);
    CHECK(u(j, "games_in_db") == ea.stored);
    CHECK_FALSE(j["recounted"].get<bool>());
    DbSnapshot now = read_db(db);
    REQUIRE(now.opened);
    CHECK(now.generation == first.generation);
    CHECK(now.game_count == first.game_count);
    CHECK(now.summary == first.summary);
    std::string why;
    size_t diffs = diff_counts(first.counts, now.counts, &why);
    INFO(why);
    CHECK(diffs == 0);
  }
  // Both files at once: every game already there, and twice in this run.
  nlohmann::json j = ingest_ok(db, kFlags, {c.file_a, c.file_a_copy}, tmp.path());
  CHECK(u(j, "games_read") == 2 * c.a.size());
  CHECK(u(j, "ingested") == 0);
  CHECK(u(j, "duplicates") == 2 * (c.a.size() - ea.rejected));
  CHECK(u(j, "games_in_db") == ea.stored);
}

TEST_CASE("a superset adds only the new games; counts as if ingested at once") {
  Corpus& c = corpus();
  TempDir tmp("sgfpat-dedupe");
  Expect ea = expect(c.a), es = expect(c.super);
  size_t new_in_super = 0;
  for (const auto& k : es.keys) new_in_super += ea.keys.count(k) == 0;
  REQUIRE(new_in_super > 0);

  const std::string db = tmp / "db";
  ingest_ok(db, kFlags, {c.file_a}, tmp.path());
  nlohmann::json j = ingest_ok(db, kFlags, {c.file_super}, tmp.path());
  CHECK(u(j, "games_read") == c.super.size());
  CHECK(u(j, "ingested") == new_in_super);
  CHECK(u(j, "duplicates") == c.super.size() - es.rejected - new_in_super);
  CHECK(u(j, "rejected") == es.rejected);
  std::set<std::string> all = ea.keys;
  all.insert(es.keys.begin(), es.keys.end());
  CHECK(u(j, "games_in_db") == all.size());
  CHECK(j["recounted"].get<bool>());
  CHECK(u(j["count"], "games") == all.size());

  // The same set of games ingested in one run into a fresh database.
  const std::string once = tmp / "once";
  nlohmann::json jo = ingest_ok(once, kFlags, {c.file_super, c.file_a}, tmp.path());
  CHECK(u(jo, "games_in_db") == all.size());
  check_same_counts(db, once);
}

TEST_CASE("nightly runs: file A, then file B, gives the counts of A and B at once") {
  Corpus& c = corpus();
  TempDir tmp("sgfpat-dedupe");
  Expect ea = expect(c.a), eb = expect(c.b);
  std::vector<std::string> ab = c.a;
  ab.insert(ab.end(), c.b.begin(), c.b.end());
  Expect eab = expect(ab);

  const std::string nightly = tmp / "nightly";
  nlohmann::json ja = ingest_ok(nightly, kFlags, {c.file_a}, tmp.path());
  CHECK(u(ja, "games_in_db") == ea.stored);
  nlohmann::json jb = ingest_ok(nightly, kFlags, {c.file_b}, tmp.path());
  CHECK(u(jb, "games_read") == c.b.size());
  CHECK(u(jb, "ingested") == eab.stored - ea.stored);
  CHECK(u(jb, "games_in_db") == eab.stored);
  CHECK(jb["recounted"].get<bool>());
  CHECK(u(jb["count"], "games") == eab.stored);
  DbSnapshot after_a_b = read_db(nightly);
  REQUIRE(after_a_b.opened);
  CHECK(after_a_b.game_count == eab.stored);

  // One file holding A and B.
  const std::string one_file = tmp / "one-file";
  nlohmann::json j1 = ingest_ok(one_file, kFlags, {c.file_ab}, tmp.path());
  CHECK(u(j1, "games_read") == ab.size());
  CHECK(u(j1, "ingested") == eab.stored);
  CHECK(u(j1, "duplicates") == eab.duplicates);
  CHECK(u(j1, "rejected") == eab.rejected);
  check_same_counts(nightly, one_file);

  // The other order, and both files in one run.
  const std::string reversed = tmp / "reversed";
  ingest_ok(reversed, kFlags, {c.file_b}, tmp.path());
  nlohmann::json jr = ingest_ok(reversed, kFlags, {c.file_a}, tmp.path());
  CHECK(u(jr, "ingested") == eab.stored - eb.stored);
  check_same_counts(nightly, reversed);
  const std::string two_inputs = tmp / "two-inputs";
  ingest_ok(two_inputs, kFlags, {c.file_a, c.file_b}, tmp.path());
  check_same_counts(nightly, two_inputs);

  // And the counts did change with B: A alone is not A and B.
  const std::string only_a = tmp / "only-a";
  ingest_ok(only_a, kFlags, {c.file_a}, tmp.path());
  DbSnapshot sa = read_db(only_a);
  std::string why;
  CHECK(diff_counts(sa.reported(), after_a_b.reported(), &why) > 0);
}

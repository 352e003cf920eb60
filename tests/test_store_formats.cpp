// Stored format versions (core/format_version.h): a database of another
// format version is refused at open, naming the version found and the ones
// this program reads, and nothing in it is changed; a stored game record of
// another version is reported as such; the count summary's JSON of earlier
// versions is read by a reader and rewritten by a writer's open.  And the
// column families are found by name: a database without the families that
// came later opens, and a writer adds them.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <memory>
#include <string>
#include <vector>

#include "core/format_version.h"
#include "store/count_summary.h"
#include "store/game_record.h"
#include "store/pattern_db.h"
#include "store/stored_replay.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {

OpenOptions writer_options() {
  OpenOptions o;
  o.create_if_missing = true;
  return o;
}

Game small_game() {
  Game g;
  g.info.size = 9;
  g.info.result = "B+R";
  g.origin.file = "formats.sgf";
  g.actions = {Action{Action::Kind::Play, Color::Black, Point{2, 2}},
               Action{Action::Kind::Play, Color::White, Point{6, 6}},
               Action{Action::Kind::Play, Color::Black, Point{2, 6}}};
  return g;
}

// A database holding one stored game (`record`, under the fingerprint of
// small_game()) and one committed generation of counts.
void make_db(const std::string& path, const std::string& record) {
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(path, writer_options(), &db).ok());
  REQUIRE(db->add_games({{game_fingerprint(small_game()), record}}, 3).ok());
  uint32_t gen = 0;
  REQUIRE(db->begin_generation(&gen).ok());
  REQUIRE(testutil::write_counts(*db, gen, {{1, 0x1234, PatternCounts{3, 5, 1}}}).ok());
  CountSummary summary;
  summary.games = 1;
  summary.patterns_per_level = {1};
  REQUIRE(db->commit_generation(gen, summary).ok());
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The scheme value with its "format=N" replaced by `format`.
std::string with_format(const std::string& scheme, const std::string& format) {
  const size_t at = scheme.find("format=");
  REQUIRE(at != std::string::npos);
  const size_t end = scheme.find(' ', at);
  return scheme.substr(0, at) + format + (end == std::string::npos ? "" : scheme.substr(end));
}

}  // namespace

TEST_CASE("a database of another format version is refused at open, naming both versions; nothing is changed") {
  TempDir tmp("sgfpat-store-formats");
  const std::string path = tmp / "db";
  make_db(path, encode_game(small_game()));
  const std::string scheme = testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme");
  REQUIRE(contains(scheme, "format=" + std::to_string(kDatabaseFormat.current)));
  const std::string reads = "this sgfpat reads version " + std::to_string(kDatabaseFormat.current);

  const uint32_t later = kDatabaseFormat.current + 1;
  for (const std::string& stored :
       {with_format(scheme, "format=" + std::to_string(later)),
        // A later format whose other fields changed too: refused as a
        // format, not reported as an unreadable key scheme.
        "format=" + std::to_string(later) + " layout=tiles"}) {
    CAPTURE(stored);
    testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme", stored);
    std::unique_ptr<PatternDb> db;
    Status st = PatternDb::OpenReader(path, &db);
    CHECK(st.is_not_supported());
    CHECK_MESSAGE(contains(st.message(), "pattern database format version " + std::to_string(later)), st.message());
    CHECK_MESSAGE(contains(st.message(), reads), st.message());
    CHECK_MESSAGE(contains(st.message(), path), st.message());
    CHECK_FALSE(db);
    st = PatternDb::Open(path, writer_options(), &db);
    CHECK(st.is_not_supported());
    CHECK_MESSAGE(contains(st.message(), "format version " + std::to_string(later)), st.message());
    CHECK_FALSE(db);
    // The writer wrote nothing: the database still says what it said.
    CHECK(testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme") == stored);
  }

  // Older than the oldest this program reads (0: no sgfpat wrote it).
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme", with_format(scheme, "format=0"));
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(path, &db);
  CHECK(st.is_not_supported());
  CHECK_MESSAGE(contains(st.message(), "pattern database format version 0, " + reads), st.message());

  // The command says so and exits 1 (NotSupported).
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme",
                    with_format(scheme, "format=" + std::to_string(later)));
  testutil::RunResult r = testutil::run_cli({"stats", "--db", path}, tmp.path());
  CHECK(r.exit_code == 1);
  CHECK_MESSAGE(contains(r.err, "pattern database format version " + std::to_string(later) + ", " + reads), r.err);

  // Put back, the database opens as before.
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme", scheme);
  st = PatternDb::OpenReader(path, &db);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(db->game_count() == 1);
}

TEST_CASE("a scheme without a readable format version is damage, not another version") {
  TempDir tmp("sgfpat-store-formats");
  const std::string path = tmp / "db";
  make_db(path, encode_game(small_game()));
  const std::string scheme = testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme");
  for (const std::string& stored : {with_format(scheme, "format=x"), with_format(scheme, "format=-1"),
                                    with_format(scheme, "formats=1")}) {
    CAPTURE(stored);
    testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "scheme", stored);
    std::unique_ptr<PatternDb> db;
    Status st = PatternDb::OpenReader(path, &db);
    CHECK(st.is_corruption());
    CHECK_MESSAGE(contains(st.message(), "unreadable key scheme"), st.message());
  }
}

TEST_CASE("a stored game record of an unknown version is reported as such, with both versions") {
  const std::string good = encode_game(small_game());
  REQUIRE(uint8_t(good[0]) == kGameRecordFormat.current);
  Game back;
  REQUIRE(decode_game(good, &back).ok());
  CHECK(back.actions.size() == 3);

  std::string later = good;
  later[0] = char(kGameRecordFormat.current + 1);
  const std::string expected = "stored game record format version " + std::to_string(kGameRecordFormat.current + 1) +
                               ", this sgfpat reads version " + std::to_string(kGameRecordFormat.current);
  Status st = decode_game(later, &back);
  // Inside a database this program reads (its format version covers the
  // records), another record version is damage.
  CHECK(st.is_corruption());
  CHECK_MESSAGE(contains(st.message(), "unknown game record version"), st.message());
  CHECK_MESSAGE(contains(st.message(), expected), st.message());

  // Stored in a database: every pass over the stored games says the same.
  TempDir tmp("sgfpat-store-formats");
  const std::string path = tmp / "db";
  make_db(path, later);
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(path, &db).ok());
  int visited = 0;
  Status replayed;
  REQUIRE(db->for_each_game([&](const Fingerprint&, std::string_view record) {
                ++visited;
                Game g;
                replayed = decode_stored(record, &g);
                return true;
              }).ok());
  CHECK(visited == 1);
  CHECK(replayed.is_corruption());
  CHECK_MESSAGE(contains(replayed.message(), "stored game: unknown game record version: " + expected),
                replayed.message());
}

TEST_CASE("a count summary of a later version is refused at open; a writer upgrades the JSON of earlier versions") {
  TempDir tmp("sgfpat-store-formats");
  const std::string path = tmp / "db";
  make_db(path, encode_game(small_game()));
  const std::string current = testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "summary");
  REQUIRE(uint8_t(current[0]) == kCountSummaryFormat.current);

  std::string later = current;
  later[0] = char(kCountSummaryFormat.current + 1);
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "summary", later);
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(path, &db);
  CHECK(st.is_not_supported());
  const std::string refused = "count summary format version " + std::to_string(kCountSummaryFormat.current + 1) +
                              ", this sgfpat reads version " + std::to_string(kCountSummaryFormat.current);
  CHECK_MESSAGE(contains(st.message(), refused), st.message());
  st = PatternDb::Open(path, writer_options(), &db);
  CHECK(st.is_not_supported());
  CHECK(testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "summary") == later);

  // The JSON an earlier sgfpat wrote: a reader reads it and leaves it.
  const std::string json = R"({"games":1,"mode":"resident","patterns_per_level":[1],"positions":3})";
  testutil::put_raw(path, rocksdb::kDefaultColumnFamilyName, "summary", json);
  st = PatternDb::OpenReader(path, &db);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(db->summary().games == 1);
  CHECK(db->summary().positions == 3);
  CHECK(db->summary().mode == CountMode::kResident);
  db.reset();
  CHECK(testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "summary") == json);
  // A writer's open rewrites it in the current form, meaning the same.
  st = PatternDb::Open(path, writer_options(), &db);
  REQUIRE_MESSAGE(st.ok(), st.message());
  const CountSummary seen = db->summary();
  db.reset();
  const std::string upgraded = testutil::get_raw(path, rocksdb::kDefaultColumnFamilyName, "summary");
  CHECK(uint8_t(upgraded[0]) == kCountSummaryFormat.current);
  CountSummary decoded;
  REQUIRE(decode_summary(upgraded, &decoded).ok());
  CHECK(decoded == seen);
  CHECK(decoded.games == 1);
  CHECK(decoded.patterns_per_level == std::vector<uint64_t>{1});
}

TEST_CASE("column families are found by name: without \"pending\" a reader opens, a writer adds it back") {
  TempDir tmp("sgfpat-store-formats");
  const std::string path = tmp / "db";
  make_db(path, encode_game(small_game()));
  {
    // What a database made before incremental counting looks like: the
    // position index family, but no "pending" (dropped here).
    testutil::with_raw_family(path, "pending", [](rocksdb::DB& rdb, rocksdb::ColumnFamilyHandle* pending) {
      REQUIRE(rdb.DropColumnFamily(pending).ok());
    });
    rocksdb::DBOptions options;
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(options, path, &names).ok());
    REQUIRE(std::find(names.begin(), names.end(), "pending") == names.end());
    REQUIRE(std::find(names.begin(), names.end(), "positions") != names.end());
  }
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(path, &db);
  REQUIRE_MESSAGE(st.ok(), st.message());
  CHECK(db->game_count() == 1);
  uint64_t pending = 7;
  REQUIRE(db->pending_count(&pending).ok());
  CHECK(pending == 0);
  // The position index is read from its own family, not from whatever
  // family sits where "pending" used to be.
  std::unique_ptr<PatternDb::PositionCursor> cursor;
  REQUIRE(db->open_position_cursor(&cursor).ok());
  CHECK_FALSE(cursor->valid());
  CHECK(cursor->status().ok());
  PatternCounts c;
  bool found = false;
  REQUIRE(db->get(1, 0x1234, &c, &found).ok());
  CHECK(found);
  CHECK(c.played == 3);
  cursor.reset();  // before its database
  db.reset();

  // A writer adds the family again; games stored then are pending.
  st = PatternDb::Open(path, writer_options(), &db);
  REQUIRE_MESSAGE(st.ok(), st.message());
  Game other = small_game();
  other.actions.pop_back();
  REQUIRE(db->add_games({{game_fingerprint(other), encode_game(other)}}, 2).ok());
  REQUIRE(db->pending_count(&pending).ok());
  CHECK(pending == 1);
  db.reset();
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
  CHECK(std::find(names.begin(), names.end(), "pending") != names.end());
}

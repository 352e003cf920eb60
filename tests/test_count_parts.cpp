// Counting in parts lists the kept set once into a kept file, frees the
// sketch of pass 1 and counts runs of buckets that fit: the parts count
// what one resident table counts.  Each part's progress is recorded: a
// count stopped after a part goes on from the next one (listing only the
// rest, from wherever the record says) and ends with exactly the counts of
// an uninterrupted one.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "count/sketch_pass.h"
#include "count/key_parts.h"
#include "count/parts_progress.h"
#include "count/played_sketch_file.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace testutil;
using namespace sgfpat;

namespace {

// The sketch of pass 1 over the stored games of `db`, as recount() makes it.
PlayedSketch sketch_of(PatternDb& db) {
  const unsigned min_played = unsigned(db.settings().min_played);
  PlayedSketch played = new_played_sketch(size_t(1) << 18, int(min_played));
  SketchPass pass(db.settings().scheme.levels);
  REQUIRE(sketch_played(db.settings().scheme, [&](const GameVisitor& v) { return db.for_each_game(v); },
                        db.game_count(), 1, played.sketch.get(), min_played, size_t(1) << 30, &pass, nullptr)
              .ok());
  return played;
}

// Every stored count of the current generation.
std::map<CountKey, PatternCounts> counts_of(PatternDb& db) {
  std::map<CountKey, PatternCounts> all;
  const Status s = db.for_each_count(0, [&](int level, uint64_t key, const PatternCounts& c) {
    all.emplace(std::make_pair(level, key), c);
    return true;
  });
  REQUIRE_MESSAGE(s.ok(), s.to_string());
  return all;
}

// 1,000 games counted resident (levels 6), opened for writing, with the
// sketch of pass 1 saved; a budget of a few tables of them: several parts.
struct Counted {
  TempDir tmp;
  std::vector<uint64_t> resident;  // the resident count's patterns per level
  std::unique_ptr<PatternDb> db;
  PlayedSketch played;
  std::string sketch_path;
  const size_t part_bytes = size_t(3200) << 10;
  explicit Counted(const std::string& name) : tmp(name) {
    const std::string input = tmp / "games.sgf";
    write_file(input, join(sample_lines(0, 1000)));
    const nlohmann::json j = ingest_ok(tmp / "db", {"--levels", "6"}, {input}, tmp.path());
    REQUIRE(j["count"]["mode"] == "resident");
    resident = j["count"]["patterns_per_level"].get<std::vector<uint64_t>>();
    REQUIRE(PatternDb::Open(tmp / "db", OpenOptions{}, &db).ok());
    played = sketch_of(*db);
    sketch_path = tmp / "played.sketch";
    REQUIRE(save_played_sketch(played, db->settings().min_played, sketch_path).ok());
  }
};

}  // namespace

TEST_CASE("count in parts: the counts of one resident table; the kept file goes; too small a budget is an error") {
  Counted c("sgfpat-parts");

  uint32_t gen = 0;
  REQUIRE(c.db->begin_generation(&gen).ok());
  CountSummary summary;
  Status s = count_in_parts(*c.db, gen, &c.played, c.sketch_path, 2, c.part_bytes, nullptr, nullptr, &summary);
  REQUIRE(s.ok());
  CHECK(summary.parts >= 2);
  CHECK(summary.patterns_per_level == c.resident);
  CHECK_FALSE(std::filesystem::exists(c.sketch_path + ".parts"));

  // Too small for the base and one bucket: an error that says what the
  // smallest part needs, and nothing counted; the kept file goes.
  REQUIRE(load_played_sketch(c.sketch_path, c.db->settings().min_played, &c.played).ok());
  REQUIRE(c.db->begin_generation(&gen).ok());
  summary = CountSummary{};
  s = count_in_parts(*c.db, gen, &c.played, c.sketch_path, 2, size_t(64) << 10, nullptr, nullptr, &summary);
  CHECK(s.is_not_supported());
  CHECK(s.message().find("smallest part") != std::string::npos);
  CHECK(summary.parts == 0);
  CHECK_FALSE(std::filesystem::exists(c.sketch_path + ".parts"));

  // Resumed without a kept file to take up, the sketch not in memory: it
  // is loaded from its file to list again; with the file gone that is an
  // error.
  PartsProgress p;
  p.gen = gen;
  p.next = uint64_t(5) << (64 - kPartBucketBits);
  summary = p.summary;
  c.played.sketch.reset();
  s = count_in_parts(*c.db, gen, &c.played, c.tmp / "gone.sketch", 2, c.part_bytes, &p, nullptr, &summary);
  CHECK(s.is_io_error());
}

TEST_CASE("count in parts: stopped after its first part, it goes on from the recorded progress to the same counts") {
  Counted c("sgfpat-parts-resume");
  const auto reference = counts_of(*c.db);
  REQUIRE(!reference.empty());
  const std::string away = c.tmp / "played.away";

  uint32_t gen = 0;
  REQUIRE(c.db->begin_generation(&gen).ok());
  std::string record;
  REQUIRE(c.db->count_progress(&record).ok());
  CHECK(record.empty());
  CountSummary summary;
  summary.mode = CountMode::kParts;
  summary.games = c.db->game_count();
  // Stopped after the first part: the kept file taken away while the part
  // is counted, so the second part's table cannot be read.
  const std::string kept = c.sketch_path + ".parts/kept";
  auto take_away = [&](CountStep step, int part, uint64_t) {
    if (step == CountStep::kExact && part == 1 && std::filesystem::exists(kept)) std::filesystem::rename(kept, away);
  };
  Status s = count_in_parts(*c.db, gen, &c.played, c.sketch_path, 2, c.part_bytes, nullptr, take_away, &summary);
  REQUIRE(s.is_not_found());
  REQUIRE(c.db->count_progress(&record).ok());
  PartsProgress p;
  REQUIRE(decode_parts_progress(record, &p).ok());
  CHECK(p.gen == gen);
  CHECK(p.games == c.db->game_count());
  CHECK(p.moves == c.db->move_count());
  CHECK(p.split_level == uint32_t(kSplitLevel));
  CHECK(!p.done);
  CHECK(p.next > 0);
  CHECK(p.next % (uint64_t(1) << (64 - kPartBucketBits)) == 0);  // parts are runs of buckets
  CHECK(p.width > 0);
  CHECK(p.summary.parts == 1);
  CHECK(p.summary.games == c.db->game_count());
  CHECK(p.summary.positions > 0);

  // Run again from the record, the sketch loaded: parts 2.. only, listed
  // again (the kept file is gone).
  REQUIRE(load_played_sketch(c.sketch_path, c.db->settings().min_played, &c.played).ok());
  CountSummary resumed = p.summary;
  int first_counted = 0;
  auto parts_counted = [&](CountStep step, int part, uint64_t) {
    if (step == CountStep::kExact && first_counted == 0) first_counted = part;
  };
  s = count_in_parts(*c.db, gen, &c.played, c.sketch_path, 2, c.part_bytes, &p, parts_counted, &resumed);
  REQUIRE(s.ok());
  CHECK(first_counted == 2);
  CHECK(resumed.parts >= 2);
  CHECK(resumed.patterns_per_level == c.resident);
  CHECK(resumed.positions == p.summary.positions);
  REQUIRE(c.db->count_progress(&record).ok());
  REQUIRE(decode_parts_progress(record, &p).ok());
  CHECK(p.done);
  CHECK(p.summary.parts == resumed.parts);

  // Committed: every count as the c.resident ingest's, the progress gone,
  // and the kept files a killed count left in the database folder too.
  const std::string left = c.tmp / "db/sgfpat-played-99.sketch.parts";
  std::filesystem::create_directories(left);
  write_file(left + "/kept.run-1", "left by a kill");
  REQUIRE(c.db->commit_generation(gen, resumed).ok());
  CHECK_FALSE(std::filesystem::exists(left));
  REQUIRE(c.db->count_progress(&record).ok());
  CHECK(record.empty());
  std::string why;
  CHECK_MESSAGE(diff_counts(reference, counts_of(*c.db), &why) == 0, why);

  // A count that starts afresh drops a record left behind.
  REQUIRE(c.db->save_count_progress(encode_parts_progress(p)).ok());
  REQUIRE(c.db->begin_generation(&gen).ok());
  REQUIRE(c.db->count_progress(&record).ok());
  CHECK(record.empty());
}

TEST_CASE("count in parts: a record that ends inside a bucket (an older run's ranges) is gone on from exactly there") {
  Counted c("sgfpat-parts-mid");
  const auto reference = counts_of(*c.db);

  // As if an earlier run had counted [0, next) of a new generation in one
  // part: a third of the way into bucket 5.
  uint32_t gen = 0;
  REQUIRE(c.db->begin_generation(&gen).ok());
  PartsProgress p;
  p.gen = gen;
  p.games = c.db->game_count();
  p.moves = c.db->move_count();
  p.split_level = kSplitLevel;
  p.next = (uint64_t(5) << (64 - kPartBucketBits)) + (uint64_t(1) << (64 - kPartBucketBits)) / 3;
  p.width = double(p.next);
  p.summary.parts = 1;
  p.summary.patterns_per_level.assign(c.resident.size(), 0);
  CountSummary resumed = p.summary;
  REQUIRE(count_in_parts(*c.db, gen, &c.played, c.sketch_path, 2, c.part_bytes, &p, nullptr, &resumed).ok());
  CHECK(resumed.parts >= 2);
  // Committed with what it wrote (nothing else is in the generation):
  // every count is the resident count's; none of the base (the part from
  // 0 writes it), and exactly the split-level patterns from `next` on.
  REQUIRE(c.db->commit_generation(gen, resumed).ok());
  const auto written = counts_of(*c.db);
  std::map<int, size_t> per_level;
  for (const auto& [k, counts] : written) {
    ++per_level[k.first];
    const auto it = reference.find(k);
    REQUIRE(it != reference.end());
    CHECK(same_counts(it->second, counts));
  }
  size_t after = 0;
  for (const auto& [k, counts] : reference)
    if (k.first == kSplitLevel && part_hash(k.second) >= p.next) {
      ++after;
      CHECK(written.count(k) == 1);
    }
  CHECK(after > 0);
  CHECK(after < c.resident[kSplitLevel - 1]);
  CHECK(per_level[kSplitLevel] == after);
  for (int l = 1; l < kSplitLevel; ++l) CHECK(per_level[l] == 0);
  for (int l = 1; l <= int(c.resident.size()); ++l) CHECK(resumed.patterns_per_level[size_t(l - 1)] == per_level[l]);
  CHECK(per_level[kSplitLevel + 1] > 0);
}

TEST_CASE("the progress record of a count in parts: round trip, damage is an error") {
  PartsProgress p;
  p.gen = 7;
  p.games = 616148;
  p.moves = 123456789;
  p.split_level = 3;
  p.next = 0x9e3779b97f4a7c15ULL;
  p.done = false;
  p.width = 0.1;  // not exact in binary: must survive bit for bit
  p.summary.games = 616148;
  p.summary.mode = CountMode::kParts;
  p.summary.parts = 3;
  p.summary.patterns_per_level = {45, 100000, 6000000};
  const std::string bytes = encode_parts_progress(p);
  PartsProgress back;
  REQUIRE(decode_parts_progress(bytes, &back).ok());
  CHECK(back == p);
  p.done = true;
  REQUIRE(decode_parts_progress(encode_parts_progress(p), &back).ok());
  CHECK(back == p);

  // Every truncation, a trailing byte, a bad flag, another format.
  for (size_t n = 0; n < bytes.size(); ++n) CHECK(!decode_parts_progress(bytes.substr(0, n), &back).ok());
  CHECK(!decode_parts_progress(bytes + "x", &back).ok());
  std::string flag = bytes;
  // format, gen (1), games (3), moves (4), split level (1), next (8): the flag.
  flag[1 + 1 + 3 + 4 + 1 + 8] = 2;
  CHECK(decode_parts_progress(flag, &back).is_corruption());
  std::string other = bytes;
  other[0] = char(kPartsProgressFormat + 1);
  CHECK(decode_parts_progress(other, &back).is_not_supported());

  // The first format: the same without the split level, which was 3.
  std::string first = bytes;
  first[0] = char(kPartsProgressFormat1);
  first.erase(1 + 1 + 3 + 4, 1);
  REQUIRE(decode_parts_progress(first, &back).ok());
  p.done = false;  // as `bytes` has it
  CHECK(back == p);
}

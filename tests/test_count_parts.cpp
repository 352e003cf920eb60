// Counting in parts frees the sketch of pass 1 while a part is counted and
// reads it back from its file before the next listing: the parts count
// what one resident table counts, and a sketch file gone between two parts
// is an error, never a listing without it.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "count/count_steps.h"
#include "count/key_parts.h"
#include "count/played_sketch_file.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace testutil;
using namespace sgfpat;

namespace {

// The sketch of pass 1 over the stored games of `db`, as recount() makes it.
PlayedSketch sketch_of(PatternDb& db) {
  const unsigned min_played = unsigned(db.settings().min_played);
  PlayedSketch played = new_played_sketch(size_t(1) << 20, int(min_played));
  SketchPass pass(db.settings().scheme.levels);
  REQUIRE(sketch_played(db.settings().scheme, [&](const GameVisitor& v) { return db.for_each_game(v); },
                        db.game_count(), 1, played.sketch.get(), min_played, size_t(1) << 30, &pass, nullptr)
              .ok());
  return played;
}

}  // namespace

TEST_CASE("count in parts: the sketch is read back for every listing; a sketch file gone is an error") {
  TempDir tmp("sgfpat-parts");
  const std::string input = tmp / "games.sgf";
  write_file(input, join(gz_lines(corpus_path("tygem-dev/tygem-2005-11.sgf.gz"), 0, 300)));
  const nlohmann::json j = ingest_ok(tmp / "db", {"--levels", "6"}, {input}, tmp.path());
  REQUIRE(j["count"]["mode"] == "resident");
  const std::vector<uint64_t> resident = j["count"]["patterns_per_level"].get<std::vector<uint64_t>>();

  OpenOptions open;
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(tmp / "db", open, &db).ok());
  PlayedSketch played = sketch_of(*db);
  const std::string sketch_path = tmp / "played.sketch";
  REQUIRE(save_played_sketch(played, db->settings().min_played, sketch_path).ok());
  // A budget of a few tables of this corpus: several parts.
  const size_t part_bytes = size_t(3) << 20;

  uint32_t gen = 0;
  REQUIRE(db->begin_generation(&gen).ok());
  CountSummary summary;
  PartsOutcome outcome;
  Status s = count_in_parts(*db, gen, &played, sketch_path, 2, part_bytes, 0, nullptr, &summary, &outcome);
  REQUIRE(s.ok());
  REQUIRE(outcome.fitted);
  CHECK(outcome.parts >= 2);
  CHECK(summary.patterns_per_level == resident);

  // The same count with the file gone: the first part is listed with the
  // sketch in memory, the second must read it back and cannot.
  if (!played.sketch) REQUIRE(load_played_sketch(sketch_path, db->settings().min_played, &played).ok());
  REQUIRE(db->begin_generation(&gen).ok());
  summary = CountSummary{};
  s = count_in_parts(*db, gen, &played, tmp / "gone.sketch", 2, part_bytes, 0, nullptr, &summary, &outcome);
  CHECK(s.is_io_error());
}

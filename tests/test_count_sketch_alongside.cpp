// Pass 1 fed batch by batch from another thread (count/sketch_alongside.h):
// the kept lists, items and games are those of sketch_played() over the
// same records, however the records are split into batches and whoever
// sketches them (a queue of one batch makes the handing thread sketch
// most of them itself); a record that does not replay is an error that
// add() and finish() report, never a pass that looks whole.
#include <doctest/doctest.h>

#include "count/sketch_pass.h"
#include "count/played_sketcher.h"
#include "count/sketch_alongside.h"
#include "sgf/parser.h"
#include "store/game_record.h"
#include "test_util.h"

using namespace sgfpat;

namespace {

std::vector<std::string> records(size_t n) {
  std::vector<std::string> out;
  for (const std::string& line : testutil::sample_lines(0, n)) {
    Game g;
    REQUIRE(parse_game(line, &g).ok());
    out.push_back(encode_game(g));
  }
  return out;
}

// The lists sketch_played() makes of `recs` in one go, with a sketch large
// enough that no two items share all their cells (the lists then do not
// depend on the order of the items).
SketchPass reference(const KeyScheme& scheme, const std::vector<std::string>& recs, unsigned k) {
  CountMinSketch sketch(size_t(64) << 20, int(k));
  SketchPass pass(scheme.levels);
  GameSource source = [&](const GameVisitor& v) {
    for (const std::string& r : recs)
      if (!v(Fingerprint{}, r)) break;
    return Status::OK();
  };
  REQUIRE(sketch_played(scheme, source, recs.size(), 2, &sketch, k, size_t(1) << 30, &pass, nullptr).ok());
  return pass;
}

}  // namespace

TEST_CASE("pass 1 fed from another thread lists what sketch_played lists, whoever sketches the batches") {
  KeyScheme scheme;
  scheme.levels = 8;
  const auto recs = records(120);
  for (unsigned k : {1u, 2u, 3u}) {
    SketchPass want = reference(scheme, recs, k);
    REQUIRE(want.complete);
    for (size_t batch : {size_t(1), size_t(7), size_t(50)})
      for (size_t queued : {size_t(1), size_t(4)}) {
        CAPTURE(k);
        CAPTURE(batch);
        CAPTURE(queued);
        CountMinSketch sketch(size_t(64) << 20, int(k));
        PlayedSketcher sketcher(scheme, &sketch, k, size_t(1) << 30);
        SketchAlongside alongside(&sketcher, 3, queued);  // two workers and the caller
        for (size_t i = 0; i < recs.size(); i += batch) {
          std::vector<std::string> b(recs.begin() + std::ptrdiff_t(i),
                                     recs.begin() + std::ptrdiff_t(std::min(recs.size(), i + batch)));
          REQUIRE(alongside.add(std::move(b)).ok());
        }
        REQUIRE(alongside.finish().ok());
        SketchPass got(scheme.levels);
        sketcher.finish(&got);
        CHECK(got.complete);
        CHECK(got.games == recs.size());
        CHECK(got.items == want.items);
        CHECK(got.kept.by_level() == want.kept.by_level());
        CHECK(got.extended.by_level() == want.extended.by_level());
      }
  }
}

TEST_CASE("pass 1 fed from another thread: lists over their budget are dropped, a broken record is an error") {
  KeyScheme scheme;
  scheme.levels = 8;
  const auto recs = records(40);
  {
    CountMinSketch sketch(size_t(1) << 20, 1);
    PlayedSketcher sketcher(scheme, &sketch, 1, size_t(1) << 20);  // 1 MB: less than 40 games' patterns
    SketchAlongside alongside(&sketcher, 2, 1);
    for (size_t i = 0; i < recs.size(); i += 5)
      REQUIRE(alongside.add(std::vector<std::string>(recs.begin() + std::ptrdiff_t(i),
                                                     recs.begin() + std::ptrdiff_t(i + 5)))
                  .ok());
    REQUIRE(alongside.finish().ok());
    SketchPass got(scheme.levels);
    sketcher.finish(&got);
    CHECK_FALSE(got.complete);
    CHECK(got.games == recs.size());  // the sketch itself holds every game
  }
  {
    CountMinSketch sketch(size_t(1) << 20, 2);
    PlayedSketcher sketcher(scheme, &sketch, 2, size_t(1) << 30);
    SketchAlongside alongside(&sketcher, 2, 1);
    std::vector<std::string> bad = {recs[0], recs[1].substr(0, recs[1].size() / 2), recs[2]};
    Status first = alongside.add(std::move(bad));
    Status later = Status::OK();
    for (int i = 0; i < 20 && later.ok(); ++i) later = alongside.add({recs[3]});
    // The error shows at the latest in finish(), and whenever add() shows
    // one, it is that one.
    const Status end = alongside.finish();
    CHECK_FALSE(end.ok());
    CHECK((first.ok() || first.code() == end.code()));
    CHECK((later.ok() || later.code() == end.code()));
  }
}

// The most played patterns of a level (export/top_patterns.h, `sgfpat
// stats`): the same list as sorting every reported pattern, for every n.
#include <doctest/doctest.h>

#include <algorithm>

#include "export/top_patterns.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

TEST_CASE("most_played_patterns: the first n of all the reported patterns sorted, and their number") {
  TempDir dir("sgfpat-top-patterns");
  testutil::ingest_ok(dir / "db", {"--levels", "4", "--min-played", "1", "--memory-mb", "64"},
                      {std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-9x9.sgf"}, dir.path());
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(dir / "db", &db).ok());
  for (int level : {1, 3}) {
    for (uint64_t min_played : {1u, 2u, 5u}) {
      std::vector<TopPattern> all;
      REQUIRE(db->for_each_count(level, [&](int, uint64_t key, const PatternCounts& c) {
                  if (c.played >= min_played) all.push_back(TopPattern{key, c});
                  return true;
                }).ok());
      std::sort(all.begin(), all.end(), played_more);
      REQUIRE(all.size() > 3);
      for (size_t n : {size_t(1), size_t(2), size_t(7), all.size() - 1, all.size(), all.size() + 10}) {
        INFO("level " << level << ", min played " << min_played << ", n " << n);
        std::vector<TopPattern> top;
        uint64_t reported = 0;
        REQUIRE(most_played_patterns(*db, level, min_played, n, &top, &reported).ok());
        CHECK(reported == all.size());
        REQUIRE(top.size() == std::min(n, all.size()));
        for (size_t i = 0; i < top.size(); ++i) {
          CHECK(top[i].key == all[i].key);
          CHECK(top[i].counts.played == all[i].counts.played);
          CHECK(top[i].counts.seen == all[i].counts.seen);
          CHECK(top[i].counts.wins == all[i].counts.wins);
        }
      }
    }
  }
}

TEST_CASE("played_more: more played, then more seen, then the smaller key") {
  TopPattern a{5, PatternCounts{10, 100, 3}}, b{4, PatternCounts{9, 200, 3}}, c{3, PatternCounts{10, 90, 3}},
      d{9, PatternCounts{10, 100, 1}};
  CHECK(played_more(a, b));
  CHECK(played_more(a, c));
  CHECK(played_more(a, d));
  CHECK_FALSE(played_more(d, a));
  CHECK_FALSE(played_more(a, a));
}

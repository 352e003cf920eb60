// The counts as stored: a value written by PatternDb reads back exactly,
// and a damaged value is reported, never read as zero counts.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <memory>

#include "core/coding.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {
// The counts key of the spec of pattern_db.h: generation (4, BE), level, key (8, BE).
std::string counts_key(uint32_t gen, int level, uint64_t key) {
  std::string k(13, '\0');
  encode_fixed32_be(k.data(), gen);
  k[4] = char(level);
  encode_fixed64_be(k.data() + 5, key);
  return k;
}


void make_db(const std::string& path, std::vector<std::tuple<int, uint64_t, PatternCounts>> counts) {
  OpenOptions open;
  open.create_if_missing = true;
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(path, open, &db).ok());
  uint32_t gen = 0;
  REQUIRE(db->begin_generation(&gen).ok());
  REQUIRE(db->add_counts(gen, counts).ok());
  REQUIRE(db->add_counts(gen, counts).ok());  // merged: doubled
  REQUIRE(db->commit_generation(gen, CountSummary{}).ok());
}
}  // namespace

TEST_CASE("stored counts: little-endian values, merged exactly, read back") {
  TempDir tmp("sgfpat-counts");
  const std::string path = std::string(tmp.path()) + "/db";
  const uint64_t big = (uint64_t(1) << 40) + 3;
  make_db(path, {{1, 7, PatternCounts{1, 2, 3}}, {2, 0xfedcba9876543210ULL, PatternCounts{big, big + 1, 5}}});
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(path, &db).ok());
  PatternCounts c;
  bool found = false;
  REQUIRE(db->get(2, 0xfedcba9876543210ULL, &c, &found).ok());
  CHECK(found);
  CHECK(c.played == 2 * big);
  CHECK(c.seen == 2 * big + 2);
  CHECK(c.wins == 10);
  int n = 0;
  REQUIRE(db->for_each_count(1, [&](int level, uint64_t key, const PatternCounts& k) {
    CHECK(level == 1);
    CHECK(key == 7);
    CHECK(k.played == 2);
    CHECK(k.seen == 4);
    CHECK(k.wins == 6);
    ++n;
    return true;
  }).ok());
  CHECK(n == 1);
}

TEST_CASE("a damaged counts value is an error, not zero counts") {
  TempDir tmp("sgfpat-counts");
  const std::string path = std::string(tmp.path()) + "/db";
  make_db(path, {{1, 7, PatternCounts{1, 2, 3}}, {1, 8, PatternCounts{4, 5, 6}}});
  uint32_t gen = 0;
  {
    std::unique_ptr<PatternDb> db;
    REQUIRE(PatternDb::OpenReader(path, &db).ok());
    gen = db->generation();
  }
  std::string value(24, '\0');
  encode_fixed64(value.data(), 9);
  testutil::put_raw(path, "counts", counts_key(gen, 1, 8), value.substr(0, 23));  // one byte short
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(path, &db).ok());
  PatternCounts c;
  bool found = false;
  CHECK(db->get(1, 7, &c, &found).ok());  // the other one is fine
  CHECK(c.played == 2);
  Status st = db->get(1, 8, &c, &found);
  CHECK(st.is_corruption());
  st = db->for_each_count(0, [&](int, uint64_t, const PatternCounts&) { return true; });
  CHECK(st.is_corruption());
}

// The counts as stored: a value written by PatternDb reads back exactly,
// and a damaged value is reported, never read as zero counts.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <memory>
#include <tuple>
#include <vector>

#include "core/coding.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {
using testutil::counts_key;

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

// (level, key, played, seen, wins) of every current count, in key order.
using CountRow = std::tuple<int, uint64_t, uint64_t, uint64_t, uint64_t>;
std::vector<CountRow> counts_of(const std::string& path) {
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(path, &db).ok());
  std::vector<CountRow> rows;
  REQUIRE(db->for_each_count(0, [&](int level, uint64_t key, const PatternCounts& c) {
    rows.emplace_back(level, key, c.played, c.seen, c.wins);
    return true;
  }).ok());
  return rows;
}
// The entries of the counts family in `path` (raw, every generation), and
// how many of them belong to a generation other than `gen`.
struct GenerationTally {
  size_t keys = 0, others = 0;
  bool ok = false;  // the scan ended without an error
};
GenerationTally tally_generations(const std::string& path, uint32_t gen) {
  GenerationTally t;
  testutil::with_raw_family(path, "counts", [&](rocksdb::DB& raw, rocksdb::ColumnFamilyHandle* cf) {
    std::unique_ptr<rocksdb::Iterator> it(raw.NewIterator(rocksdb::ReadOptions(), cf));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ++t.keys;
      t.others += decode_fixed32_be(it->key().data()) != gen;
    }
    t.ok = it->status().ok();
  });
  return t;
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

TEST_CASE("counts written as table files side by side read back whole; one failing fill takes in none of them") {
  TempDir tmp("sgfpat-counts");
  const std::string path = std::string(tmp.path()) + "/db";
  OpenOptions open;
  open.create_if_missing = true;
  open.write_threads = 3;
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(path, open, &db).ok());
  // Level `level`'s keys: 700 multiples of a level's step, so that two
  // attempts can write different keys.
  auto fill_of = [](int level, uint64_t step, int fail_after) -> PatternDb::CountFill {
    return [=](const PatternDb::CountSink& sink) -> Status {
      for (uint64_t i = 1; i <= 700; ++i) {
        if (int(i) == fail_after) return Status::IOError("a fill that fails");
        Status st = sink(level, i * step, PatternCounts{i, i + uint64_t(level), i * step});
        if (!st.ok()) return st;
      }
      return Status::OK();
    };
  };
  uint32_t gen = 0;
  REQUIRE(db->begin_generation(&gen).ok());
  // What killed calls could leave: a name RocksDB had not unlinked yet (a
  // second link to a table taken in), and the single file of older builds.
  testutil::write_file(path + "/sgfpat-counts.7", "left by a kill");
  testutil::write_file(path + "/sgfpat-counts.sst.tmp", "left by a kill");
  // The first attempt's last fill fails when its siblings are written.
  Status st = db->write_sorted_counts(gen, {fill_of(3, 5, 0), fill_of(1, 5, 0), fill_of(2, 5, 0), fill_of(4, 5, 350)});
  CHECK(st.is_io_error());
  for (const auto& e : std::filesystem::directory_iterator(path))
    CHECK(e.path().filename().string().find("sgfpat-counts") == std::string::npos);
  REQUIRE(db->write_sorted_counts(gen, {fill_of(2, 3, 0), fill_of(1, 3, 0), fill_of(3, 3, 0)}).ok());
  REQUIRE(db->commit_generation(gen, CountSummary{}).ok());
  db.reset();
  const std::vector<CountRow> got = counts_of(path);
  std::vector<CountRow> want;
  for (int level = 1; level <= 3; ++level)
    for (uint64_t i = 1; i <= 700; ++i) want.emplace_back(level, i * 3, i, i + uint64_t(level), i * 3);
  CHECK(got.size() == want.size());
  CHECK(got == want);
}

TEST_CASE("a count cut short and an older generation's leftovers are dropped by the next count, and only they") {
  TempDir tmp("sgfpat-counts");
  const std::string path = std::string(tmp.path()) + "/db";
  auto open_db = [&] {
    OpenOptions open;
    open.create_if_missing = true;
    std::unique_ptr<PatternDb> db;
    REQUIRE(PatternDb::Open(path, open, &db).ok());
    return db;
  };
  auto fill_of = [](int level, uint64_t step) -> PatternDb::CountFill {
    return [=](const PatternDb::CountSink& sink) -> Status {
      for (uint64_t i = 1; i <= 50; ++i) {
        Status st = sink(level, i * step, PatternCounts{i, 2 * i, step});
        if (!st.ok()) return st;
      }
      return Status::OK();
    };
  };
  uint32_t first = 0, cut = 0, last = 0;
  {
    auto db = open_db();
    REQUIRE(db->begin_generation(&first).ok());
    REQUIRE(db->write_sorted_counts(first, {fill_of(1, 7)}).ok());
    REQUIRE(db->commit_generation(first, CountSummary{}).ok());
  }
  // A generation older than the current one that a kill left behind.
  std::string value(24, '\0');
  encode_fixed64(value.data(), 1);
  testutil::put_raw(path, "counts", counts_key(first - 1, 1, 99), value);
  {
    // A count killed before its switch: sums and whole counts written.
    auto db = open_db();
    REQUIRE(db->begin_generation(&cut).ok());
    CHECK(cut == first + 1);
    REQUIRE(db->add_counts(cut, {{2, 5, PatternCounts{1, 1, 1}}}).ok());
    REQUIRE(db->write_sorted_counts(cut, {fill_of(1, 11), fill_of(3, 11)}).ok());
  }
  {
    auto db = open_db();
    REQUIRE(db->begin_generation(&last).ok());
    CHECK(last == cut);  // the same number again: its leftovers must go
    REQUIRE(db->write_sorted_counts(last, {fill_of(2, 13), fill_of(1, 13)}).ok());
    REQUIRE(db->commit_generation(last, CountSummary{}).ok());
  }
  std::vector<CountRow> want;
  for (int level = 1; level <= 2; ++level)
    for (uint64_t i = 1; i <= 50; ++i) want.emplace_back(level, i * 13, i, 2 * i, 13);
  CHECK(counts_of(path) == want);
  // Nothing of another generation is left to read.
  const GenerationTally t = tally_generations(path, last);
  CHECK(t.ok);
  CHECK(t.keys == 100);
  CHECK(t.others == 0);
}

TEST_CASE("counts written in overlapping runs (parts, partial sums, an older generation) are one sorted run after the commit") {
  TempDir tmp("sgfpat-counts");
  const std::string path = std::string(tmp.path()) + "/db";
  OpenOptions open;
  open.create_if_missing = true;
  open.write_threads = 2;
  // Part p writes the keys p, p + 4, p + 8, ... of levels 1 and 2: every
  // part spans the others' key range, as the parts of a count in parts do.
  auto part = [](uint64_t p, int level) -> PatternDb::CountFill {
    return [=](const PatternDb::CountSink& sink) -> Status {
      for (uint64_t key = p; key < 4000; key += 4) {
        Status st = sink(level, key, PatternCounts{key, key + 1, p});
        if (!st.ok()) return st;
      }
      return Status::OK();
    };
  };
  uint32_t old_gen = 0, gen = 0;
  {
    std::unique_ptr<PatternDb> db;
    REQUIRE(PatternDb::Open(path, open, &db).ok());
    REQUIRE(db->begin_generation(&old_gen).ok());
    REQUIRE(db->write_sorted_counts(old_gen, {part(0, 1)}).ok());
    REQUIRE(db->commit_generation(old_gen, CountSummary{}).ok());
    REQUIRE(db->begin_generation(&gen).ok());
    for (uint64_t p = 0; p < 4; ++p) REQUIRE(db->write_sorted_counts(gen, {part(p, 1), part(p, 2)}).ok());
    REQUIRE(db->add_counts(gen, {{3, 9, PatternCounts{1, 2, 3}}}).ok());
    REQUIRE(db->add_counts(gen, {{3, 9, PatternCounts{1, 2, 3}}}).ok());
    REQUIRE(db->commit_generation(gen, CountSummary{}).ok());
  }
  std::vector<CountRow> want;
  for (int level = 1; level <= 2; ++level)
    for (uint64_t key = 0; key < 4000; ++key) want.emplace_back(level, key, key, key + 1, key % 4);
  want.emplace_back(3, 9, 2, 4, 6);
  CHECK(counts_of(path) == want);
  // One sorted run, in one level: no part left above another, no partial
  // sums or old generation left for reads to pass over.
  testutil::with_raw_family(path, "counts", [&](rocksdb::DB& raw, rocksdb::ColumnFamilyHandle* cf) {
    rocksdb::ColumnFamilyMetaData md;
    raw.GetColumnFamilyMetaData(cf, &md);
    int levels_with_files = 0;
    uint64_t entries = 0;  // every entry stored, partial sums and deletions too
    for (const auto& level : md.levels) {
      if (level.files.empty()) continue;
      ++levels_with_files;
      CHECK(level.level > 0);
      for (const auto& f : level.files) entries += f.num_entries;
    }
    CHECK(levels_with_files == 1);
    CHECK(entries == want.size());
  });
  const GenerationTally t = tally_generations(path, gen);
  CHECK(t.ok);
  CHECK(t.keys == want.size());
  CHECK(t.others == 0);
}

TEST_CASE("the counts check reads the current generation's tables only: a killed count's leftovers hide no loss") {
  TempDir tmp("sgfpat-counts");
  auto fill_of = [](int level, uint64_t n) -> PatternDb::CountFill {
    return [=](const PatternDb::CountSink& sink) -> Status {
      for (uint64_t i = 1; i <= n; ++i) {
        Status st = sink(level, i, PatternCounts{2, 3, 1});
        if (!st.ok()) return st;
      }
      return Status::OK();
    };
  };
  // The generation holds 50 patterns and a killed count left 100 of the
  // next one.  A summary of 50 is a healthy database; one of 80 is one
  // that lost a table file of its generation.
  for (const uint64_t reported : {uint64_t(50), uint64_t(80)}) {
    CAPTURE(reported);
    const std::string path = std::string(tmp.path()) + "/db" + std::to_string(reported);
    uint32_t gen = 0, cut = 0;
    {
      OpenOptions open;
      open.create_if_missing = true;
      std::unique_ptr<PatternDb> db;
      REQUIRE(PatternDb::Open(path, open, &db).ok());
      REQUIRE(db->begin_generation(&gen).ok());
      REQUIRE(db->write_sorted_counts(gen, {fill_of(1, 50)}).ok());
      CountSummary summary;
      summary.patterns_per_level = {reported};
      REQUIRE(db->commit_generation(gen, summary).ok());
      REQUIRE(db->begin_generation(&cut).ok());
      REQUIRE(db->write_sorted_counts(cut, {fill_of(1, 100)}).ok());
    }
    std::unique_ptr<PatternDb> reader;
    const Status st = PatternDb::OpenReader(path, &reader);
    if (reported == 50) CHECK(st.ok());
    else CHECK(st.is_corruption());
  }
}

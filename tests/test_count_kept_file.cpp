// The kept set on disk (count/kept_file.h): a by-bucket collector's lists
// written as one record a pattern with the flags and bucket it must have;
// a listing spilled in many runs is the very file listed in one; a table
// read back for a run of buckets holds exactly the base and those buckets.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "count/sketch_pass.h"
#include "count/kept_file.h"
#include "count/key_parts.h"
#include "count/played_sketch_file.h"
#include "count/record_file.h"
#include "test_util.h"

using namespace testutil;
using namespace sgfpat;

namespace {

struct Expected {
  uint8_t flags = 0, bucket = 0;
  bool operator==(const Expected&) const = default;
};
using Records = std::map<std::pair<int, uint64_t>, Expected>;

Records read_records(const std::string& path, int levels) {
  Records got;
  RecordReader in;
  REQUIRE(in.open(path, RecordKind::kKept, levels).ok());
  ShardRecord r;
  while (in.next(&r)) got[{r.level, r.key}] = Expected{r.flags, r.bucket};
  REQUIRE(in.status().ok());
  return got;
}

}  // namespace

TEST_CASE("kept records: a collector's lists, one record a pattern, flags or-ed, the split-level pattern's bucket") {
  constexpr int kLevels = 6;
  std::mt19937_64 rng(11);
  KeptCollector collector(kLevels, /*by_bucket=*/true);
  Records want;
  // Moves that share their smaller levels (a few shapes) and differ above.
  std::vector<uint64_t> keys(kLevels);
  for (int m = 0; m < 20000; ++m) {
    for (int l = 0; l < kLevels; ++l) keys[size_t(l)] = l < 2 ? rng() % 50 : l < 4 ? rng() % 3000 : rng();
    // Level 3 keys decide the bucket of levels above: a level-4 key must
    // have one split-level pattern, so derive it from level 3's.
    keys[3] = keys[2] * 7919 + rng() % 5;
    const int top = int(rng() % (kLevels + 1));
    const int max_level = rng() % 4 == 0 ? kSplitLevel - 1 : kLevels;
    collector.add_move(keys.data(), top, max_level);
    for (int l = 1; l <= top && l <= max_level; ++l) {
      Expected& e = want[{l, keys[size_t(l - 1)]}];
      e.flags |= kRecordKept;
      if (l < top) e.flags |= kRecordExtended;
      e.bucket = uint8_t(l < kSplitLevel ? 0 : part_bucket(keys[kSplitLevel - 1]));
    }
  }
  TempDir tmp("sgfpat-kept-records");
  RecordWriter out;
  REQUIRE(out.open(tmp / "kept", RecordKind::kKept, kLevels).ok());
  write_kept_records(&collector, kLevels, &out);
  REQUIRE(out.commit(RecordMeta{}).ok());
  CHECK(read_records(tmp / "kept", kLevels) == want);

  // Its sizes, per level and bucket.
  KeptFileSizes sizes;
  REQUIRE(measure_kept_file(tmp / "kept", kLevels, &sizes).ok());
  CHECK(sizes.records == want.size());
  std::vector<size_t> k, e;
  sizes.range(kLevels, 0, kPartBuckets - 1, &k, &e);
  for (int l = 1; l <= kLevels; ++l) {
    size_t kept = 0, ext = 0;
    for (const auto& [key, x] : want)
      if (key.first == l) {
        kept += (x.flags & kRecordKept) != 0;
        ext += (x.flags & kRecordExtended) != 0;
      }
    CHECK(k[size_t(l - 1)] == kept);
    CHECK(e[size_t(l - 1)] == ext);
  }

  // A table of buckets 10..20: the base whole, the others' keys of those
  // buckets only, extended as listed.
  std::unique_ptr<ResidentTable> table;
  REQUIRE(load_kept_table(tmp / "kept", sizes, kLevels, 10, 20, &table).ok());
  size_t in_table = 0;
  for (const auto& [key, x] : want) {
    const bool mine = key.first < kSplitLevel || (x.bucket >= 10 && x.bucket <= 20);
    const int32_t slot = table->find(key.first, key.second);
    CHECK((slot >= 0) == mine);
    if (slot >= 0) CHECK(ResidentTable::extends(key.first, slot) == ((x.flags & kRecordExtended) != 0));
    in_table += mine;
  }
  CHECK(table->size() == in_table);
  CHECK(in_table < want.size());
}

TEST_CASE("the one listing of a count in parts: the same kept file in one run or in many; from a point on, only the rest") {
  TempDir tmp("sgfpat-kept-listing");
  const std::string input = tmp / "games.sgf";
  write_file(input, join(sample_lines(0, 200)));
  ingest_ok(tmp / "db", {"--levels", "6"}, {input}, tmp.path());
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::Open(tmp / "db", OpenOptions{}, &db).ok());
  const KeyScheme& scheme = db->settings().scheme;
  const unsigned min_played = unsigned(db->settings().min_played);
  PlayedSketch played = new_played_sketch(size_t(1) << 20, int(min_played));
  SketchPass pass(scheme.levels);
  const GameSource games = [&](const GameVisitor& v) { return db->for_each_game(v); };
  REQUIRE(sketch_played(scheme, games, db->game_count(), 1, played.sketch.get(), min_played, size_t(1) << 30, &pass,
                        nullptr)
              .ok());

  // Listed and merged into `path`; the runs listed.
  auto list = [&](int threads, uint64_t from, size_t list_bytes, size_t merge_bytes, const std::string& path) {
    std::vector<std::string> runs;
    REQUIRE(list_kept_runs(scheme, games, db->game_count(), threads, *played.sketch, min_played, from, list_bytes,
                           path, &runs, nullptr)
                .ok());
    const size_t n = runs.size();
    REQUIRE(merge_kept_runs(runs, scheme.levels, merge_bytes, path).ok());
    for (const std::string& run : runs) CHECK_FALSE(std::filesystem::exists(run));
    return n;
  };
  CHECK(list(2, 0, size_t(1) << 30, size_t(1) << 30, tmp / "one") == 1);
  // A run after every batch (5 threads: ~40 batches), merged two at a
  // time as they come (the lists' budget allows no more: runs of one tier
  // merged into the next), and the few runs left two at a time too.
  CHECK(kept_merge_fan_in(1) == 2);
  CHECK(kept_merge_fan_in(size_t(5) << 20) == 4);
  CHECK(kept_merge_fan_in(size_t(1) << 30) == 32);
  const size_t many = list(5, 0, 1, 1, tmp / "many");
  CHECK(many > 2);
  CHECK(many < 8);
  const Records one = read_records(tmp / "one", scheme.levels);
  CHECK(read_records(tmp / "many", scheme.levels) == one);
  // Every pattern pass 1 listed is kept there (the finished sketch's
  // estimates are at least those pass 1 saw, so maybe a few more).
  const auto& kept = pass.kept.by_level();
  size_t listed = 0, missing = 0;
  for (size_t l = 0; l < kept.size(); ++l)
    for (uint64_t key : kept[l]) {
      ++listed;
      const auto it = one.find({int(l) + 1, key});
      missing += it == one.end() || !(it->second.flags & kRecordKept);
    }
  CHECK(listed > 1000);
  CHECK(missing == 0);

  // From the middle of the key space: the base as before, the levels from
  // the split level up only where the split-level pattern is at or after.
  // An older version's record may end inside a bucket: a third of the
  // way into bucket 40.
  const uint64_t from = (uint64_t(40) << (64 - kPartBucketBits)) + (uint64_t(1) << (64 - kPartBucketBits)) / 3;
  list(2, from, size_t(1) << 30, size_t(1) << 30, tmp / "rest");
  const Records rest = read_records(tmp / "rest", scheme.levels);
  // The split-level pattern of a pattern above it: the level-3 key of the
  // same bucket it extends is not known from the records, so levels above
  // 3 are checked by bucket, level 3 by its own hash.
  Records want;
  for (const auto& [key, x] : one)
    if (key.first < kSplitLevel || (key.first == kSplitLevel ? part_hash(key.second) >= from : x.bucket > 40))
      want.emplace(key, x);
  // The base as before (a base pattern marked extended only by moves
  // before `from` still is: its level-3 walks are cut by the part's range).
  size_t in_bucket_40 = 0;  // above level 3 in bucket 40: some from before `from`, some after
  for (const auto& [key, x] : rest) {
    if (key.first > kSplitLevel && x.bucket == 40) {
      ++in_bucket_40;
      const auto it = one.find(key);
      CHECK((it != one.end() && it->second == x));
    } else {
      CHECK(want.count(key) == 1);
    }
  }
  for (const auto& [key, x] : want) {
    const auto it = rest.find(key);
    CHECK((it != rest.end() && it->second == x));
  }
  size_t one_in_40 = 0;
  for (const auto& [key, x] : one) one_in_40 += key.first > kSplitLevel && x.bucket == 40;
  CHECK(in_bucket_40 < one_in_40);
  CHECK(rest.size() < one.size());
}

// The pieces of sharded counting on their own: the plan's encoding, the
// record files the steps hand each other (round trip, order, every kind of
// damage reported), their k-way merge, the sum of sketches (never under a
// true count) and the spread of games over shards.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "count/sketch.h"
#include "count/record_file.h"
#include "shard/shard_plan.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

TEST_CASE("plan: encode/decode round trip; damage and truncation are reported") {
  ShardPlan p;
  p.shards = 7;
  p.settings.scheme.levels = 6;
  p.settings.scheme.symmetry = false;
  p.settings.min_played = 3;
  p.filter.sizes = {9, 19};
  p.filter.skip_handicap = true;
  p.filter.min_rank = -4;  // a kyu rank: negative
  p.min_rank = "5k";
  p.sketch_bytes = 1 << 20;
  p.inputs = {"/a/b.sgf", "/c d/e.tar.gz"};
  const std::string bytes = encode_plan(p);
  ShardPlan q;
  REQUIRE(decode_plan(bytes, &q).ok());
  CHECK(same_plan(p, q));
  CHECK(q.filter.min_rank == -4);
  CHECK(q.inputs == p.inputs);
  for (size_t cut : {size_t(0), size_t(5), bytes.size() - 1}) CHECK(decode_plan(bytes.substr(0, cut), &q).is_corruption());
  std::string flipped = bytes;
  flipped[12] ^= 1;
  CHECK(decode_plan(flipped, &q).is_corruption());

  TempDir dir("sgfpat-plan");
  REQUIRE(write_plan(dir / "w", p).ok());
  CHECK(write_plan(dir / "w", p).ok());  // a rerun
  ShardPlan other = p;
  other.shards = 8;
  CHECK(write_plan(dir / "w", other).is_invalid_argument());
  CHECK(read_plan(dir / "nothing", &q).is_not_found());
}

TEST_CASE("shard_of spreads fingerprints evenly and stays in range") {
  std::mt19937_64 rng(5);
  std::vector<int> n(5, 0);
  for (int i = 0; i < 50000; ++i) {
    Fingerprint fp;
    for (auto& b : fp) b = uint8_t(rng());
    const int s = shard_of(fp, 5);
    REQUIRE(s >= 0);
    REQUIRE(s < 5);
    ++n[size_t(s)];
  }
  for (int c : n) CHECK(std::abs(c - 10000) < 500);
  Fingerprint one{};
  CHECK(shard_of(one, 1) == 0);
}

namespace {
void write_counts(const std::string& path, const std::vector<ShardRecord>& recs, uint64_t games) {
  RecordWriter w;
  REQUIRE(w.open(path, RecordKind::kCounts, 4).ok());
  for (const auto& r : recs) w.add(r);
  RecordMeta m;
  m.games = games;
  REQUIRE(w.commit(m).ok());
}
ShardRecord rec(int level, uint64_t key, uint64_t played, uint64_t seen, uint64_t wins) {
  ShardRecord r;
  r.level = level;
  r.key = key;
  r.counts = {played, seen, wins};
  return r;
}
}  // namespace

TEST_CASE("record files: round trip, merge sums, and damage is an error, never a shorter list") {
  TempDir dir("sgfpat-records");
  const std::string a = dir / "a", b = dir / "b";
  write_counts(a, {rec(1, 5, 1, 10, 1), rec(1, ~uint64_t(0), 2, 3, 0), rec(3, 7, 300, 1u << 30, 100)}, 11);
  write_counts(b, {rec(1, 5, 2, 5, 2), rec(2, 9, 0, 4, 0)}, 22);
  std::map<std::pair<int, uint64_t>, PatternCounts> got;
  RecordMeta meta;
  REQUIRE(merge_records({a, b}, RecordKind::kCounts, 4,
                        [&](const ShardRecord& r) {
                          got[{r.level, r.key}] = r.counts;
                          return Status::OK();
                        },
                        &meta)
              .ok());
  CHECK(meta.games == 33);
  REQUIRE(got.size() == 4);
  CHECK(got[{1, 5}].played == 3);
  CHECK(got[{1, 5}].seen == 15);
  CHECK(got[{1, 5}].wins == 3);
  CHECK(got[{3, 7}].seen == (1u << 30));
  CHECK(got[{1, ~uint64_t(0)}].seen == 3);

  // Wrong kind or levels.
  RecordReader r1;
  CHECK(r1.open(a, RecordKind::kKept, 4).is_corruption());
  RecordReader r2;
  CHECK(r2.open(a, RecordKind::kCounts, 5).is_corruption());
  RecordReader r3;
  CHECK(r3.open(dir / "missing", RecordKind::kCounts, 4).is_not_found());

  // Every truncation and every flipped byte is reported.
  const std::string bytes = testutil::read_file(a);
  auto read_all = [&](const std::string& content) {
    testutil::write_file(dir / "damaged", content);
    RecordReader r;
    Status st = r.open(dir / "damaged", RecordKind::kCounts, 4);
    if (!st.ok()) return st;
    ShardRecord x;
    while (r.next(&x)) {
    }
    return r.status();
  };
  CHECK(read_all(bytes).ok());
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    CAPTURE(cut);
    CHECK(read_all(bytes.substr(0, cut)).is_corruption());
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i >= 32) break;  // the header's meta fields are not checked (they are figures)
    std::string f = bytes;
    f[i] ^= 0x10;
    CAPTURE(i);
    CHECK(!read_all(f).ok());
  }
  for (size_t i = 64; i < bytes.size(); ++i) {
    std::string f = bytes;
    f[i] ^= 0x01;
    CAPTURE(i);
    CHECK(!read_all(f).ok());
  }
  CHECK(read_all(bytes + "x").is_corruption());

  // A writer given records out of order refuses to commit (nothing written).
  RecordWriter w;
  REQUIRE(w.open(dir / "bad", RecordKind::kCounts, 4).ok());
  w.add(rec(2, 1, 0, 0, 0));
  w.add(rec(1, 1, 0, 0, 0));
  CHECK(!w.commit({}).ok());
  CHECK(!std::filesystem::exists(dir / "bad"));
}

// Kept lists carry each pattern's bucket (the count step's parts): it
// survives the round trip and the merge (flags or-ed), and a bucket out of
// range is damage.
TEST_CASE("kept lists: flags and buckets round trip and merge; a bad bucket is damage") {
  TempDir dir("sgfpat-kept-records");
  auto kept = [](int level, uint64_t key, uint8_t flags, uint8_t bucket) {
    ShardRecord r;
    r.level = level;
    r.key = key;
    r.flags = flags;
    r.bucket = bucket;
    return r;
  };
  auto write = [&](const std::string& path, const std::vector<ShardRecord>& recs) {
    RecordWriter w;
    REQUIRE(w.open(path, RecordKind::kKept, 4).ok());
    for (const ShardRecord& r : recs) w.add(r);
    REQUIRE(w.commit({}).ok());
  };
  const std::string a = dir / "a", b = dir / "b";
  write(a, {kept(1, 3, kRecordKept, 0), kept(4, 8, kRecordKept, 63), kept(4, 9, kRecordExtended, 17)});
  write(b, {kept(1, 3, kRecordExtended, 0), kept(4, 9, kRecordKept, 17)});
  std::map<std::pair<int, uint64_t>, std::pair<int, int>> got;  // flags, bucket
  RecordMeta meta;
  REQUIRE(merge_records({a, b}, RecordKind::kKept, 4,
                        [&](const ShardRecord& r) {
                          got[{r.level, r.key}] = {r.flags, r.bucket};
                          return Status::OK();
                        },
                        &meta)
              .ok());
  REQUIRE(got.size() == 3);
  CHECK(got[{1, 3}] == std::make_pair(int(kRecordKept | kRecordExtended), 0));
  CHECK(got[{4, 8}] == std::make_pair(int(kRecordKept), 63));
  CHECK(got[{4, 9}] == std::make_pair(int(kRecordKept | kRecordExtended), 17));

  // The last record's bucket byte set to 64: reported, not read.
  std::string bytes = testutil::read_file(a);
  bytes.back() = char(64);
  testutil::write_file(dir / "bad", bytes);
  RecordReader r;
  REQUIRE(r.open(dir / "bad", RecordKind::kKept, 4).ok());
  ShardRecord x;
  int n = 0;
  while (r.next(&x)) ++n;
  CHECK(n == 2);
  CHECK(r.status().is_corruption());
}

TEST_CASE("summed sketches never under-count the union of their items") {
  for (int threshold : {2, 3, 9}) {
    CountMinSketch a(4096, threshold), b(4096, threshold), other(8192, threshold);
    std::mt19937_64 rng(threshold);
    std::map<uint64_t, unsigned> truth;
    for (int i = 0; i < 3000; ++i) {
      const uint64_t item = rng() % 700;
      ++truth[item];
      (rng() % 2 ? a : b).add(item);
    }
    CHECK(!a.add_cells(other));
    REQUIRE(a.add_cells(b));
    for (const auto& [item, n] : truth) {
      CAPTURE(item);
      CHECK(a.estimate(item) >= std::min(n, a.cap()));
    }
  }
}

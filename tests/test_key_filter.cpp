// count/key_filter.h and count/kept_keys.h's plan: a filter of the kept set
// never says "no" for a key it holds and says "yes" for few others; groups
// of levels cover every level once, each within its room, a level too
// large alone in ranges of its keys that cover them once; runs of buckets
// cover every bucket with a size once, within their fit.
#include <doctest/doctest.h>

#include <array>
#include <random>
#include <vector>

#include "count/kept_keys.h"
#include "count/key_filter.h"
#include "count/part_range.h"

using namespace sgfpat;

TEST_CASE("a key filter holds every key added, and lets few others through") {
  std::mt19937_64 rng(7);
  for (unsigned bits : {4u, 10u, 16u}) {
    CAPTURE(bits);
    KeyFilter f(3);
    std::vector<uint64_t> keys(200000);
    for (uint64_t& k : keys) k = rng();
    f.reserve(2, keys.size(), bits);
    for (uint64_t k : keys) f.add(2, k);
    CHECK(f.bytes() == KeyFilter::bytes_for(keys.size(), bits));
    size_t missed = 0;
    for (uint64_t k : keys) missed += !f.may_contain(2, k);
    CHECK(missed == 0);
    // Levels are apart: the same keys are not in level 1 or 3 (empty).
    CHECK(!f.may_contain(1, keys[0]));
    CHECK(!f.may_contain(3, keys[0]));
    size_t passed = 0;
    const size_t tries = 400000;
    for (size_t i = 0; i < tries; ++i) passed += f.may_contain(2, rng());
    const double rate = double(passed) / double(tries);
    MESSAGE(bits << " bits a key: " << rate * 100 << "% of absent keys pass");
    // A Bloom filter of this many bits a key, within a factor for the blocks.
    const double bound = bits == 4 ? 0.2 : bits == 10 ? 0.015 : 0.002;
    CHECK(rate < bound);
    CHECK(rate > 0);  // a filter, not a set: some pass at these sizes
  }
}

TEST_CASE("groups of levels cover each level once within their room, a level too large in ranges") {
  const std::vector<uint64_t> sizes = {45, 16000, 150000, 120000, 80000, 60000, 50000, 40000};
  auto set_bytes = [&](int l, int parts) {
    return KeyHashSet::bytes_for(size_t(sizes[size_t(l - 1)] * 105 / 100 / uint64_t(parts)) + 16);
  };
  for (size_t room : {size_t(1) << 20, size_t(3) << 20, size_t(64) << 20}) {
    CAPTURE(room);
    const std::vector<LevelGroup> groups = plan_level_groups(sizes, room);
    REQUIRE(!groups.empty());
    int next = 1;
    for (const LevelGroup& g : groups) {
      CHECK(g.first == next);
      CHECK(g.last >= g.first);
      CHECK((g.parts == 1 || g.first == g.last));
      size_t used = 0;
      for (int l = g.first; l <= g.last; ++l) used += set_bytes(l, g.parts);
      CHECK(used <= room);
      // As large as fits: one part fewer, or the next level, would not.
      if (g.parts > 1) CHECK(set_bytes(g.first, g.parts - 1) > room);
      if (g.parts == 1 && g.last < int(sizes.size())) CHECK(used + set_bytes(g.last + 1, 1) > room);
      next = g.last + 1;
    }
    CHECK(next == int(sizes.size()) + 1);
    if (room == (size_t(64) << 20)) CHECK(groups.size() == 1);
    if (room == (size_t(1) << 20)) CHECK((groups[1].first == 3 && groups[1].parts == 2));  // in two ranges
  }
  // A level that does not fit in 64 ranges: no plan.
  CHECK(plan_level_groups({uint64_t(1) << 30}, size_t(1) << 20).empty());
}

TEST_CASE("the ranges of a level's parts cover every key once") {
  for (int parts : {1, 2, 3, 7, 64}) {
    CAPTURE(parts);
    CHECK(PartRange::share(0, parts).lo == 0);
    CHECK(PartRange::share(parts - 1, parts).hi == ~uint64_t(0));
    for (int p = 0; p + 1 < parts; ++p) CHECK(PartRange::share(p, parts).hi + 1 == PartRange::share(p + 1, parts).lo);
  }
}

TEST_CASE("bucket runs cover every bucket with a size once, within the fit, and skip the empty ones") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    std::array<uint64_t, kPartBuckets> sizes{};
    for (uint64_t& s : sizes) s = rng() % 3 == 0 ? 0 : rng() % 100;
    const uint64_t fit = 1 + rng() % 400;
    for (bool one_each : {false, true}) {
      const auto runs = bucket_runs(sizes, fit, one_each);
      std::array<int, kPartBuckets> covered{};
      int next = 0;
      for (const auto& [first, last] : runs) {
        CHECK(first >= next);  // in order, apart
        CHECK(last >= first);
        CHECK(sizes[size_t(first)] > 0);  // a run starts at a bucket with a size
        uint64_t n = 0;
        for (int b = first; b <= last; ++b) {
          ++covered[size_t(b)];
          n += sizes[size_t(b)];
        }
        CHECK((n <= fit || first == last));  // within the fit, or one bucket alone
        if (one_each) CHECK(first == last);
        next = last + 1;
      }
      for (int b = 0; b < kPartBuckets; ++b)
        if (sizes[size_t(b)] > 0) CHECK(covered[size_t(b)] == 1);
    }
  }
  CHECK(bucket_runs({}, 10, false).empty());
}

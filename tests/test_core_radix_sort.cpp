// radix_sort() against std::sort on the key shapes the passes list:
// uniform hashes, canonical ones (the smallest of several), repeats, keys
// whose high bytes are all zero, and the short lengths around its switch.
#include <algorithm>
#include <random>
#include <vector>

#include <doctest/doctest.h>
#include "core/radix_sort.h"

using namespace sgfpat;

TEST_CASE("radix_sort orders 64-bit keys exactly as std::sort, whatever their shape and number") {
  std::mt19937_64 rng(5);
  std::vector<uint64_t> scratch;
  auto check = [&](std::vector<uint64_t> keys, const char* shape) {
    INFO(shape << ", " << keys.size() << " keys");
    std::vector<uint64_t> want = keys;
    std::sort(want.begin(), want.end());
    radix_sort(keys, &scratch);
    CHECK(keys == want);
  };
  for (size_t n : {size_t(0), size_t(1), size_t(511), size_t(512), size_t(513), size_t(20000)}) {
    std::vector<uint64_t> uniform(n), smallest(n), repeats(n), low(n), same(n, 0x0123456789abcdefULL);
    for (size_t i = 0; i < n; ++i) {
      uniform[i] = rng();
      smallest[i] = rng();
      for (int j = 1; j < 8; ++j) smallest[i] = std::min(smallest[i], uint64_t(rng()));
      repeats[i] = rng() % 7 * 0x0101010101010101ULL;
      low[i] = rng() & 0xffff;  // six bytes alike in every key: their passes skipped
    }
    check(uniform, "uniform");
    check(smallest, "smallest of 8");
    check(repeats, "repeats");
    check(low, "high bytes zero");
    check(same, "all equal");
  }
  // Only part of a vector: the rest untouched.
  std::vector<uint64_t> keys(3000);
  for (auto& k : keys) k = rng();
  std::vector<uint64_t> want = keys;
  std::sort(want.begin() + 1000, want.end());
  radix_sort(std::span<uint64_t>(keys.begin() + 1000, keys.end()), &scratch);
  CHECK(keys == want);
}

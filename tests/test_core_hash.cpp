// lib/core/hash.h: the frozen functions keep their values (stored keys and
// fingerprints depend on them), the mixer spreads its input, and the
// linear-probing shape finds what it placed.
#include <doctest/doctest.h>

#include <bit>
#include <random>
#include <set>
#include <vector>

#include "core/hash.h"

using namespace sgfpat;

TEST_CASE("splitmix64 gives the published SplitMix64 sequence") {
  // First outputs of SplitMix64 seeded with 0 (Vigna's reference code).
  uint64_t s = 0;
  CHECK(splitmix64(s) == 0xe220a8397b1dcdafULL);
  CHECK(splitmix64(s) == 0x6e789e6aa1b965f4ULL);
  CHECK(splitmix64(s) == 0x06c45d188009454fULL);
  CHECK(s == 3 * kGoldenGamma);
}

TEST_CASE("mix64 is MurmurHash3's fmix64") {
  CHECK(mix64(0) == 0);
  // fmix64 is a bijection built of invertible steps; these are its values.
  CHECK(mix64(1) == 0xb456bcfc34c2cb2cULL);
  CHECK(mix64(0xffffffffffffffffULL) == 0x64b5720b4b825f21ULL);
}

TEST_CASE("mix64 spreads: one input bit flips about half the output bits") {
  std::mt19937_64 rng(7);
  double total = 0;
  int n = 0;
  for (int t = 0; t < 200; ++t) {
    const uint64_t x = rng();
    for (int b = 0; b < 64; ++b) {
      total += std::popcount(mix64(x) ^ mix64(x ^ (uint64_t(1) << b)));
      ++n;
    }
  }
  const double mean = total / n;
  CHECK(mean > 30.0);
  CHECK(mean < 34.0);
}

TEST_CASE("fibonacci_slot uses the high bits: consecutive values spread over the table") {
  std::set<size_t> slots;
  for (uint64_t x = 0; x < 256; ++x) {
    const size_t s = fibonacci_slot(x, 10);
    CHECK(s < 1024);
    slots.insert(s);
  }
  CHECK(slots.size() == 256);  // no two of 256 consecutive values collide in 1024
}

TEST_CASE("fingerprint_step keeps its values (stored game fingerprints)") {
  // Values of the function as first shipped: a change here changes every
  // stored game's key.
  CHECK(fingerprint_step(0x243f6a8885a308d3ULL, 19, kFingerprintMultiplierA) == 0x4287c957c60f126dULL);
  CHECK(fingerprint_step(0x13198a2e03707344ULL, 19, kFingerprintMultiplierB) == 0x4830d804d1ee2773ULL);
}

TEST_CASE("probe_linear: every key placed is found again; a missing key stops at an empty slot") {
  const size_t mask = 1023;
  std::vector<uint64_t> slots(mask + 1, 0);  // 0: empty; keys are non-zero
  std::mt19937_64 rng(11);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 700; ++i) keys.push_back(rng() | 1);
  for (uint64_t k : keys) {
    // Colliding homes on purpose: only 4 distinct home values.
    const size_t s = probe_linear(k & 3, mask, [&](size_t i) { return slots[i] == 0 || slots[i] == k; });
    CHECK(slots[s] == 0);
    slots[s] = k;
  }
  for (uint64_t k : keys) {
    const size_t s = probe_linear(k & 3, mask, [&](size_t i) { return slots[i] == 0 || slots[i] == k; });
    CHECK(slots[s] == k);
  }
  const size_t miss = probe_linear(2, mask, [&](size_t i) { return slots[i] == 0 || slots[i] == 2; });
  CHECK(slots[miss] == 0);
  // Wraps past the end.
  std::vector<int> wrap(8, 1);
  wrap[1] = 0;
  CHECK(probe_linear(6, 7, [&](size_t i) { return wrap[i] == 0; }) == 1);
}

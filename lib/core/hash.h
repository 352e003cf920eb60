// Hashing of 64-bit values, in one place.
//
// mix64() is the mixer every in-memory hash (tables, sketch, caches) uses:
// MurmurHash3's 64-bit finalizer, every input bit reaching every output bit.
// splitmix64() is the generator of the random words of the Zobrist tables
// and of the playouts' random numbers.  fingerprint_step() is the step of
// the stored games' content fingerprint.  The values of splitmix64() and
// fingerprint_step() are stored (pattern keys derive from the Zobrist
// words; fingerprints are the games' database keys): changing either makes
// existing databases unreadable, so they are frozen.
//
// probe_linear() is the shape of the open-addressing tables whose entries
// sit in a power-of-two array of slots (CountTable, PatternTable).
#pragma once
#include <cstddef>
#include <cstdint>

namespace sgfpat {

// 2^64 / golden ratio, odd: the increment of splitmix64 and the multiplier
// of Fibonacci hashing.
inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

inline constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
  z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return z ^ (z >> 33);
}

// The top `bits` bits (1..63) of `x` times kGoldenGamma: a slot for `x` in
// a table of 2^bits, for values whose low bits alone are not random.
inline constexpr size_t fibonacci_slot(uint64_t x, int bits) { return size_t((x * kGoldenGamma) >> (64 - bits)); }

// Advances `state` and returns the next SplitMix64 word (frozen, see above).
inline constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += kGoldenGamma);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One step of a fingerprint lane: h with v folded in, using the lane's odd
// multiplier (frozen, see above).
inline constexpr uint64_t fingerprint_step(uint64_t h, uint64_t v, uint64_t multiplier) {
  h ^= v + kGoldenGamma + (h << 6) + (h >> 2);
  h *= multiplier;
  return h ^ (h >> 29);
}
// The two lanes' multipliers (a game fingerprint is two 64-bit lanes).
inline constexpr uint64_t kFingerprintMultiplierA = 0xff51afd7ed558ccdULL;
inline constexpr uint64_t kFingerprintMultiplierB = 0xc4ceb9fe1a85ec53ULL;

// Linear probing in a table of mask + 1 slots (a power of two): the first
// slot, from `hash & mask` on, for which stop(slot) is true (the key's slot,
// or the empty one ending its search).  The table must hold an empty slot.
template <class Stop>
inline size_t probe_linear(uint64_t hash, size_t mask, Stop&& stop) {
  size_t i = size_t(hash) & mask;
  while (!stop(i)) i = (i + 1) & mask;
  return i;
}

}  // namespace sgfpat

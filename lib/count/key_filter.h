// A set of pattern keys per level that may answer "yes" for a key it does
// not hold, never "no" for one it holds: a blocked Bloom filter, for a kept
// set that does not fit the memory budget as exact keys (docs/nightly.md,
// "Past the resident size").
//
// A key's bits all lie in one 64-byte block, so a test reads one cache
// line.  At 10 bits a key about 1% of absent keys pass; a night counts
// what passes and then keeps only what the stored counts hold.
#pragma once
#include <cstdint>
#include <vector>

#include "core/hash.h"
#include "core/prefetch.h"

namespace sgfpat {

class KeyFilter {
 public:
  explicit KeyFilter(int levels = 0) : levels_(size_t(levels)) {}

  int levels() const { return int(levels_.size()); }
  // Sizes `level` (1..levels) for `keys` keys at `bits_per_key` bits each
  // (at least one block), before any add() to it.  Each level is its own
  // filter: levels may be filled by different threads at once.
  void reserve(int level, size_t keys, unsigned bits_per_key);
  // Adds `key` to `level` (reserved first).
  void add(int level, uint64_t key) {
    Level& lv = levels_[size_t(level - 1)];
    const uint64_t h = mix64(key ^ kSalt);
    Block& b = lv.blocks[block_of(h, lv.blocks.size())];
    for_bits(h, lv.probes, [&](unsigned word, uint64_t bit) { b.words[word] |= bit; });
  }
  // False only if `key` was never added to `level`.
  bool may_contain(int level, uint64_t key) const {
    if (level < 1 || size_t(level) > levels_.size()) return false;
    const Level& lv = levels_[size_t(level - 1)];
    if (lv.blocks.empty()) return false;
    const uint64_t h = mix64(key ^ kSalt);
    const Block& b = lv.blocks[block_of(h, lv.blocks.size())];
    bool all = true;
    for_bits(h, lv.probes, [&](unsigned word, uint64_t bit) { all &= (b.words[word] & bit) != 0; });
    return all;
  }
  void prefetch(int level, uint64_t key) const {
    const Level& lv = levels_[size_t(level - 1)];
    if (!lv.blocks.empty()) prefetch_line(&lv.blocks[block_of(mix64(key ^ kSalt), lv.blocks.size())]);
  }
  size_t bytes() const;
  // Bytes a filter of `keys` keys at `bits_per_key` takes (one level).
  static size_t bytes_for(size_t keys, unsigned bits_per_key);

 private:
  struct alignas(64) Block {
    uint64_t words[8];
  };
  struct Level {
    std::vector<Block> blocks;
    unsigned probes = 1;  // bits set a key: about ln 2 times the bits a key
  };
  // Apart from the tables' mixing of the same keys (mix64(key) picks their
  // slots): the filter's bits must not follow a table's collisions.
  static constexpr uint64_t kSalt = 0x2545f4914f6cdd1dULL;
  static constexpr unsigned kMaxProbes = 7;  // 9 bits each of one 64-bit mix
  // The block from the hash's top bits, the probes from a second mix of it
  // (9 bits each: a word and a bit of the block's 512), so that keys of
  // one block do not share their probes.
  static size_t block_of(uint64_t h, size_t blocks) { return size_t((unsigned __int128)h * blocks >> 64); }
  template <class F>
  static void for_bits(uint64_t h, unsigned probes, F&& f) {
    uint64_t bits = mix64(h + kGoldenGamma);
    for (unsigned i = 0; i < probes; ++i, bits >>= 9) f(unsigned(bits >> 6) & 7, uint64_t(1) << (bits & 63));
  }
  std::vector<Level> levels_;
};

}  // namespace sgfpat

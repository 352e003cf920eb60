// An exact set of pattern keys per level, for membership tests in loops
// that run once per stored move (the frontier index, docs/nightly.md).
//
// Open addressing over 8-byte keys at most 5/8 full, no values: a test is
// one or two cache lines, where a binary search of a sorted level costs a
// miss per step (about 25 at 25M keys).  Key 0 is kept beside the table
// (0 marks an empty slot).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/hash.h"
#include "core/prefetch.h"

namespace sgfpat {

class KeyHashSet {
 public:
  explicit KeyHashSet(int levels = 0) : levels_(size_t(levels)) {}

  int levels() const { return int(levels_.size()); }
  // Makes room for `n` keys of `level` (1..levels) before they are added.
  void reserve(int level, size_t n);
  // Adds `key` to `level`; repeats are ignored.
  void insert(int level, uint64_t key);
  // Adds every key of `keys` to `level`.
  void insert_all(int level, std::span<const uint64_t> keys) {
    reserve(level, size(level) + keys.size());
    for (uint64_t k : keys) insert(level, k);
  }
  bool contains(int level, uint64_t key) const {
    if (level < 1 || size_t(level) > levels_.size()) return false;
    const Level& lv = levels_[size_t(level - 1)];
    if (key == 0) return lv.has_zero;
    if (lv.slots.empty()) return false;
    for (size_t i = fibonacci_slot(key, lv.bits);; i = (i + 1) & lv.mask) {
      const uint64_t s = lv.slots[i];
      if (s == key) return true;
      if (s == 0) return false;
    }
  }
  // Brings the line where contains(level, key) starts into the cache.
  void prefetch(int level, uint64_t key) const {
    const Level& lv = levels_[size_t(level - 1)];
    if (!lv.slots.empty()) prefetch_line(&lv.slots[fibonacci_slot(key, lv.bits)]);
  }
  size_t size(int level) const { return levels_[size_t(level - 1)].count; }
  size_t size() const;
  size_t bytes() const;
  // Memory a set of `keys` keys in one level takes.
  static size_t bytes_for(size_t keys);

 private:
  struct Level {
    std::vector<uint64_t> slots;  // a power of two
    size_t mask = 0;
    int bits = 0;
    size_t count = 0;  // keys, zero included
    bool has_zero = false;
  };
  static void grow(Level& lv, size_t keys);
  std::vector<Level> levels_;
};

}  // namespace sgfpat

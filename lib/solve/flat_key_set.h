// A set of 64-bit position keys in one flat array (open addressing,
// linear probing): the proof walk inserts tens of millions of them, where
// a node-based set spends an allocation and a cache miss on each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sgfpat::solve {

class FlatKeySet {
 public:
  // True if `key` was not in the set (it is now).
  bool insert(uint64_t key) {
    if (key == 0) {  // 0 marks an empty slot: kept aside
      if (has_zero_) return false;
      has_zero_ = true;
      ++size_;
      return true;
    }
    if (2 * (size_ + 1) > slots_.size()) grow();
    if (!place(slots_, key)) return false;
    ++size_;
    return true;
  }
  size_t size() const { return size_; }

 private:
  // Puts `key` (not 0) into `slots` (a power of two long, never full);
  // false if it was there.
  static bool place(std::vector<uint64_t>& slots, uint64_t key) {
    const size_t mask = slots.size() - 1;
    // Keys are Zobrist hashes, but their low bits may be shared by the
    // positions of one search: mixed before they pick a slot.
    for (size_t i = size_t((key * 0x9e3779b97f4a7c15ull) >> 20) & mask;; i = (i + 1) & mask) {
      if (slots[i] == key) return false;
      if (slots[i] == 0) {
        slots[i] = key;
        return true;
      }
    }
  }
  void grow() {
    std::vector<uint64_t> bigger(slots_.empty() ? 1024 : 2 * slots_.size(), 0);
    for (uint64_t k : slots_)
      if (k) place(bigger, k);
    slots_.swap(bigger);
  }

  std::vector<uint64_t> slots_;
  size_t size_ = 0;
  bool has_zero_ = false;
};

}  // namespace sgfpat::solve

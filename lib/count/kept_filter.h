// "Is this (level, key) counted?" answered from the pass-1 sketch, with a
// small direct-mapped cache in front: the same patterns are asked about
// over and over, and the sketch itself is far out of the CPU caches.
#pragma once
#include <cstdint>
#include <vector>

#include "count/sketch.h"

namespace sgfpat {

class KeptFilter {
 public:
  KeptFilter(const CountMinSketch* sketch, int min_played)
      : sketch_(sketch), min_(unsigned(min_played)), tags_(kSize, 0), kept_(kSize, 0), valid_(kSize, 0) {}

  // True when the sketch says `item` (level_item()) was played >= min_played times.
  bool kept(uint64_t item) {
    size_t i = line(item);
    if (valid_[i] && tags_[i] == item) return kept_[i];
    bool k = sketch_->estimate(item) >= min_;
    tags_[i] = item;
    kept_[i] = k;
    valid_[i] = 1;
    return k;
  }

  // Starts fetching what kept(item) will read.
  void prefetch(uint64_t item) const {
    prefetch_line(&tags_[line(item)]);
    sketch_->prefetch(item);
  }

 private:
  static size_t line(uint64_t item) { return fibonacci_slot(item, kBits); }
  static constexpr int kBits = 16;
  static constexpr size_t kSize = size_t(1) << kBits;
  const CountMinSketch* sketch_;
  unsigned min_;
  std::vector<uint64_t> tags_;
  std::vector<uint8_t> kept_, valid_;
};

}  // namespace sgfpat

// Whole-board hashes equal for positions equal up to the board's 8
// symmetries and the exchange of colours: the key of the position index.
//
// A PositionHasher follows a board stone by stone and keeps one Zobrist
// hash per transform (symmetries.h), each updated by one XOR when a stone
// comes or goes; the canonical hash is the smallest of the 16, and the
// transform reaching it says how the position maps to its canonical form.
// Hashes depend on the board size; they are fixed (stored on disk).
#pragma once
#include <array>
#include <cstdint>

#include "core/types.h"
#include "search/symmetry.h"

namespace sgfpat {

class PositionHasher {
 public:
  explicit PositionHasher(int size = 19) { reset(size); }
  // An empty board of `size` (2..25).
  void reset(int size);
  int size() const { return size_; }
  // The stone at p changes from `from` to `to` (either may be Empty).
  void change(Point p, Color from, Color to) {
    const int pt = p.y * size_ + p.x;
    if (from != Color::Empty) toggle(pt, from);
    if (to != Color::Empty) toggle(pt, to);
  }
  // Hash of the position seen through transform t.
  uint64_t hash(int t) const { return hashes_[size_t(t)]; }
  // The smallest of the 16 hashes; *transform (if given) gets the first
  // transform reaching it.
  uint64_t canonical(int* transform = nullptr) const;

 private:
  void toggle(int pt, Color c) {
    const uint64_t* w = &(*words_)[size_t(pt)][size_t(int(c) - 1)][0];
    for (int t = 0; t < kTransforms; ++t) hashes_[size_t(t)] ^= w[t];
  }
  // words[pt][colour-1][t]: the word XORed into hash t by that stone.
  using Words = std::array<std::array<std::array<uint64_t, kTransforms>, 2>, kMaxBoardSize * kMaxBoardSize>;
  const Words* words_ = nullptr;
  int size_ = 19;
  std::array<uint64_t, kTransforms> hashes_{};
};

}  // namespace sgfpat

// The chains of one colour with their liberties, kept up to date stone by
// stone.  The tactical searches (tactics.h) ask the same questions of many
// positions that differ from one another by a stone or two (a threat's
// candidate moves, a ladder's plies): deriving the chains from the last
// position's costs a few bit operations where finding them again costs a
// flood fill per chain, and the flood fills were most of those searches.
#pragma once
#include <cstdint>

#include "solve/atari_board.h"

namespace sgfpat::solve {

template <class W>
class ChainSet {
 public:
  // One colour holds at most 41 chains on 9x9 (a checkerboard's 41 stones).
  static constexpr int kCapacity = 48;

  ChainSet() = default;
  ChainSet(const ChainSet& o) { *this = o; }
  // Copies only the chains in use (the arrays are mostly spare room).
  ChainSet& operator=(const ChainSet& o) {
    n_ = o.n_;
    for (int i = 0; i < n_; ++i) stones_[i] = o.stones_[i], libs_[i] = o.libs_[i];
    return *this;
  }

  // The chains of `stones`, their liberties among `empty`.
  void build(const Geometry& g, W stones, W empty) {
    n_ = 0;
    for (W s = stones; s;) {
      const W ch = g.chain(s, lowest(s));
      s &= ~ch;
      stones_[n_] = ch;
      libs_[n_++] = g.neighbours(ch) & empty;
    }
  }

  int size() const { return n_; }
  W stones(int i) const { return stones_[i]; }
  W libs(int i) const { return libs_[i]; }

  // The chain in atari with the lowest stone, or -1 when none is: the
  // answer must not depend on the order the chains are kept in.
  int lowest_in_atari() const {
    int at = -1;
    for (int i = 0; i < n_; ++i)
      if (popcount(libs_[i]) == 1 && (at < 0 || lowest(stones_[i]) < lowest(stones_[at]))) at = i;
    return at;
  }
  // The liberties of the chains that have at most `k`.
  W short_libs(int k) const {
    W out = 0;
    for (int i = 0; i < n_; ++i)
      if (popcount(libs_[i]) <= k) out |= libs_[i];
    return out;
  }
  // The liberties of the chain a stone of this colour on empty point p
  // would form (`around`: p's neighbours; `empty_after`: the empty points
  // once it is played).
  W libs_after_stone(int p, W around, W empty_after) const {
    W l = around & empty_after;
    for (int i = 0; i < n_; ++i)
      if (stones_[i] & around) l |= libs_[i];
    return l & ~bit_of<W>(p);
  }
  // A stone of this colour on empty point p: the chains next to it join it.
  void add_stone(int p, W around, W empty_after) {
    W ch = bit_of<W>(p), l = around & empty_after;
    int k = 0;
    for (int i = 0; i < n_; ++i) {
      if (stones_[i] & around) {
        ch |= stones_[i];
        l |= libs_[i];
      } else {
        stones_[k] = stones_[i];
        libs_[k++] = libs_[i];
      }
    }
    stones_[k] = ch;
    libs_[k] = l & ~bit_of<W>(p);
    n_ = k + 1;
  }
  // A stone of the other colour on p: the chains next to it lose a liberty.
  void take_liberty(int p) {
    const W b = ~bit_of<W>(p);
    for (int i = 0; i < n_; ++i) libs_[i] &= b;
  }

 private:
  int n_ = 0;
  W stones_[kCapacity];
  W libs_[kCapacity];
};

// A position's empty points and the chains of both sides.
template <class W>
struct PositionChains {
  W empty;
  ChainSet<W> mine, theirs;
  PositionChains(const Geometry& g, W m, W t) : empty(g.board_as<W>() & ~(m | t)) {
    mine.build(g, m, empty);
    theirs.build(g, t, empty);
  }
};

}  // namespace sgfpat::solve

// Incrementally maintained pattern keys of every point of one board.
//
// For every center c, ring d and symmetry s the tracker keeps the XOR of
// the Zobrist words of ring d's points, from Black's point of view (Black
// stones are "own").  A stone change at q touches only ring |q - c| of the
// centers within distance L of q.  The level-i key is the XOR of rings
// 1..i, minimized over symmetries; White's view is swap_halves() of Black's
// (see key_scheme.h).  key() always equals pattern_key(spell_pattern(...)).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "board/board.h"
#include "pattern/key_scheme.h"

namespace sgfpat {

class PatternTracker {
 public:
  explicit PatternTracker(const KeyScheme& scheme, int board_size = 19);

  // Back to an empty board of the given size.
  void reset(int board_size);
  const KeyScheme& scheme() const { return scheme_; }

  // Point `idx` (a Board index for this size) now holds `c`.
  void set(int idx, Color c);
  // Mirrors the last Board::play(): the stone at idx and board.last_removed().
  void after_play(const Board& board, int idx);

  // Key of the level-`level` pattern around idx for `mover` to play.
  uint64_t key(int idx, int level, Color mover) const;

  // A walk up the levels of one point that can be paused between levels.
  struct Cursor {
    uint64_t acc[8] = {};
    int level = 0;  // levels folded in so far
  };
  // Folds the next level of idx into `c` and returns that level's key for
  // `mover` (c->level must be below the scheme's L).
  uint64_t next_key(int idx, Color mover, Cursor* c) const {
    fold(idx, c);
    return canonical(c->acc, mover == Color::White);
  }
  // The same without computing the key.
  void fold(int idx, Cursor* c) const {
    const uint64_t* ring = &rings_[(size_t(idx) * size_t(levels_) + size_t(c->level)) * 8];
    for (int s = 0; s < 8; ++s) c->acc[s] ^= ring[s];
    ++c->level;
  }

  // Calls visit(level, key) for level = 1, 2, ... up to max_level (or the
  // scheme's L if 0) and stops early when visit returns false.  Returns the
  // last level visited.
  template <class Visit>
  int walk(int idx, Color mover, Visit&& visit, int max_level = 0) const {
    const int top = max_level > 0 ? std::min(max_level, levels_) : levels_;
    const uint64_t* ring = &rings_[size_t(idx) * levels_ * 8];
    uint64_t acc[8] = {};
    const bool white = mover == Color::White;
    for (int level = 1; level <= top; ++level, ring += 8) {
      for (int s = 0; s < 8; ++s) acc[s] ^= ring[s];
      uint64_t k = canonical(acc, white);
      if (!visit(level, k)) return level;
    }
    return top;
  }

 private:
  uint64_t canonical(const uint64_t* acc, bool white) const {
    if (!scheme_.symmetry) return white ? swap_halves(acc[0]) : acc[0];
    uint64_t m = acc[0];
    for (int s = 1; s < 8; ++s) m = std::min(m, acc[s]);
    if (!white) return m;
    // swap_halves is not monotone: take the min of the swapped words.
    uint64_t w = swap_halves(acc[0]);
    for (int s = 1; s < 8; ++s) w = std::min(w, swap_halves(acc[s]));
    return w;
  }
  void apply(int idx, PState from, PState to);

  KeyScheme scheme_;
  int levels_;
  int size_ = 0;
  int stride_ = 0;
  const ZobristTable* z_;
  std::vector<uint64_t> rings_;  // [idx][ring-1][symmetry]
  std::vector<uint64_t> empty_rings_;  // rings_ of the empty board of size_
  int empty_size_ = 0;
  std::vector<uint8_t> color_;   // the tracker's copy of the board
  // Offsets of the level-L diamond as (dx, dy, ring), for updates.
  std::vector<Offset> offsets_;
  std::vector<int> ring_of_;  // ring - 1 of each offset
};

}  // namespace sgfpat

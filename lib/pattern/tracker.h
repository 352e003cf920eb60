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
  // Keeps only rings 1..n up to date as stones change (n >= 1; default all
  // of them) and spells the rings above n from the board whenever a walk
  // reaches them: a stone change then costs the updates of n rings instead
  // of L, and a walk past level n the points of its rings.  Worth it where
  // most walks stop low (the sketch pass walks one point a move).  Call it
  // on an empty board (before a game).
  void set_incremental_rings(int n) { incremental_ = std::clamp(n, 1, levels_); }
  const KeyScheme& scheme() const { return scheme_; }

  // What the stones of a board set in the tracker, saved and restored as a
  // whole (a game that starts where another one was).
  struct State {
    std::vector<uint64_t> rings;
    std::vector<uint8_t> stones;
    int size = 0;
  };
  void save(State* s) const {
    s->rings = rings_;
    s->stones = stones_;
    s->size = size_;
  }
  // The tracker as it was at save(), whatever it holds now.
  void restore(const State& s);
  // The same, leaving `s` with what the tracker held (no copy).
  void take(State* s);

  // Point `idx` (a Board index for this size) now holds `c`.
  void set(int idx, Color c);
  // Mirrors the last Board::play(): the stone at idx and board.last_removed().
  void after_play(const Board& board, int idx);

  // Key of the level-`level` pattern around idx for `mover` to play.  Here
  // and in next_key(), fold() and walk(), idx is an on-board point (the
  // rings above the kept ones are spelled without bounds checks).
  uint64_t key(int idx, int level, Color mover) const;

  // A walk up the levels of one point that can be paused between levels.
  struct Cursor {
    uint64_t acc[8] = {};
    int level = 0;  // levels folded in so far
  };
  // Folds the next level of idx into `c` and returns that level's key for
  // `mover` (c->level must be below the scheme's L).
  [[gnu::always_inline]] uint64_t next_key(int idx, Color mover, Cursor* c) const {
    fold(idx, c);
    return canonical(c->acc, mover == Color::White);
  }
  // The same without computing the key.
  [[gnu::always_inline]] void fold(int idx, Cursor* c) const {
    uint64_t spelled[8];
    const uint64_t* ring = ring_words(idx, c->level + 1, spelled);
    for (int s = 0; s < 8; ++s) c->acc[s] ^= ring[s];
    ++c->level;
  }

  // Calls visit(level, key) for level = 1, 2, ... up to max_level (or the
  // scheme's L if 0) and stops early when visit returns false.  Returns the
  // last level visited.
  template <class Visit>
  int walk(int idx, Color mover, Visit&& visit, int max_level = 0) const {
    const int top = max_level > 0 ? std::min(max_level, levels_) : levels_;
    uint64_t acc[8] = {}, spelled[8];
    const bool white = mover == Color::White;
    for (int level = 1; level <= top; ++level) {
      const uint64_t* ring = ring_words(idx, level, spelled);
      for (int s = 0; s < 8; ++s) acc[s] ^= ring[s];
      uint64_t k = canonical(acc, white);
      if (!visit(level, k)) return level;
    }
    return top;
  }

 private:
  // Inlined by force (as next_key() and fold()): a walk computes one at
  // every level it looks up, and GCC's heuristics dropped them from a
  // grown caller (~7% of pass 2).
  [[gnu::always_inline]] uint64_t canonical(const uint64_t* acc, bool white) const {
    if (!scheme_.symmetry) return white ? swap_halves(acc[0]) : acc[0];
    // swap_halves is not monotone: White takes the min of the swapped
    // words.  A tree of mins, not a chain: three compares deep instead of
    // seven (a walk computes a key at every level it looks up).
    uint64_t v[8];
    for (int s = 0; s < 8; ++s) v[s] = white ? swap_halves(acc[s]) : acc[s];
    return std::min(std::min(std::min(v[0], v[1]), std::min(v[2], v[3])),
                    std::min(std::min(v[4], v[5]), std::min(v[6], v[7])));
  }
  void apply(int idx, PState from, PState to);
  // The words of ring `ring` around idx: kept ones, or spelled into `buf`.
  const uint64_t* ring_words(int idx, int ring, uint64_t* buf) const {
    const uint64_t* kept = &rings_[(size_t(idx) * size_t(levels_) + size_t(ring - 1)) * 8];
    if (ring <= incremental_) return kept;
    spell_ring(idx, ring, kept, buf);
    return buf;
  }
  // `empty`: the ring's words on the empty board (the off-board points).
  void spell_ring(int idx, int ring, const uint64_t* empty, uint64_t* out) const;

  KeyScheme scheme_;
  int levels_;
  int incremental_;  // rings kept up to date
  int size_ = 0;
  int stride_ = 0;
  const ZobristTable* z_;
  std::vector<uint64_t> rings_;  // [idx][ring-1][symmetry]
  std::vector<uint64_t> empty_rings_;  // rings_ of the empty board of size_
  int empty_size_ = 0;
  // The tracker's copy of the board, with a margin of L points on every
  // side so that a ring is spelled without bounds checks or branches on
  // the colours (which a predictor cannot guess): 0 empty or off-board
  // (both already in the empty board's words), 1 Black, 2 White.
  std::vector<uint8_t> stones_;
  int wide_ = 0;                  // row length of stones_
  std::vector<int32_t> wide_off_;  // offset o as an index step in stones_
  // Offsets of the level-L diamond as (dx, dy, ring), for updates.
  std::vector<Offset> offsets_;
  std::vector<int> offset_at_;  // [(dy + L) * (2L + 1) + dx + L]: offset index, or -1
};

}  // namespace sgfpat

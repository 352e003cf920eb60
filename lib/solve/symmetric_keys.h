// Zobrist keys of a position under every symmetry of its board, so that the
// transposition table holds one entry for a position and all its mirror
// images (the empty 6x6 board has 8 of them): the table's key is the
// smallest of the images' keys, the canonical key.  A move stored with an
// entry is in the coordinates of the image that gave that key (its frame)
// and is mapped back through the same symmetry when read.
#pragma once
#include <algorithm>
#include <cstdint>

#include "solve/atari_board.h"

namespace sgfpat::solve {

// One key per symmetry of the board, [0] being the identity (the plain
// position_key).
struct KeySet {
  uint64_t k[8];
};

class BoardSymmetries {
 public:
  // All symmetries of the board (8 on a square board, 4 otherwise), or the
  // identity alone when `enabled` is false.
  BoardSymmetries(const Geometry& g, bool enabled = true);

  int count() const { return n_; }
  // Where symmetry s sends point p, and the point it sends to p.
  int image(int s, int p) const { return perm_[s][p]; }
  int preimage(int s, int p) const { return inv_[s][p]; }
  // The image of a whole position under symmetry s.
  Position image(int s, const Position& pos) const;

  KeySet keys(const Position& pos) const;
  // The keys after `mover` puts a stone on p (the other side to move).
  KeySet after(const KeySet& ks, Color mover, int p) const {
    KeySet out;
    const uint64_t* z = step_[mover == Color::Black ? 0 : 1][p];
    for (int s = 0; s < n_; ++s) out.k[s] = ks.k[s] ^ z[s];
    return out;
  }
  // The canonical key after `mover` puts a stone on p (a child's table
  // key, without its frame): a node computes one for each of its moves.
  uint64_t canonical_after(const KeySet& ks, Color mover, int p) const {
    const uint64_t* z = step_[mover == Color::Black ? 0 : 1][p];
    uint64_t best = ks.k[0] ^ z[0];
    for (int s = 1; s < n_; ++s) best = std::min(best, ks.k[s] ^ z[s]);
    return best;
  }
  // The smallest key; *frame gets the symmetry that gives it.
  uint64_t canonical(const KeySet& ks, int* frame) const {
    uint64_t best = ks.k[0];
    *frame = 0;
    for (int s = 1; s < n_; ++s)
      if (ks.k[s] < best) {
        best = ks.k[s];
        *frame = s;
      }
    return best;
  }

 private:
  static constexpr int kPoints = 128;
  int n_ = 0;
  int8_t perm_[8][kPoints];
  int8_t inv_[8][kPoints];
  // step_[colour][p][s]: what a stone on p changes in key s (side to move included).
  uint64_t step_[2][kPoints][8] = {};
};

}  // namespace sgfpat::solve

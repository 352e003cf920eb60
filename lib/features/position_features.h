// The tactical features of candidate moves (definitions: "The learned model"
// in priors/sgfpat_priors.h, which computes them from a board array so that
// engines need no more than that header), fed from the rules engine's Board.
#pragma once
#include "board/board.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat {

// The last two moves before a position (kPass: none, or a pass).
struct RecentMoves {
  Point last = kPass;
  Point before_last = kPass;
  // The position after `move` was played (a pass too).
  void push(Point move) {
    before_last = last;
    last = move;
  }
};

// A board point as the feature helper numbers it: y * size + x (-1 for a pass).
inline int feature_point(Point p, int size) { return p.is_pass() ? -1 : p.y * size + p.x; }

// Labels the chains of `board` for `mover` to play, after `recent`.
void setup_tactics(const Board& board, Color mover, const RecentMoves& recent, sgfpat_priors::Tactics* tactics);

}  // namespace sgfpat

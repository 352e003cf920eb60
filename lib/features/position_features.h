// The features of candidate moves, fed from the rules engine's Board.  Their
// definitions and their one implementation are priors/sgfpat_features.h,
// the header engines copy beside the priors reader: sgfpat computes them
// with it too, so that an engine and sgfpat cannot disagree.
#pragma once
#include "board/board.h"
#include "priors/sgfpat_features.h"
#include "sgf/game.h"

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

// The moves of a record that lead to the position after its first
// `moves_played` moves (passes included; setup stones are not moves).
RecentMoves recent_moves(const Game& game, int moves_played);

// A board point as the feature helper numbers it: y * size + x (-1 for a pass).
inline int feature_point(Point p, int size) { return p.is_pass() ? -1 : p.y * size + p.x; }

// Labels the chains of `board` for `mover` to play, after `recent`.
void setup_tactics(const Board& board, Color mover, const RecentMoves& recent, sgfpat_priors::Tactics* tactics);

}  // namespace sgfpat

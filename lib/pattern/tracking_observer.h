// A replay observer that keeps a PatternTracker in step with the board:
// derive from it and override before_move() to use the keys of a position.
#pragma once
#include "board/replay.h"
#include "pattern/tracker.h"

namespace sgfpat {

class TrackingObserver : public ReplayObserver {
 public:
  explicit TrackingObserver(const KeyScheme& scheme) : tracker(scheme) {}
  // Call before replaying a game on a board of this size.
  void start_game(int board_size) { tracker.reset(board_size); }
  void start_game(const Game& game) { start_game(game.info.size); }
  void after_change(const Board& board, int idx, Color) override { tracker.after_play(board, idx); }

  PatternTracker tracker;
};

}  // namespace sgfpat

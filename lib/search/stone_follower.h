// A replay observer that reports every stone that comes or goes, with the
// colour before and after, so that anything kept in step with a position
// (hashes, distances) is updated by differences only.
#pragma once
#include <array>

#include "board/replay.h"

namespace sgfpat {

class StoneFollower : public ReplayObserver {
 public:
  // A new game on an empty board of `size`.
  void start(int size) {
    colour_.fill(uint8_t(Color::Empty));
    size_ = size;
  }
  void after_change(const Board& board, int idx, Color) override {
    sync(board, idx);
    // Captures of a play; after a setup the list is an older play's, which
    // sync() finds already in step.
    for (int r : board.last_removed()) sync(board, r);
  }

 protected:
  // Point p (x, y) changes from `from` to `to`.
  virtual void on_stone(Point p, Color from, Color to) = 0;
  int size_ = 19;

 private:
  void sync(const Board& board, int idx) {
    const Color now = board.at_index(idx);
    const Color was = Color(colour_[size_t(idx)]);
    if (now == was) return;
    colour_[size_t(idx)] = uint8_t(now);
    on_stone(board.point(idx), was, now);
  }
  std::array<uint8_t, Board::kMaxIndex> colour_{};
};

}  // namespace sgfpat

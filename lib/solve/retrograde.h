// Strong solution of atari-go on small boards by retrograde analysis.
//
// Every move adds a stone, so a position's successors all hold one stone
// more and the game graph has no cycle.  Numbering positions in base 3 (digit
// 0 empty, 1 black, 2 white, point y * width + x worth 3^point), a successor
// always has a larger number.  One sweep from the largest number down to 0
// therefore meets every position after all its successors: the positions
// where the mover captures (or has no legal move) are the base of the
// attractor, and each sweep step adds the positions all of whose successors
// are decided.  The result is the exact value of every position: win or
// loss for the side to move, and the distance to the end in plies (the
// winner playing to end soonest, the loser to last).
//
// A position is in the table when it could arise in a game from the empty
// board as far as counts go (as many black stones as white with Black to
// move, one more with White to move) and no chain is without liberties.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/status.h"
#include "solve/atari_board.h"

namespace sgfpat::solve {

struct TableValue {
  bool win = false;  // for the side to move
  int distance = 0;  // plies to the end: the capture, or 0 if the mover has no legal move
};

// The base-3 number of pos on g, and the side to move a game from the empty
// board would have there (Empty if the stone counts cannot arise).
uint64_t table_index(const Geometry& g, const Position& pos);
Color table_side(const Position& pos);

class RetroTable {
 public:
  static constexpr int kMaxPoints = 20;  // 3^20 cells of one byte: 3.5 GB

  // Builds the table of a width x height board (width * height <= kMaxPoints).
  // progress(done, total) is called now and then if given.
  static Status build(int width, int height, RetroTable* out,
                      const std::function<void(uint64_t, uint64_t)>& progress = {});

  const Geometry& geometry() const { return g_; }
  // The side to move the table assumes for pos (by stone counts), or Empty
  // if pos is not in the table.
  Color side_to_move(const Position& pos) const { return table_side(pos); }
  uint64_t index(const Position& pos) const { return table_index(g_, pos); }
  // The value of pos (its side to move must be side_to_move(pos)); false if
  // pos is not in the table.
  bool lookup(const Position& pos, TableValue* v) const;
  bool lookup_index(uint64_t index, TableValue* v) const { return decode(cells_[index], v); }
  uint64_t cells() const { return cells_.size(); }
  uint64_t positions() const { return positions_; }
  uint64_t wins() const { return wins_; }

  // Cell byte: 0 = not in the table, else 0x80 | win << 6 | distance.
  static bool decode(uint8_t cell, TableValue* v) {
    if (!(cell & 0x80)) return false;
    v->win = cell & 0x40;
    v->distance = cell & 0x3f;
    return true;
  }
  uint8_t cell(uint64_t index) const { return cells_[index]; }
  // Rebuilds the position of a cell number, with its side to move.
  Position position(uint64_t index) const;

 private:
  Geometry g_;
  std::vector<uint8_t> cells_;
  uint64_t positions_ = 0;
  uint64_t wins_ = 0;
};

}  // namespace sgfpat::solve

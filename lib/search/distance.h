// The distance between two positions of one board size, used by the
// nearest-position search:
//
//   d(q, p) = sum over points x of w(x) * [q(x) != p(x)]
//
// where q(x), p(x) are empty, the player to move's stone or the opponent's
// (colours are taken relative to the player to move, so a position where
// White is to move is compared with the query's colours exchanged), and the
// weight w(x) is 0 outside the region searched, else 1 + max(0, R - m(x))
// with m(x) the Manhattan distance from x to the query's last move and R
// the "near last move" radius (0: every weight is 1).  A stored position's
// distance is the smallest over the 8 symmetries of the board.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "board/board.h"
#include "core/status.h"

namespace sgfpat {

// A query: a position, the player to move, and the weight of each point
// (index y * size + x).
struct DistanceQuery {
  Board board;
  Color to_move = Color::Black;
  std::vector<uint8_t> weight;  // board.size()^2 entries
};

// Weights of a region (all points when `region` is empty) with points near
// `last` (kPass: none) weighted up to 1 + radius.
//   region: "tl", "tr", "bl", "br" (the corner's 10x10 on 19x19:
//   size/2 + 1 lines), or a rectangle of two corners "D4:K10" (GTP or SGF).
Status make_weights(int size, const std::string& region, Point last, int radius, std::vector<uint8_t>* weight);

// The distance from scratch (the reference for the incremental scan):
// the smallest over the symmetries of `stored` (to move: `mover`); *sym
// gets the first symmetry reaching it (stored point p is query point sym(p)).
int position_distance(const DistanceQuery& q, const Board& stored, Color mover, int* sym = nullptr);

}  // namespace sgfpat

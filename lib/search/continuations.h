// What was played next in a set of found positions, and how it turned out
// for the player who played it: the continuation table Kombilo shows.
#pragma once
#include <cstdint>
#include <vector>

#include "board/board.h"
#include "search/position_hit.h"

namespace sgfpat {

struct Continuation {
  Point move = kPass;   // in the query's orientation (kPass: a pass)
  uint64_t count = 0;   // hits that continued with it
  uint64_t wins = 0;    // of those, games the player to move won
};

// The hits' next moves grouped, most played first (then more wins, then
// point order).  Moves the query position's own symmetries map onto each
// other are one move, shown at the first of them in point order (on an
// empty board the four 4-4 points are one).  Hits without a next move
// (the end of a game) are left out.
std::vector<Continuation> continuations(const std::vector<PositionHit>& hits, const Board& query);

// The symmetries that leave `board` unchanged (the identity included).
std::vector<int> board_stabilizer(const Board& board);

}  // namespace sgfpat

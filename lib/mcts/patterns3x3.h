// The 3x3 shapes a playout answers near the last move (the hane, cut and
// edge patterns of MoGo, as michi and Pachi use them): a move at an empty
// point is "urgent" when its eight neighbours match one of them under any
// rotation, reflection or swap of the colours.
#pragma once
#include "board/board.h"

namespace sgfpat::mcts {

// The code of the eight neighbours of `idx` (2 bits each: Empty, Black,
// White, OffBoard; row by row from the top left, the centre left out).
inline int neighbourhood_code(const Board& b, int idx) {
  const int s = b.stride();
  const int at[8] = {idx - s - 1, idx - s, idx - s + 1, idx - 1, idx + 1, idx + s - 1, idx + s, idx + s + 1};
  int code = 0;
  for (int k = 0; k < 8; ++k) code |= int(b.at_index(at[k])) << (2 * k);
  return code;
}

// True when the neighbourhood `code` matches one of the patterns.
bool matches_pattern3x3(int code);

// The same for the empty point `idx` of `b`.
inline bool is_pattern3x3_move(const Board& b, int idx) { return matches_pattern3x3(neighbourhood_code(b, idx)); }

}  // namespace sgfpat::mcts

// The position dialogue of `sgfpat suggest` (the teaching material's): what
// the command line leaves out of a position, and the iteration budget, is
// asked on an input stream, in this order and with these prompts:
//
//   Joueur? Noir                  player to move: Noir/Blanc, B/W, Black/White
//   Taille? 3                     board size n (not asked when rows are given)
//   Goban: . . .                  n rows ('.' empty; N/B after Noir/Blanc,
//          . B .                   X/O otherwise; spaces ignored)
//          . . .
//   Budget d'itérations? 10000
//
// An answer may repeat its prompt ("Joueur? Noir"), and blank lines are
// skipped.  The position itself is then read by parse_position_text().
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "board/position_text.h"
#include "core/status.h"

namespace sgfpat {

// What was given already; empty or 0: ask for it.
struct PositionGiven {
  std::string player;
  int size = 0;       // 0: the number of rows given, else asked
  std::string rows;   // one string, rows separated by '/', '|' or newlines
  bool budget_wanted = false;  // ask for the iteration budget when `budget` is not positive
  int64_t budget = 0;
};

// The rows of a one-string board: split at '/', '|' and newlines, each
// trimmed, empty ones dropped.
std::vector<std::string> split_board_rows(const std::string& rows);

// Completes `given` from `in`, writing the prompts to `prompts` (with the
// answer after each when `echo`: a piped session then prints the same
// transcript as a typed one), and reads the position.  InvalidInput naming
// what was missing or wrong: no player, a word that is no player, no or a
// bad board size, too few rows, no positive budget, a bad row.  *budget is
// given.budget or the answer (untouched when not wanted).
Status read_position_dialogue(const PositionGiven& given, std::istream& in, std::ostream& prompts, bool echo,
                              TextPosition* position, int64_t* budget);

}  // namespace sgfpat

// Printing boards: the spec's machine form and a form for people.
#pragma once
#include <string>

#include "board/board.h"

namespace sgfpat::cli {

// SZ rows of SZ chars, top row first: '.', 'X' black, 'O' white.
std::string board_text(const Board& board);

// Coordinates, stones, last move in parentheses, optional marks ('a'..)
// on points; marks[idx] == 0 means none.
std::string board_pretty(const Board& board, Point last_move, const std::string& marks = "");

}  // namespace sgfpat::cli

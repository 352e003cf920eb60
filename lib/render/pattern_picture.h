// What a drawing of a pattern needs: the points of a diamond on a board (to
// dim the rest), and a pattern string laid out as a small board.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "board/board.h"
#include "core/status.h"

namespace sgfpat {

// The mask of SvgOptions::inside for the level-`level` diamond around
// `center` on a board of `size` (the centre included).
std::vector<uint8_t> diamond_mask(int size, Point center, int level);

// A pattern string (pattern_string.h: X = the player to move, drawn black;
// O = the opponent, white; # = off the board, dimmed) laid out around the
// centre of a board of 2 * level + 1 points, or of kMaxBoardSize points when
// that is smaller (the outer rings are then left out).  InvalidInput if the
// string is not a pattern.
Status pattern_board(std::string_view pattern, Board* board, Point* center, std::vector<uint8_t>* inside);

}  // namespace sgfpat

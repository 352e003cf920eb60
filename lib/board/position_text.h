// Positions as plain text, the form used in Go teaching material:
//
//   B            (player to move: B/W, Black/White, or French Noir/Blanc)
//   9            (board size)
//   .........    (size rows, top first: '.' or '+' empty; X black, O white;
//   ...          with a French player line N (noir) black, B (blanc) white)
//
// Spaces inside rows are ignored, and a prompt word ending in '?' or ':'
// before a value ("Joueur? Noir", "Goban: . . .") is skipped.
#pragma once
#include <cstddef>
#include <string>

#include "board/board.h"
#include "core/status.h"

namespace sgfpat {

struct TextPosition {
  Board board;
  Color to_move = Color::Black;
  bool french = false;
};

Status parse_position_text(const std::string& text, TextPosition* out);

// The most text a position is read from (stdin): a 25x25 board with its
// player and size lines and generous comments fits many times over.
inline constexpr size_t kMaxPositionText = size_t(1) << 20;

// Parses a player word: B/W/Black/White/Noir/Blanc (any case).
bool parse_player(const std::string& word, Color* color, bool* french);

}  // namespace sgfpat

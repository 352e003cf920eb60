// Writing a game record as SGF (FF[4]): the root's metadata and the main
// line, so that parse_game() of the text gives back the same GameInfo
// fields it writes and the same actions.
#pragma once
#include <string>

#include "sgf/game.h"

namespace sgfpat {

// The SGF text of `game`: GM, FF, CA, SZ, KM and, when not empty, HA, RU,
// PB, PW, BR, WR, DT, GN, RE in the root; setup stones as AE/AB/AW (a node
// holds them in that order, as the parser reads them), PL, moves as B[]/W[]
// (a pass: empty value).  Text values are escaped (\ and ]).  Ends with a
// newline.
std::string write_sgf(const Game& game);

}  // namespace sgfpat

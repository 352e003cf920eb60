// SGF (FF[1]..FF[4]) game tree parser: one pass over the text, no
// allocation per character.
#pragma once
#include <string_view>

#include "core/status.h"
#include "sgf/game.h"

namespace sgfpat {

// Parses one game tree "(;...)" into `game`: root metadata and the main line
// (first variation at every node).  Clears game->info and game->actions,
// keeps game->origin.  On error says where ("root", "move N", or "syntax
// error at byte N") and why; `game` then holds what was parsed so far.
Status parse_game(std::string_view text, Game* game);

}  // namespace sgfpat

// Picking one game of an input (`--sgf FILE --game K`), shared by board,
// query, eval (the position in it, `--move N`: position_after() of
// board/replay.h).
#pragma once
#include <string>

#include "board/replay.h"
#include "core/status.h"
#include "sgf/game.h"

namespace sgfpat::cli {

// Reads game number `game_number` (1-based) of `input`.
Status load_game(const std::string& input, int game_number, Game* game);

}  // namespace sgfpat::cli

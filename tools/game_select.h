// Picking one game of an input (`--sgf FILE --game K`) and a position in it
// (`--move N`), shared by board, query, eval.
#pragma once
#include <string>

#include "board/replay.h"
#include "core/status.h"
#include "sgf/game.h"

namespace sgfpat::cli {

// Reads game number `game_number` (1-based) of `input`.
Status load_game(const std::string& input, int game_number, Game* game);

// Replays `game` up to `moves` moves (-1: all); says who moves next.
Status position_after(const Game& game, int moves, Board* board, ReplayResult* result);

}  // namespace sgfpat::cli

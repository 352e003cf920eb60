// Replaying a game as the database stores it: decode, start the observer,
// replay.  Every pass over the stored games goes through here, so a damaged
// record or an illegal stored move is reported the same way everywhere.
#pragma once
#include <string_view>

#include "board/replay.h"
#include "core/status.h"
#include "store/game_record.h"

namespace sgfpat {

// Scratch state reused from one stored game to the next.
struct StoredGame {
  Game game;
  Board board;
  ReplayResult result;
};

// Decodes `record` into g->game, calls observer->start_game(g->game), then
// replays the whole game on g->board with `observer`.  Errors start with
// "stored game": an undecodable record ("stored game: corrupt game record"),
// an illegal move naming the game's origin ("stored game <origin>: move N").  The observer type
// only needs start_game(const Game&) beside the ReplayObserver hooks.
template <class Observer>
Status replay_stored(std::string_view record, StoredGame* g, Observer* observer) {
  Status st = decode_game(record, &g->game);
  if (!st.ok()) return st.with_context("stored game");
  observer->start_game(g->game);
  g->result = ReplayResult{};
  st = replay(g->game, &g->board, &g->result, observer);
  // An illegal move in a stored game: it was checked when stored.
  if (!st.ok()) return Status::Corruption("stored game " + g->game.origin.describe() + ": " + st.message());
  return Status::OK();
}

}  // namespace sgfpat

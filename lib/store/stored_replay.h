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

// Decodes a stored `record`; an undecodable one is "stored game: corrupt
// game record".
inline Status decode_stored(std::string_view record, Game* game) {
  Status st = decode_game(record, game);
  return st.ok() ? st : st.with_context("stored game");
}

// Replays a decoded stored `game` on `board` with `observer` (started
// already).  An illegal move was checked when the game was stored, so it
// is damage: "stored game <origin>: move N".  With max_moves >= 0 the
// replay stops after that many moves.
template <class Observer>
Status replay_decoded(const Game& game, Board* board, ReplayResult* result, Observer* observer,
                      int max_moves = -1) {
  *result = ReplayResult{};
  Status st = replay(game, board, result, observer, max_moves);
  if (!st.ok()) return Status::Corruption("stored game " + game.origin.describe() + ": " + st.message());
  return Status::OK();
}

// Decodes `record` into g->game, calls observer->start_game(g->game), then
// replays the game on g->board with `observer` (both as above; the whole
// game unless max_moves >= 0).  The observer type only needs
// start_game(const Game&) beside the ReplayObserver hooks.
template <class Observer>
Status replay_stored(std::string_view record, StoredGame* g, Observer* observer, int max_moves = -1) {
  Status st = decode_stored(record, &g->game);
  if (!st.ok()) return st;
  observer->start_game(g->game);
  return replay_decoded(g->game, &g->board, &g->result, observer, max_moves);
}

}  // namespace sgfpat

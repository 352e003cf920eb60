// Replays a game record's main line on a Board with the rules of the
// contract (docs/patterns.md): an illegal move rejects the record.
#pragma once
#include <string>

#include "board/board.h"
#include "core/status.h"
#include "sgf/game.h"

namespace sgfpat {

// Called around every Play action of a replay.  Default: do nothing.
class ReplayObserver {
 public:
  virtual ~ReplayObserver() = default;
  // Before move `number` (1-based) by `mover` at `move` (kPass for a pass),
  // with the board as it stands before it.
  virtual void before_move(const Board& /*board*/, Color /*mover*/, Point /*move*/, int /*number*/) {}
  // After a stone was placed at `idx` by play() (board.last_removed() lists
  // the stones it removed) or set by a setup action (color may be Empty).
  virtual void after_change(const Board& /*board*/, int /*idx*/, Color /*now*/) {}
};

struct ReplayResult {
  int moves_played = 0;       // Play actions applied, passes included
  int superko_repeats = 0;    // moves that recreated an earlier position
  Color to_move = Color::Black;  // who moves next
  // Why the replay stopped at an illegal move (None when it did not), and
  // that move's number (1-based), colour and point.
  MoveError illegal = MoveError::None;
  int illegal_number = 0;
  Color illegal_color = Color::Empty;
  Point illegal_point = kPass;
};

// Replays `game` on a fresh board (resized to game.info.size) until the end,
// or until `max_moves` Play actions were applied (-1: all).  An illegal move
// returns InvalidInput "move N (B Q16): suicide", sets result->illegal and
// the fields beside it, and leaves the board as it was before that move.
Status replay(const Game& game, Board* board, ReplayResult* result,
              ReplayObserver* observer = nullptr, int max_moves = -1);

// The position of a record as the commands name it (`--move N`): `game`
// replayed up to `moves` moves (-1: all), *result saying who moves next.
// InvalidInput when the record has fewer moves ("... has 120 moves; asked
// for the position after move 200") or an illegal one before ("<game>:
// illegal record: move 12 (B Q16): suicide").
Status position_after(const Game& game, int moves, Board* board, ReplayResult* result);

}  // namespace sgfpat

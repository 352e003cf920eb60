// Parsed games from a list of inputs: GameTextReader feeding parse_game.
//
// Every problem comes out of next() as a non-ok Status, in input order, so a
// caller cannot miss one: a game that does not parse ("f.sgf game #12: move
// 37: bad coordinate 'zz'"), a game that cannot be cut out of its file (too
// large, unterminated), and an input that cannot be read ("f.gz: corrupt
// gzip stream: CRC mismatch", "x.sgf: No such file or directory").
// input_error() tells the last two kinds from the first, game_lost() the
// second from the third.  Codes: InvalidInput for a game that does not parse
// or cannot be cut out, IOError for an input that cannot be read.
#pragma once
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "io/game_text_reader.h"
#include "sgf/game.h"

namespace sgfpat {

class GameStream {
 public:
  explicit GameStream(std::vector<std::string> inputs, ReaderOptions options = {});

  // False when everything was read.  True with status ok: *game is the next
  // game.  True with an error: the message names the origin and the reason,
  // game->origin says where (actions may be partial or empty).
  bool next(Game* game, Status* status);

  // After an error from next(): true if it came from reading the input
  // rather than from parsing a game.
  bool input_error() const { return input_error_; }
  // After an input error: true if it lost one game record of a readable
  // input (too large, unterminated), false if it concerns a whole input.
  bool game_lost() const { return game_lost_; }
  // The SGF text of the game last returned (empty after an input error).
  std::string_view text() const { return last_text_; }

  ReadProgress progress() const { return reader_.progress(); }

 private:
  std::deque<ReadError> errors_;  // reported by reader_, not yet returned
  GameTextReader reader_;
  GameText pending_;
  bool has_pending_ = false;
  bool input_error_ = false;
  bool game_lost_ = false;
  std::string_view last_text_;
};

}  // namespace sgfpat

#include "game_select.h"

#include "sgf/game_stream.h"

namespace sgfpat::cli {

Status load_game(const std::string& input, int game_number, Game* game) {
  if (game_number < 1) return Status::InvalidArgument("--game counts from 1");
  GameStream stream({input});
  Status st;
  int n = 0;
  while (stream.next(game, &st)) {
    if (stream.input_error()) return st;
    if (++n == game_number) return st;
  }
  return Status::InvalidInput(input + " has " + std::to_string(n) + " game(s); asked for game " +
                              std::to_string(game_number));
}

}  // namespace sgfpat::cli

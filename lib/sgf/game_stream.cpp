#include "sgf/game_stream.h"

#include "sgf/parser.h"

namespace sgfpat {

GameStream::GameStream(std::vector<std::string> inputs, ReaderOptions options)
    : reader_(std::move(inputs), [this](const ReadError& e) { errors_.push_back(e); }, options) {}

bool GameStream::next(Game* game, Status* status) {
  // The reader may report errors while looking for the next game; those
  // happened earlier in the input, so they come out first.
  if (!has_pending_ && errors_.empty()) has_pending_ = reader_.next(&pending_);
  if (!errors_.empty()) {
    ReadError e = std::move(errors_.front());
    errors_.pop_front();
    game->origin = std::move(e.origin);
    game->info = GameInfo{};
    game->actions.clear();
    // A game cut short (too large, unterminated) is bad input; anything
    // else kept the input from being read.
    *status = e.in_game ? Status::InvalidInput(std::move(e.message)) : Status::IOError(std::move(e.message));
    input_error_ = true;
    game_lost_ = e.in_game;
    last_text_ = {};
    return true;
  }
  if (!has_pending_) return false;
  has_pending_ = false;
  input_error_ = false;
  game_lost_ = false;
  game->origin = pending_.origin;
  last_text_ = pending_.text;
  Status s = parse_game(pending_.text, game);
  *status = s.with_context(game->origin.describe());
  return true;
}

}  // namespace sgfpat

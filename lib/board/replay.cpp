#include "board/replay.h"

namespace sgfpat {

Status replay(const Game& game, Board* board, ReplayResult* result, ReplayObserver* observer,
              int max_moves) {
  *board = Board(game.info.size);
  *result = ReplayResult{};
  bool allow_suicide = game.info.suicide_allowed();
  Color to_move = Color::Empty;  // decided by PL, the first move, or handicap
  bool has_setup = false;
  for (const Action& a : game.actions) {
    switch (a.kind) {
      case Action::Kind::SetPlayer:
        to_move = a.color;
        break;
      case Action::Kind::Setup:
        if (!board->on_board(a.point)) break;
        has_setup = has_setup || a.color == Color::Black;
        board->setup(a.point, a.color);
        if (observer) observer->after_change(*board, board->index(a.point), a.color);
        break;
      case Action::Kind::Play: {
        if (max_moves >= 0 && result->moves_played >= max_moves) {
          result->to_move = a.color;  // the record says who moves next
          return Status::OK();
        }
        int number = result->moves_played + 1;
        if (observer) observer->before_move(*board, a.color, a.point, number);
        if (a.point.is_pass()) {
          board->pass();
        } else {
          MoveError err = board->play(a.point, a.color, allow_suicide);
          if (err != MoveError::None) {
            result->illegal = err;
            result->illegal_number = number;
            result->illegal_color = a.color;
            result->illegal_point = a.point;
            return Status::InvalidInput("move " + std::to_string(number) + " (" + color_char(a.color) + " " +
                                        gtp_name(a.point, board->size()) + "): " + move_error_name(err));
          }
          if (board->last_move_repeated_position()) ++result->superko_repeats;
          if (observer) observer->after_change(*board, board->index(a.point), a.color);
        }
        result->moves_played = number;
        to_move = opponent(a.color);
        break;
      }
    }
  }
  if (to_move == Color::Empty)
    to_move = (game.info.handicap >= 2 && has_setup) ? Color::White : Color::Black;
  result->to_move = to_move;
  return Status::OK();
}

Status position_after(const Game& game, int moves, Board* board, ReplayResult* result) {
  if (moves > game.move_count())
    return Status::InvalidInput(game.origin.describe() + " has " + std::to_string(game.move_count()) +
                                " moves; asked for the position after move " + std::to_string(moves));
  Status st = replay(game, board, result, nullptr, moves);
  return st.with_context(game.origin.describe() + ": illegal record");
}

}  // namespace sgfpat

#include "play/game_state.h"

#include <cmath>
#include <cstdio>

namespace sgfpat {

namespace {
const char* color_name(Color c) { return c == Color::White ? "White" : "Black"; }

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

const char* refusal_code(Refusal r) {
  switch (r) {
    case Refusal::None: return "ok";
    case Refusal::GameOver: return "game_over";
    case Refusal::NotYourTurn: return "not_your_turn";
    case Refusal::OffBoard: return "off_board";
    case Refusal::Occupied: return "occupied";
    case Refusal::Suicide: return "suicide";
    case Refusal::Ko: return "ko";
    case Refusal::Superko: return "superko";
    case Refusal::NoPass: return "no_pass";
  }
  return "?";
}

std::string refusal_message(Refusal r, Color to_move) {
  switch (r) {
    case Refusal::None: return "";
    case Refusal::GameOver: return "The game is over.";
    case Refusal::NotYourTurn: return std::string("Not your turn: ") + color_name(to_move) + " is to play.";
    case Refusal::OffBoard: return "That point is not on the board.";
    case Refusal::Occupied: return "That point is occupied.";
    case Refusal::Suicide: return "Suicide: a move may not leave its own stones without liberties.";
    case Refusal::Ko: return "Ko: the stone just captured cannot be taken back at once; play elsewhere first.";
    case Refusal::Superko: return "Superko: this move would repeat an earlier position.";
    case Refusal::NoPass: return "Atari-go has no passes: the first capture wins.";
  }
  return "";
}

const char* end_reason_name(EndReason r) {
  switch (r) {
    case EndReason::None: return "none";
    case EndReason::Score: return "score";
    case EndReason::Resign: return "resign";
    case EndReason::Time: return "time";
    case EndReason::Capture: return "capture";
    case EndReason::NoMoves: return "no_moves";
  }
  return "?";
}

std::string GameResult::sgf_result() const {
  if (reason == EndReason::None) return "";
  if (winner == Color::Empty) return "0";
  std::string s(1, color_char(winner));
  if (reason == EndReason::Score) return s + "+" + number_text(std::fabs(margin));
  return s + (reason == EndReason::Time ? "+T" : "+R");
}

std::string GameResult::text(double komi) const {
  const std::string who = winner == Color::Empty ? "" : color_name(winner);
  switch (reason) {
    case EndReason::None: return "";
    case EndReason::Score: {
      const std::string counts = " (Black " + std::to_string(area.black) + ", White " +
                                 std::to_string(area.white) + ", komi " + number_text(komi) + ")";
      if (winner == Color::Empty) return "Draw" + counts;
      return who + " wins by " + number_text(std::fabs(margin)) + " points" + counts;
    }
    case EndReason::Resign: return who + " wins by resignation";
    case EndReason::Time: return who + " wins on time";
    case EndReason::Capture: return who + " wins by the first capture";
    case EndReason::NoMoves: return who + " wins: " + color_name(opponent(winner)) + " has no legal move";
  }
  return "";
}

GameResult area_result(const Board& board, double komi) {
  GameResult r;
  r.reason = EndReason::Score;
  r.area = board.area_score();
  r.margin = double(r.area.black) - double(r.area.white) - komi;
  r.winner = r.margin > 0 ? Color::Black : r.margin < 0 ? Color::White : Color::Empty;
  return r;
}

GameState::GameState(GameRules rules) : rules_(rules), board_(rules.size) {}

Refusal GameState::check(Color c, Point p) const {
  if (over()) return Refusal::GameOver;
  if (c != to_move_) return Refusal::NotYourTurn;
  if (p.is_pass()) return rules_.ruleset == Ruleset::Atari ? Refusal::NoPass : Refusal::None;
  switch (board_.check(p, c, false, KoRule::Positional)) {
    case MoveError::None: return Refusal::None;
    case MoveError::OffBoard: return Refusal::OffBoard;
    case MoveError::Occupied: return Refusal::Occupied;
    case MoveError::Suicide: return Refusal::Suicide;
    case MoveError::Ko: return Refusal::Ko;
    case MoveError::Superko: return Refusal::Superko;
  }
  return Refusal::OffBoard;
}

Refusal GameState::play(Color c, Point p, std::vector<Point>* removed) {
  const Refusal r = check(c, p);
  if (r != Refusal::None) return r;
  if (removed) removed->clear();
  moves_.push_back(Action{Action::Kind::Play, c, p});
  to_move_ = opponent(c);
  if (p.is_pass()) {
    board_.pass();
    if (++passes_ == 2) result_ = area_result(board_, rules_.komi);
    return Refusal::None;
  }
  passes_ = 0;
  board_.play(p, c, false, KoRule::Positional);
  if (removed)
    for (int idx : board_.last_removed()) removed->push_back(board_.point(idx));
  if (rules_.ruleset == Ruleset::Atari) {
    if (!board_.last_removed().empty()) end(EndReason::Capture, c);
    else if (!has_legal_move(to_move_)) end(EndReason::NoMoves, c);
  }
  return Refusal::None;
}

bool GameState::has_legal_move(Color c) const {
  for (int y = 0; y < board_.size(); ++y)
    for (int x = 0; x < board_.size(); ++x)
      if (board_.check(Point{int8_t(x), int8_t(y)}, c, false, KoRule::Positional) == MoveError::None) return true;
  return false;
}

void GameState::end(EndReason reason, Color winner) {
  result_.reason = reason;
  result_.winner = winner;
}

void GameState::resign(Color loser) {
  if (!over()) end(EndReason::Resign, opponent(loser));
}

void GameState::lose_on_time(Color loser) {
  if (!over()) end(EndReason::Time, opponent(loser));
}

std::vector<Color> GameState::owners() const {
  std::vector<Color> owner;
  board_.area_score(&owner);
  return owner;
}

Game GameState::record() const {
  Game g;
  g.info.size = rules_.size;
  g.info.komi = rules_.ruleset == Ruleset::Go ? rules_.komi : 0;
  g.info.rules = rules_.ruleset == Ruleset::Go ? "Chinese" : "Atari-go";
  g.info.result = result_.sgf_result();
  g.actions = moves_;
  return g;
}

}  // namespace sgfpat

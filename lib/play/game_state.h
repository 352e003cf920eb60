// One game being played under GameRules: the board, whose turn it is, the
// moves so far, and the end (two passes and the area score, a resignation,
// a loss on time, or in atari-go the first capture).  It refuses what the
// rules refuse, with a reason for people, and never changes on a refusal.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "board/board.h"
#include "play/rules.h"
#include "sgf/game.h"

namespace sgfpat {

enum class Refusal : uint8_t {
  None = 0,
  GameOver,     // the game has ended
  NotYourTurn,  // the other colour is to move
  OffBoard,
  Occupied,
  Suicide,
  Ko,           // takes back the stone just captured
  Superko,      // recreates an earlier position
  NoPass,       // atari-go has no passes
};
// A short code for programs ("ko", "not_your_turn", ...).
const char* refusal_code(Refusal r);
// A sentence for people, e.g. "Ko: the stone just captured cannot be taken
// back at once; play elsewhere first."
std::string refusal_message(Refusal r, Color to_move);

enum class EndReason : uint8_t { None = 0, Score, Resign, Time, Capture, NoMoves };
const char* end_reason_name(EndReason r);  // "score", "resign", "time", "capture", "no_moves"

struct GameResult {
  EndReason reason = EndReason::None;
  Color winner = Color::Empty;  // Empty with a score: a draw
  AreaScore area;               // Score: the area counts
  double margin = 0;            // Score: black - white - komi
  // As SGF's RE writes it: "B+3.5", "W+R", "B+T", "0" (a draw), "" while
  // the game goes on; atari-go's capture and no-move wins as "B+R"/"W+R"
  // (the loser could not go on).
  std::string sgf_result() const;
  // For people: "Black wins by 3.5 points (Black 45, White 34, komi 7.5)".
  std::string text(double komi) const;
};

// The result of counting `board` as it stands by area (stones and the
// empty regions bordered by one colour only), with komi: reason Score.
GameResult area_result(const Board& board, double komi);

class GameState {
 public:
  explicit GameState(GameRules rules);

  const GameRules& rules() const { return rules_; }
  const Board& board() const { return board_; }
  Color to_move() const { return to_move_; }
  // The moves so far (Play actions; a pass has point kPass).
  const std::vector<Action>& moves() const { return moves_; }
  bool over() const { return result_.reason != EndReason::None; }
  const GameResult& result() const { return result_; }
  // Passes in a row at the end of the moves.
  int passes_in_a_row() const { return passes_; }
  Point last_move() const { return moves_.empty() ? kPass : moves_.back().point; }

  // Why `c` may not play `p` (kPass: a pass) now; Refusal::None when it may.
  Refusal check(Color c, Point p) const;
  // Plays `c` at `p` (or passes) when check() allows it; `removed` gets the
  // points of the stones it captured.  Ends the game when the move does
  // (a second pass, an atari-go capture, the opponent left without a move).
  Refusal play(Color c, Point p, std::vector<Point>* removed = nullptr);
  // Ends the game: `loser` resigned or ran out of time.  No effect once over.
  void resign(Color loser);
  void lose_on_time(Color loser);

  // Who has each point at the end by area (owner[y * size + x]), as the
  // score counts it.
  std::vector<Color> owners() const;
  // The game as a record: size, komi, rules, result and the moves.
  Game record() const;

 private:
  bool has_legal_move(Color c) const;
  void end(EndReason reason, Color winner);

  GameRules rules_;
  Board board_;
  Color to_move_ = Color::Black;
  std::vector<Action> moves_;
  int passes_ = 0;
  GameResult result_;
};

}  // namespace sgfpat

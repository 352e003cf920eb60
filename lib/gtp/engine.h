// A GTP version 2 engine: the game state (board, history, komi, clocks),
// the move policy around the tree search of lib/mcts (when to pass, when
// to resign, how much time a move gets) and the scoring of the end of a
// game.  The command file tools/cmd_gtp.cpp only reads lines and prints the
// answers.
//
// Pass policy (Chinese rules, area scoring): genmove passes when the mover
// has no move but filling its own eyes, or when the opponent has just
// passed and the mover wins both by the board as it stands (stones and
// territory, komi) and by the ownership playouts settle (dead stones
// removed): a game won on the board is never thrown away by a pass,
// and a pass never counts on stones the opponent could still capture.
// kgs-genmove_cleanup also passes only when no opponent stone is left that
// the playouts take.  A move that would put one of the mover's chains of
// several stones in atari (a seki's shared liberty) is never played: the
// most visited other move is, or a pass when there is none.  It resigns when the best move's win rate falls below
// resign_threshold after enough playouts.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "board/board.h"
#include "mcts/mcts.h"
#include "sgf/game.h"
#include "solve/atari_player.h"

namespace sgfpat::gtp {

// The longest command line a controller may send (GTP lines are short: a
// move, a file name); the command reading lines stops at a longer one.
inline constexpr size_t kMaxLineBytes = 64 * 1024;

// Rules of the games played.  Chinese: area scoring, simple ko, no suicide.
// Atari: atari-go as lib/solve plays it (boards up to 9x9, no suicide, the
// first capture wins and ends the game; genmove answers with the move of
// solve::choose_atari_move, "resign" when the game is lost by a capture
// already made or no legal move is left, and play refuses moves after the
// end).
enum class Rules : uint8_t { Chinese, Atari };

struct EngineOptions {
  mcts::SearchOptions search;   // iterations = playouts per move (a cap when clocks run)
  EvalOptions eval;
  Rules rules = Rules::Chinese;
  double resign_threshold = 0.05;  // 0 = never resign
  int64_t score_playouts = 1000;   // playouts behind final_score, final_status_list and the pass policy
  bool verbose = false;            // search statistics through `log`
  // The longest game it keeps: play, genmove and loadsgf refuse a move past
  // it ("game too long"), so that a client cannot grow the engine without
  // bound (real games end well before: 19x19 games rarely pass 400 moves).
  int max_moves = 10000;
  std::string name = "sgfpat";
  std::string version = "0.2.0";
  // How showboard draws the board (last move given); a plain grid if unset.
  std::function<std::string(const Board&, Point)> show_board;
  std::function<void(const std::string&)> log;  // verbose lines (stderr in the tool)
  // Under Rules::Atari: the table and the proving search's budget per move
  // (search.seconds, used when no clock runs).
  solve::AtariPlayOptions atari;
};

// The settled end of a position: what the playouts say of each point.
struct Settlement {
  double black_points = 0, white_points = 0;  // owned (stones and territory) by > 1/2 of the playouts
  double margin = 0;                          // black - white - komi
  std::vector<int> dead;                      // indices of stones the opponent owns at the end
};

class Engine {
 public:
  // `priors` may be null; when given it must outlive the engine.
  Engine(const sgfpat_priors::Priors* priors, EngineOptions options);

  // Runs one command line and appends its GTP response (ending in the blank
  // line) to *response; an empty line adds nothing.  False after quit.
  bool handle(const std::string& line, std::string* response);

  const Board& board() const { return board_; }
  double komi() const { return komi_; }
  // The time budget of the next move of `c` in seconds (0: playouts only).
  double time_budget(Color c) const;
  // The settlement of the current position by score_playouts playouts
  // (no tree: a tree without passes would force moves into sekis).
  Settlement settle();

 private:
  struct Played {
    Color color;
    Point point;
  };
  bool run(const std::string& cmd, const std::vector<std::string>& args, std::string* out);
  void clear(int size);
  // Plays a move of `c` (kPass for a pass); false with *why set ("illegal
  // move", "game too long ...") when it is refused.
  bool play(Color c, Point p, std::string* why);
  // The board of record_ from the empty board (after an undo).
  void replay_record();
  // The move of `c` (kPass for a pass); *resign set when it gives up.
  Point genmove(Color c, bool cleanup, bool* resign);
  Point genmove_atari(Color c, bool* resign);
  // Under Rules::Atari: who captured first (Empty while the game goes on).
  Color atari_winner() const;
  Settlement settlement_of(const std::vector<float>& black_owned, const std::vector<float>& white_owned) const;
  Color next_to_move() const;
  bool load_sgf(const std::string& path, int move_number, std::string* error);

  const sgfpat_priors::Priors* priors_;
  EngineOptions options_;
  std::unique_ptr<mcts::Search> search_;
  Board board_;
  double komi_ = 7.5;
  // The game since the board was cleared: setup stones (loadsgf) and moves
  // in order; undo replays it (a copy of the board a move would take 23 KB
  // on 19x19).
  std::vector<Action> record_;
  std::vector<Played> moves_;
  // Clocks (time_settings / time_left); main_time_ < 0: no time limit.
  double main_time_ = -1, byo_time_ = 0;
  int byo_stones_ = 0;
  double time_left_[3] = {0, 0, 0};
  int stones_left_[3] = {0, 0, 0};
  bool clock_known_[3] = {false, false, false};
  mcts::SearchResult last_result_;
};

}  // namespace sgfpat::gtp

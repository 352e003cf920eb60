// sgfpat eval: rank the legal moves of a position with the priors.
#include <algorithm>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "board/position_text.h"
#include "board_text.h"
#include "commands.h"
#include "eval/eval_json.h"
#include "flag_checks.h"
#include "game_select.h"
#include "io/bounded_text.h"
#include "json_text.h"
#include "priors_flags.h"

namespace sgfpat::cli {

namespace {
struct EvalArgs {
  PriorsFlags priors;
  std::string sgf;
  int game = 1;
  int move = -1;
  int top = 10;
  bool json = false;
};

int run_eval(const EvalArgs& a) {
  sgfpat_priors::Priors priors;
  Status st = a.priors.open(&priors);
  if (!st.ok()) {
    return fail("sgfpat eval: ", st);
  }
  Board board;
  Color to_move = Color::Black;
  bool allow_suicide = false;
  Point last = kPass;
  RecentMoves recent;
  if (!a.sgf.empty()) {
    Game game;
    st = load_game(a.sgf, a.game, &game);
    ReplayResult result;
    if (st.ok()) st = position_after(game, a.move, &board, &result);
    if (!st.ok()) {
      return fail("sgfpat eval: ", st);
    }
    to_move = result.to_move;
    allow_suicide = game.info.suicide_allowed();
    recent = recent_moves(game, result.moves_played);
    last = recent.last;
  } else {
    std::string text;
    st = read_all_bounded(std::cin, kMaxPositionText, "the text", &text);
    TextPosition pos;
    if (st.ok()) st = parse_position_text(text, &pos);
    if (!st.ok()) {
      return fail("sgfpat eval: position on stdin: ", st);
    }
    board = pos.board;
    to_move = pos.to_move;
  }
  Evaluator evaluator(priors, a.priors.options());
  std::vector<MoveEval> moves = evaluator.evaluate(board, to_move, allow_suicide, recent);
  const std::string estimator = estimator_name(evaluator.estimator());
  const std::vector<MoveEval> ranked = rank_moves(moves);
  const char* player = to_move == Color::White ? "White" : "Black";
  if (a.json) {
    std::cout << json_text(eval_json(ranked, board.size(), to_move, evaluator.estimator()), 2) << "\n";
    return kOk;
  }
  if (ranked.empty()) {
    std::cout << player << " to move has no legal move.\n";
    return kOk;
  }
  const int shown = std::min<int>(a.top, int(ranked.size()));
  static const char kMarks[] = "123456789abcdefghijklmnopqrstuvwxyz";
  std::string marks(size_t(Board::kMaxIndex), '\0');
  std::cout << player << " to move, " << ranked.size() << " legal moves (" << estimator << " estimator)\n"
            << " rank  move   prob     level  played/seen\n";
  for (int i = 0; i < shown; ++i) {
    const MoveEval& e = ranked[size_t(i)];
    if (i < int(sizeof kMarks) - 1) marks[size_t(board.index(e.point))] = kMarks[i];
    char line[160];
    std::snprintf(line, sizeof line, " %4d  %-5s %6.2f%%   %3d    %llu/%llu\n", i + 1,
                  gtp_name(e.point, board.size()).c_str(), 100 * e.prob, e.level,
                  (unsigned long long)e.counts.played, (unsigned long long)e.counts.seen);
    std::cout << line;
  }
  std::cout << "\n" << board_pretty(board, last, marks);
  return kOk;
}
}  // namespace

Runner register_eval(CLI::App& app) {
  auto a = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand("eval",
                                 "Rank the legal moves of a position by the priors.\n"
                                 "The position comes from --sgf/--move, or as text on stdin:\n"
                                 "  player line (B, W, Noir, Blanc), size line, then the rows\n"
                                 "  ('.' empty, X black, O white; N/B for black/white after Noir/Blanc)");
  a->priors.add_to(cmd);
  cmd->add_option("--sgf", a->sgf, "Game record to take the position from");
  cmd->add_option("--game,-g", a->game, "Game number in --sgf, from 1")->capture_default_str();
  cmd->add_option("--move,-m", a->move, "Position after this many moves (default: after the last)");
  cmd->add_option("--top,-k", a->top, "How many moves to list")->capture_default_str()->check(more_than(0));
  cmd->add_flag("--json", a->json, "Every legal move as JSON");
  return [a]() { return run_eval(*a); };
}

}  // namespace sgfpat::cli

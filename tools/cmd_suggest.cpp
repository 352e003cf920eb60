// sgfpat suggest: the move a Monte Carlo tree search advises in a position.
//
// The position and the budget come from flags, or interactively from stdin
// for whatever the flags leave out (board/position_dialogue.h: prompts and
// answers).  Prompts go to stdout (to stderr with --json).  When stdin is
// not a terminal the answers read are echoed after their prompt, so a piped
// session prints the same transcript as a typed one.  `--board` gives the
// rows as one string, separated by '/' or '|' ("..X/.O./..." or
// ". . .|. B .|. . ."); spaces are ignored.  The advice is printed as
//
//   Coup conseillé: (1,2) C2      r = row, c = column, from 0; then GTP name
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "board/position_dialogue.h"
#include "commands.h"
#include "flag_checks.h"
#include "json_text.h"
#include "mcts/mcts.h"
#include "priors_flags.h"
#include "rules_flags.h"
#include "search_flags.h"

namespace sgfpat::cli {

namespace {
struct SuggestArgs {
  PriorsFlags priors;
  std::string player;
  int size = 0;
  std::string board;
  int64_t iterations = 0;
  SearchFlags search;
  RulesFlags rules;
  double komi = 7.5;
  bool json = false;
  bool verbose = false;
};

// Atari-go: the move of the table or the proving search (lib/solve).
int suggest_atari(const SuggestArgs& a, const Board& board, Color to_move) {
  solve::Geometry g;
  solve::Position pos;
  Status st = solve::from_board(board, to_move, &g, &pos);
  if (!st.ok()) return fail("sgfpat suggest: ", st);
  std::unique_ptr<solve::TableReader> table;
  solve::AtariPlayOptions o;
  st = a.rules.atari_options(a.search.seconds > 0 ? a.search.seconds : 5.0, a.search.threads, &table, &o);
  if (!st.ok()) return fail("sgfpat suggest: --table: ", st);
  std::string table_error;
  const solve::AtariChoice c = solve::choose_atari_move(g, pos, o, &table_error);
  if (!table_error.empty()) std::cerr << "sgfpat suggest: table not used: " << table_error << "\n";
  const int n = board.size();
  const Point p = c.move >= 0 ? Point{int8_t(g.x_of(c.move)), int8_t(g.y_of(c.move))} : kPass;
  if (a.json) {
    nlohmann::json j;
    j["to_move"] = to_move == Color::White ? "White" : "Black";
    j["size"] = n;
    j["rules"] = "atari";
    j["has_move"] = c.move >= 0;
    if (c.move >= 0) {
      j["move"] = gtp_name(p, n);
      j["r"] = p.y;
      j["c"] = p.x;
    }
    j["verdict"] = solve::verdict_name(c.verdict);
    j["source"] = solve::choice_source_name(c.source);
    if (c.distance >= 0) j["distance"] = c.distance;
    j["nodes"] = c.stats.nodes;
    j["seconds"] = c.stats.seconds;
    std::cout << json_text(j, 2) << "\n";
    return kOk;
  }
  if (c.move < 0) {
    std::cout << "Pas_de_coup_valide\n";
    return kOk;
  }
  std::cout << "Coup conseillé: (" << int(p.y) << "," << int(p.x) << ") " << gtp_name(p, n) << "\n";
  if (a.verbose)
    std::cout << "atari-go: " << solve::verdict_name(c.verdict) << " for the player to move, by "
              << solve::choice_source_name(c.source)
              << (c.distance >= 0 ? ", " + std::to_string(c.distance) + " plies to the end" : std::string()) << "\n";
  return kOk;
}

int run_suggest(const SuggestArgs& a) {
  std::ostream& err = std::cerr;
  PositionGiven given;
  given.player = a.player;
  given.size = a.size;
  given.rows = a.board;
  given.budget_wanted = !a.rules.atari();  // atari-go is searched for --seconds instead
  given.budget = a.iterations;
  TextPosition pos;
  int64_t iterations = a.iterations;
  Status st = read_position_dialogue(given, std::cin, a.json ? std::cerr : std::cout, /*echo=*/!::isatty(0), &pos,
                                     &iterations);
  if (!st.ok()) {
    err << "sgfpat suggest: " << st.message() << "\n";
    return exit_code(st);
  }
  const Color to_move = pos.to_move;

  if (a.rules.atari()) return suggest_atari(a, pos.board, to_move);

  sgfpat_priors::Priors priors;
  if (!a.priors.path.empty()) {
    st = a.priors.open(&priors);
    if (!st.ok()) {
      err << "sgfpat suggest: " << st.message() << "\n";
      return exit_code(st);
    }
  }
  mcts::SearchOptions so = a.search.options();
  so.iterations = iterations;
  so.komi = a.komi;
  mcts::Search search(priors.is_open() ? &priors : nullptr, a.priors.options(), so);
  mcts::SearchResult r = search.run(pos.board, to_move);

  const int n = pos.board.size();
  std::vector<mcts::ChildStats> ranked = r.children;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const mcts::ChildStats& x, const mcts::ChildStats& y) { return x.visits > y.visits; });
  if (a.json) {
    nlohmann::json j;
    j["to_move"] = to_move == Color::White ? "White" : "Black";
    j["size"] = n;
    j["has_move"] = r.has_move;
    if (r.has_move) {
      j["move"] = gtp_name(r.best, n);
      j["r"] = r.best.y;
      j["c"] = r.best.x;
    }
    j["iterations"] = r.iterations;
    j["seconds"] = r.seconds;
    j["playouts_per_second"] = r.playouts_per_second;
    j["nodes"] = r.nodes;
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& c : ranked)
      arr.push_back({{"move", gtp_name(c.move, n)}, {"r", c.move.y}, {"c", c.move.x}, {"visits", c.visits},
                     {"black_wins", c.black_wins}, {"win_rate", c.mover_win_rate()}, {"prior", c.prior}});
    j["children"] = arr;
    std::cout << json_text(j, 2) << "\n";
    return kOk;
  }
  if (!r.has_move) {
    std::cout << "Pas_de_coup_valide\n";
    return kOk;
  }
  if (r.best.is_pass())
    std::cout << "Coup conseillé: pass\n";
  else
    std::cout << "Coup conseillé: (" << int(r.best.y) << "," << int(r.best.x) << ") " << gtp_name(r.best, n) << "\n";
  if (a.verbose) {
    char line[160];
    std::snprintf(line, sizeof line, "%lld iterations in %.3f s (%.0f playouts/s), %lld nodes\n",
                  (long long)r.iterations, r.seconds, r.playouts_per_second, (long long)r.nodes);
    std::cout << line << " move    (r,c)    visits   black wins  win rate  prior\n";
    for (const auto& c : ranked) {
      std::snprintf(line, sizeof line, " %-5s  (%d,%d)%*s %7lld  %11.1f  %7.1f%%  %6.2f%%\n", gtp_name(c.move, n).c_str(),
                    int(c.move.y), int(c.move.x), c.move.y >= 10 || c.move.x >= 10 ? 1 : 3, "", (long long)c.visits,
                    c.black_wins, 100 * c.mover_win_rate(), 100 * c.prior);
      std::cout << line;
    }
  }
  return kOk;
}
}  // namespace

Runner register_suggest(CLI::App& app) {
  auto a = std::make_shared<SuggestArgs>();
  auto* cmd = app.add_subcommand("suggest",
                                 "Advise a move with a Monte Carlo tree search (priors optional).\n"
                                 "What the flags leave out is asked on stdin: player (Noir/Blanc, B/W), size,\n"
                                 "the rows ('.' empty; N/B after Noir/Blanc, X/O otherwise), iteration budget.\n"
                                 "Prints 'Coup conseillé: (r,c) GTP' (row, column from 0) or Pas_de_coup_valide.");
  a->priors.add_to(cmd, /*required=*/false);
  cmd->add_option("--player", a->player, "Player to move: Noir, Blanc, B or W");
  cmd->add_option("--size", a->size, "Board size (default: the number of --board rows)")->check(in_range(2, 25));
  cmd->add_option("--board", a->board, "Rows separated by '/' or '|', top first, e.g. \"...|.B.|...\"");
  cmd->add_option("--iterations,-n", a->iterations, "Iteration budget")->check(more_than(0));
  cmd->add_option("--komi", a->komi, "Komi")->capture_default_str();
  a->search.add_to(cmd, /*with_playouts=*/false);
  a->rules.add_to(cmd);
  cmd->add_flag("--json", a->json, "Result as JSON");
  cmd->add_flag("--verbose,-v", a->verbose, "Show the root moves with visits and values");
  return [a]() { return run_suggest(*a); };
}

}  // namespace sgfpat::cli

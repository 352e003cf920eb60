// sgfpat gtp: a GTP version 2 engine on stdin/stdout.  The engine (game
// state, pass and resign policy, clocks, scoring) is lib/gtp; this file
// reads the flags and the command lines.
#include <iostream>

#include "board_text.h"
#include "commands.h"
#include "core/version.h"
#include "flag_checks.h"
#include "gtp/engine.h"
#include "io/bounded_text.h"
#include "priors_flags.h"
#include "rules_flags.h"
#include "search_flags.h"

namespace sgfpat::cli {

namespace {
struct GtpArgs {
  PriorsFlags priors;
  SearchFlags search;
  RulesFlags rules;
  double resign = gtp::EngineOptions{}.resign_threshold;
  bool verbose = false;
};

int run_gtp(const GtpArgs& a) {
  sgfpat_priors::Priors priors;
  if (!a.priors.path.empty()) {
    Status st = a.priors.open(&priors);
    if (!st.ok()) return fail("sgfpat gtp: ", st);
  }
  gtp::EngineOptions o;
  o.search = a.search.options();
  o.search.skip_own_eyes = true;  // never fill an own eye: pass instead
  o.search.reuse_tree = true;
  o.search.early_stop = true;
  o.eval = a.priors.options();
  o.resign_threshold = a.resign;
  o.version = kVersion;
  o.verbose = a.verbose;
  std::unique_ptr<solve::TableReader> table;
  if (a.rules.atari()) {
    o.rules = gtp::Rules::Atari;
    // Without a clock, a move gets --seconds of proving search (5 s if unset).
    Status st = a.rules.atari_options(a.search.seconds > 0 ? a.search.seconds : 5.0, a.search.threads, &table, &o.atari);
    if (!st.ok()) return fail("sgfpat gtp: --table: ", st);
  }
  o.show_board = [](const Board& b, Point last) { return board_pretty(b, last); };
  o.log = [](const std::string& line) { std::cerr << line << "\n"; };
  gtp::Engine engine(priors.is_open() ? &priors : nullptr, o);
  std::string line, response;
  bool too_long = false;
  while (read_line_bounded(std::cin, gtp::kMaxLineBytes, &line, &too_long)) {
    response.clear();
    bool more = engine.handle(line, &response);
    std::cout << response << std::flush;
    if (!more) break;
  }
  if (too_long) {
    // No GTP command is that long: the other side is not a GTP controller.
    std::cout << "? line too long\n\n" << std::flush;
    std::cerr << "sgfpat gtp: a command line longer than " << gtp::kMaxLineBytes << " bytes: stopped\n";
    return kBadInput;
  }
  return kOk;
}
}  // namespace

Runner register_gtp(CLI::App& app) {
  auto a = std::make_shared<GtpArgs>();
  auto* cmd = app.add_subcommand(
      "gtp",
      "A GTP v2 engine on stdin/stdout, playing with the Monte Carlo tree search (Chinese rules, area scoring),\n"
      "or atari-go with --rules atari (retrograde tables and the proving search of `sgfpat solve`).\n"
      "Besides the core commands: time_settings, time_left, kgs-genmove_cleanup, final_score,\n"
      "final_status_list, loadsgf, gogui-analyze_commands (priors and ownership maps).");
  a->priors.add_to(cmd, /*required=*/false);
  a->search.add_to(cmd, /*with_playouts=*/true);
  a->rules.add_to(cmd);
  cmd->add_option("--resign", a->resign, "Resign when the best move's win rate is below this (0: never)")
      ->capture_default_str()
      ->check(in_range(0.0, 0.5));
  cmd->add_flag("--verbose,-v", a->verbose, "Search statistics on stderr");
  return [a]() { return run_gtp(*a); };
}

}  // namespace sgfpat::cli

#include "search_flags.h"

#include "flag_checks.h"
#include "tuning.h"

namespace sgfpat::cli {

void SearchFlags::add_to(CLI::App* cmd, bool with_playouts) {
  if (with_playouts)
    cmd->add_option("--playouts", playouts, "Playouts per move (a cap when --seconds or GTP clocks set a time)")
        ->capture_default_str()
        ->check(more_than(0));
  cmd->add_option("--seconds", seconds, "Time per move in seconds (0: playouts only)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd->add_option("--threads,-t", threads, "Search threads")->capture_default_str();
  cmd->add_option("--seed", seed, "Random seed")->capture_default_str();
  tuning(cmd, cmd->add_option("--policy", policy,
                  "Tree policy: puct-rave (q + c_puct * P * sqrt(N) / (1 + n), q mixing win rate and AMAF)\n"
                  "or seed (the first engine's w/n + prior/(1+n) + UCT bonus)")
      ->capture_default_str()
      ->check(CLI::IsMember({"puct-rave", "seed"})));
  tuning(cmd, cmd->add_option("--c-puct", c_puct, "puct-rave: weight of the prior term")->capture_default_str()->check(at_least(0)));
  tuning(cmd, cmd->add_option("--rave-equiv", rave_equiv, "puct-rave: visits at which AMAF and real values weigh alike (0: no RAVE)")
      ->capture_default_str()
      ->check(at_least(0)));
  tuning(cmd, cmd->add_option("--explore", explore, "seed: explore * sqrt(ln(N+1) / (1+n)) is added to the action value\n"
                  "(0: exactly v/n + prior/(1+n), which never tries unvisited moves once a move wins)")
      ->capture_default_str()
      ->check(at_least(0)));
  tuning(cmd, cmd->add_flag("--playout-priors", playout_priors, "Weight playout moves by the priors' levels 1..2"));
  tuning(cmd, cmd->add_flag("--no-tactics", no_tactics,
                "Plain random playouts and priors (no captures, escapes, self-atari avoidance)"));
  tuning(cmd, cmd->add_option("--playout-patterns", playout_patterns,
                  "Probability that a playout answers the last move with a 3x3 shape (hane, cut, edge) when one fits")
      ->capture_default_str()
      ->check(in_range(0.0, 1.0)));
  tuning(cmd, cmd->add_option("--expand-visits", expand_visits, "Visits a leaf needs before it is expanded")
      ->capture_default_str()
      ->check(in_range(1, 1000)));
  cmd->add_option("--max-tree-mb", max_tree_mb,
                  "Memory bound of the search tree in MiB (0: none); once full, leaves stop growing")
      ->capture_default_str()
      ->check(at_least(0));
}

mcts::SearchOptions SearchFlags::options() const {
  mcts::SearchOptions o;
  o.iterations = playouts;
  o.max_seconds = seconds;
  o.threads = threads;
  o.seed = seed;
  mcts::parse_tree_policy(policy, &o.policy);
  o.c_puct = c_puct;
  o.rave_equiv = rave_equiv;
  o.explore = explore;
  o.playout_priors = playout_priors;
  o.prior_heuristics = !no_tactics;
  o.playout_tactics = !no_tactics;
  o.playout_patterns = playout_patterns;
  o.expand_visits = expand_visits;
  o.max_tree_mb = max_tree_mb;
  return o;
}

}  // namespace sgfpat::cli

// The search flags `sgfpat gtp` and `sgfpat suggest` share.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "mcts/mcts.h"

namespace sgfpat::cli {

struct SearchFlags {
  int64_t playouts = 10000;
  double seconds = 0;
  int threads = 1;
  uint64_t seed = 1;
  std::string policy = "puct-rave";
  double c_puct = mcts::SearchOptions{}.c_puct;
  double rave_equiv = mcts::SearchOptions{}.rave_equiv;
  double explore = 1;
  bool playout_priors = false;
  bool no_tactics = false;
  double playout_patterns = mcts::SearchOptions{}.playout_patterns;
  int expand_visits = 2;
  int64_t max_tree_mb = 1024;

  // Adds the flags (the budget, threads, seed and tree memory) and the
  // tree policy's and playouts' tuning settings (tuning.h); --playouts only
  // when `with_playouts` (suggest has its own --iterations).
  void add_to(CLI::App* cmd, bool with_playouts);
  mcts::SearchOptions options() const;
};

}  // namespace sgfpat::cli

// The rules flags `sgfpat gtp` and `sgfpat suggest` share: --rules and,
// for atari-go, --table (retrograde tables made by `sgfpat solve --table`).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "core/status.h"
#include "solve/atari_player.h"

namespace sgfpat::cli {

struct RulesFlags {
  std::string rules = "chinese";
  std::string table;

  void add_to(CLI::App* cmd);
  bool atari() const { return rules == "atari"; }
  // The atari-go options: `seconds` (> 0) per move, `threads`, and the
  // table opened into *reader when --table is given.
  Status atari_options(double seconds, int threads, std::unique_ptr<solve::TableReader>* reader,
                       solve::AtariPlayOptions* out) const;
};

}  // namespace sgfpat::cli

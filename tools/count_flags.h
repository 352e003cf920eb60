// Flags shared by the commands that fix what a database counts: the key
// scheme, min_played and the game filter (ingest, shard plan).
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/status.h"
#include "ingest/game_filter.h"
#include "store/pattern_db.h"

namespace sgfpat::cli {

struct CountFlags {
  int levels = 10;
  int min_played = 2;
  bool no_symmetry = false;
  std::vector<int> sizes;
  bool skip_handicap = false;
  std::string min_rank;

  // `fixed` ends the help of the scheme flags (e.g. " (fixed when the
  // database is created)").
  void add_to(CLI::App* cmd, const std::string& fixed);
  DbSettings settings() const;
  // InvalidArgument when --min-rank is not a rank.
  Status filter(GameFilter* out) const;
  // True when a scheme flag was given on the command line.
  static bool scheme_given(const CLI::App& cmd) {
    return cmd.count("--levels") || cmd.count("--min-played") || cmd.count("--no-symmetry");
  }
};

// $SGFPAT_FRONTIER_GROUPS, which tests set to "levels" to make a night and
// a catch-up work in their smallest parts on a small database, as past the
// resident size (CountOptions::night_in_smallest_parts); "auto" or unset
// otherwise.  False, with a message naming `command` on stderr, for any
// other value (a usage error).
bool smallest_parts_from_env(const std::string& command, bool* smallest);

}  // namespace sgfpat::cli

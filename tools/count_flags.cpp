#include "count_flags.h"

#include "flag_checks.h"

#include <cstdlib>
#include <iostream>

namespace sgfpat::cli {

void CountFlags::add_to(CLI::App* cmd, const std::string& fixed) {
  cmd->add_option("--levels,-L", levels, "Deepest zoom level L" + fixed)
      ->capture_default_str()
      ->check(in_range(1, kMaxLevels));
  cmd->add_option("--min-played", min_played, "Report patterns played at least this often" + fixed)
      ->capture_default_str()
      ->check(in_range(1, 255));
  cmd->add_flag("--no-symmetry", no_symmetry, "Count patterns as seen, not up to the 8 symmetries" + fixed);
  cmd->add_option("--sizes", sizes, "Only these board sizes (e.g. --sizes 19 or --sizes 9,13,19)")
      ->check(in_range(kMinBoardSize, kMaxBoardSize))
      ->delimiter(',')
      ->allow_extra_args(false)  // one word per --sizes: the inputs after it stay inputs
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_flag("--skip-handicap", skip_handicap, "Skip handicap games (HA >= 2 or setup stones)");
  cmd->add_option("--min-rank", min_rank, "Only games where both BR and WR are at least this rank (e.g. 5d)");
}

DbSettings CountFlags::settings() const {
  DbSettings s;
  s.scheme.levels = levels;
  s.scheme.symmetry = !no_symmetry;
  s.min_played = min_played;
  return s;
}

Status CountFlags::filter(GameFilter* out) const {
  *out = GameFilter{};
  out->sizes = sizes;
  out->skip_handicap = skip_handicap;
  if (!min_rank.empty()) {
    out->min_rank = rank_value(min_rank);
    if (!out->min_rank)
      return Status::InvalidArgument("--min-rank '" + min_rank + "' is not a rank like 5d, 3k or 1p");
  }
  return Status::OK();
}

bool smallest_parts_from_env(const std::string& command, bool* smallest) {
  constexpr const char* kEnv = "SGFPAT_FRONTIER_GROUPS";
  const char* env = std::getenv(kEnv);
  const std::string value = env && *env ? env : "auto";
  if (value != "auto" && value != "levels") {
    std::cerr << "sgfpat " << command << ": $" << kEnv << " is '" << value << "': want auto or levels\n";
    return false;
  }
  *smallest = value == "levels";
  return true;
}

}  // namespace sgfpat::cli

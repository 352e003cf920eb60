#include "play/rules.h"

#include <cmath>

#include "core/types.h"

namespace sgfpat {

const char* ruleset_name(Ruleset r) { return r == Ruleset::Atari ? "atari" : "go"; }

bool parse_ruleset(std::string_view name, Ruleset* out) {
  if (name == "go") *out = Ruleset::Go;
  else if (name == "atari") *out = Ruleset::Atari;
  else return false;
  return true;
}

Status check_rules(const GameRules& rules) {
  if (rules.size < kMinBoardSize || rules.size > kMaxBoardSize)
    return Status::InvalidArgument("board size " + std::to_string(rules.size) + ": sizes are " +
                                   std::to_string(kMinBoardSize) + " to " + std::to_string(kMaxBoardSize));
  if (!std::isfinite(rules.komi) || std::fabs(rules.komi) > kMaxKomi)
    return Status::InvalidArgument("komi must be a number between -1000 and 1000");
  if (std::fabs(rules.komi * 2 - std::round(rules.komi * 2)) > 1e-9)
    return Status::InvalidArgument("komi must be a multiple of 0.5");
  return Status::OK();
}

}  // namespace sgfpat

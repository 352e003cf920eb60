// The rules a played game follows (the program's specification): captures,
// no suicide, positional superko (no move may recreate an earlier position)
// and area scoring with komi; or atari-go, where the first capture wins.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace sgfpat {

enum class Ruleset : uint8_t {
  Go,     // two passes end the game; area score (stones + territory) and komi decide
  Atari,  // the first capture wins; no passes; a player left without a legal move loses
};
const char* ruleset_name(Ruleset r);  // "go", "atari"
bool parse_ruleset(std::string_view name, Ruleset* out);

struct GameRules {
  int size = 19;
  double komi = 7.5;  // Go only (atari-go has no score)
  Ruleset ruleset = Ruleset::Go;
};

// The largest komi a game accepts, either way.
inline constexpr double kMaxKomi = 1000;

// OK, or InvalidArgument naming what is wrong: a size outside
// kMinBoardSize..kMaxBoardSize, a komi not finite, beyond kMaxKomi or not a
// multiple of 0.5.
Status check_rules(const GameRules& rules);

}  // namespace sgfpat

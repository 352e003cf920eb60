#include "core/game_origin.h"

namespace sgfpat {

std::string GameOrigin::describe() const {
  std::string s = file;
  if (!member.empty()) s += ":" + member;
  s += " game #" + std::to_string(index + 1);
  return s;
}

}  // namespace sgfpat

#include "sgf/game.h"

#include <algorithm>
#include <cctype>

namespace sgfpat {

Color GameInfo::winner() const {
  size_t i = 0;
  while (i < result.size() && std::isspace((unsigned char)result[i])) ++i;
  if (i + 1 >= result.size() || result[i + 1] != '+') return Color::Empty;
  char c = char(std::toupper((unsigned char)result[i]));
  return c == 'B' ? Color::Black : c == 'W' ? Color::White : Color::Empty;
}

bool GameInfo::suicide_allowed() const {
  std::string r;
  for (char c : rules) r += char(std::tolower((unsigned char)c));
  return r.rfind("nz", 0) == 0 || r.find("new zealand") != std::string::npos ||
         r.find("tromp") != std::string::npos;
}

int Game::move_count() const {
  return int(std::count_if(actions.begin(), actions.end(),
                           [](const Action& a) { return a.kind == Action::Kind::Play; }));
}

}  // namespace sgfpat

#include "ingest/game_filter.h"

#include <algorithm>
#include <cctype>

namespace sgfpat {

std::optional<int> rank_value(std::string_view r) {
  size_t i = 0;
  while (i < r.size() && std::isspace((unsigned char)r[i])) ++i;
  int n = 0, digits = 0;
  while (i < r.size() && std::isdigit((unsigned char)r[i]) && digits < 3) n = n * 10 + (r[i++] - '0'), ++digits;
  while (i < r.size() && std::isspace((unsigned char)r[i])) ++i;
  if (digits == 0 || i >= r.size()) return std::nullopt;
  switch (std::tolower((unsigned char)r[i])) {
    case 'k': return 1 - n;
    case 'd': return n;
    case 'p': return 9 + n;
    default: return std::nullopt;
  }
}

std::string filter_reason(const Game& game, const GameFilter& f, const std::string& min_rank_text) {
  if (!f.sizes.empty() && std::find(f.sizes.begin(), f.sizes.end(), game.info.size) == f.sizes.end())
    return "board size " + std::to_string(game.info.size);
  if (f.skip_handicap) {
    bool setup = std::any_of(game.actions.begin(), game.actions.end(),
                             [](const Action& a) { return a.kind == Action::Kind::Setup; });
    if (game.info.handicap >= 2 || setup) return "handicap";
  }
  if (f.min_rank) {
    auto b = rank_value(game.info.black_rank), w = rank_value(game.info.white_rank);
    if (!b || !w || *b < *f.min_rank || *w < *f.min_rank) return "rank below " + min_rank_text;
  }
  return "";
}

}  // namespace sgfpat

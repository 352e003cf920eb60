#include "pattern/pattern_string.h"

#include <algorithm>
#include <vector>

namespace sgfpat {

namespace {
PState state_of(char c) {
  switch (c) {
    case '#': return PState::Off;
    case '.': return PState::Empty;
    case 'O': return PState::Opp;
    default: return PState::Own;
  }
}
}  // namespace

std::string spell_pattern(const Board& board, Point center, int level, Color mover) {
  const auto& offs = diamond_offsets();
  std::string s(size_t(level_points(level)), '#');
  for (size_t o = 0; o < s.size(); ++o) {
    Point p{int8_t(center.x + offs[o].dx), int8_t(center.y + offs[o].dy)};
    if (!board.on_board(p)) continue;
    Color c = board.at(p);
    s[o] = c == Color::Empty ? '.' : c == mover ? 'X' : 'O';
  }
  return s;
}

int pattern_level(std::string_view pattern) {
  int level = 0;
  while (level < kMaxLevels && level_points(level) < int(pattern.size())) ++level;
  if (level == 0 || level_points(level) != int(pattern.size())) return 0;
  for (char c : pattern)
    if (c != '#' && c != '.' && c != 'O' && c != 'X') return 0;
  return level;
}

std::string transform_pattern(std::string_view pattern, int s) {
  std::string out(pattern.size(), '#');
  for (size_t o = 0; o < pattern.size(); ++o) out[o] = pattern[sym_index(s, int(o))];
  return out;
}

std::string canonical_pattern(std::string_view pattern) {
  std::string best(pattern);
  for (int s = 1; s < 8; ++s) best = std::min(best, transform_pattern(pattern, s));
  return best;
}

uint64_t pattern_key(std::string_view pattern, const KeyScheme& scheme) {
  const ZobristTable& z = zobrist_table(scheme.seed);
  uint64_t h[8] = {};
  for (size_t o = 0; o < pattern.size(); ++o) {
    PState st = state_of(pattern[o]);
    if (st == PState::Empty) continue;
    const uint64_t* w = z.by_symmetry(st) + o * 8;
    for (int s = 0; s < 8; ++s) h[s] ^= w[s];
  }
  if (!scheme.symmetry) return h[0];
  return *std::min_element(h, h + 8);
}

std::string pattern_diagram(std::string_view pattern) {
  int level = pattern_level(pattern);
  if (level == 0) return std::string(pattern) + "\n";
  int w = 2 * level + 1;
  std::vector<std::string> grid(size_t(w), std::string(size_t(2 * w - 1), ' '));
  grid[size_t(level)][size_t(2 * level)] = '*';
  const auto& offs = diamond_offsets();
  for (size_t o = 0; o < pattern.size(); ++o)
    grid[size_t(offs[o].dy + level)][size_t(2 * (offs[o].dx + level))] = pattern[o];
  std::string out;
  for (auto& row : grid) {
    row.erase(row.find_last_not_of(' ') + 1);
    out += row + "\n";
  }
  return out;
}

}  // namespace sgfpat

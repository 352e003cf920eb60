#include "render/pattern_picture.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "pattern/diamond.h"
#include "pattern/pattern_string.h"

namespace sgfpat {

std::vector<uint8_t> diamond_mask(int size, Point center, int level) {
  std::vector<uint8_t> inside(size_t(size * size), 0);
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x)
      if (std::abs(x - center.x) + std::abs(y - center.y) <= level) inside[size_t(y * size + x)] = 1;
  return inside;
}

Status pattern_board(std::string_view pattern, Board* board, Point* center, std::vector<uint8_t>* inside) {
  const int level = pattern_level(pattern);
  if (level == 0) return Status::InvalidInput("'" + std::string(pattern) + "' is not a pattern string");
  const int radius = std::min(level, (kMaxBoardSize - 1) / 2);
  const int size = 2 * radius + 1;
  *board = Board(size);
  *center = Point{int8_t(radius), int8_t(radius)};
  *inside = diamond_mask(size, *center, radius);
  const std::vector<Offset>& offsets = diamond_offsets();
  for (int i = 0; i < level_points(radius); ++i) {
    const Point p{int8_t(radius + offsets[size_t(i)].dx), int8_t(radius + offsets[size_t(i)].dy)};
    const char c = pattern[size_t(i)];
    if (c == 'X') board->setup(p, Color::Black);
    else if (c == 'O') board->setup(p, Color::White);
    else if (c == '#') (*inside)[size_t(p.y * size + p.x)] = 0;
  }
  return Status::OK();
}

}  // namespace sgfpat

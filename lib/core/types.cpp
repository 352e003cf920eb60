#include "core/types.h"

#include <cctype>

namespace sgfpat {

std::string sgf_name(Point p) {
  if (p.is_pass()) return "";
  return {char('a' + p.x), char('a' + p.y)};
}

std::string gtp_name(Point p, int size) {
  if (p.is_pass()) return "pass";
  char col = char('A' + p.x + (p.x >= 8 ? 1 : 0));  // GTP skips 'I'
  return col + std::to_string(size - p.y);
}

bool parse_point(const std::string& text, int size, Point* out) {
  if (text.size() == 2 && std::islower((unsigned char)text[0]) &&
      std::islower((unsigned char)text[1])) {
    int x = text[0] - 'a', y = text[1] - 'a';
    if (x >= size || y >= size) return false;
    *out = Point{int8_t(x), int8_t(y)};
    return true;
  }
  if (text.size() < 2 || text.size() > 3 || !std::isalpha((unsigned char)text[0])) return false;
  char c = char(std::toupper((unsigned char)text[0]));
  if (c == 'I') return false;
  int x = c - 'A' - (c > 'I' ? 1 : 0);
  int row = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit((unsigned char)text[i])) return false;
    row = row * 10 + (text[i] - '0');
  }
  if (x < 0 || x >= size || row < 1 || row > size) return false;
  *out = Point{int8_t(x), int8_t(size - row)};
  return true;
}

}  // namespace sgfpat

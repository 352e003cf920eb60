#include "board_text.h"

namespace sgfpat::cli {

std::string board_text(const Board& board) {
  std::string out;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      Color c = board.at(Point{int8_t(x), int8_t(y)});
      out += c == Color::Black ? 'X' : c == Color::White ? 'O' : '.';
    }
    out += '\n';
  }
  return out;
}

std::string board_pretty(const Board& board, Point last, const std::string& marks) {
  const int n = board.size();
  std::string cols = "   ";
  for (int x = 0; x < n; ++x) {
    cols += ' ';
    cols += gtp_name(Point{int8_t(x), 0}, n)[0];
  }
  std::string out = cols + "\n";
  for (int y = 0; y < n; ++y) {
    std::string row = std::to_string(n - y);
    out += std::string(3 - row.size(), ' ') + row;
    for (int x = 0; x < n; ++x) {
      Point p{int8_t(x), int8_t(y)};
      Color c = board.at(p);
      char ch = c == Color::Black ? 'X' : c == Color::White ? 'O' : '.';
      int idx = board.index(p);
      if (c == Color::Empty && !marks.empty() && marks[size_t(idx)]) ch = marks[size_t(idx)];
      bool hoshi = c == Color::Empty && ch == '.' && n >= 9 &&
                   ((x == 3 || x == n - 4 || (x == n / 2 && n % 2)) && (y == 3 || y == n - 4 || (y == n / 2 && n % 2)));
      if (hoshi) ch = '+';
      out += (p == last) ? '(' : ((x > 0 && Point{int8_t(x - 1), int8_t(y)} == last) ? ')' : ' ');
      out += ch;
    }
    out += (last.x == n - 1 && last.y == y) ? ')' : ' ';
    out += row + "\n";
  }
  return out + cols + "\n";
}

}  // namespace sgfpat::cli

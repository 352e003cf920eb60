#include "board/position_text.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace sgfpat {

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower((unsigned char)c));
  return s;
}
// The line without a leading prompt ("Joueur?", "Taille?", "Goban:",
// "Budget d'itérations?"): rows never hold '?' or ':', so anything up to the
// last one of them is a prompt.
std::string strip_prompt(const std::string& line) {
  auto q = line.find_last_of("?:");
  return q == std::string::npos ? line : line.substr(q + 1);
}
std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}
}  // namespace

bool parse_player(const std::string& word, Color* color, bool* french) {
  std::string w = lower(trim(word));
  if (w == "b" || w == "black" || w == "x") {
    *color = Color::Black;
    *french = false;
  } else if (w == "w" || w == "white" || w == "o") {
    *color = Color::White;
    *french = false;
  } else if (w == "noir" || w == "n") {
    *color = Color::Black;
    *french = true;
  } else if (w == "blanc") {
    *color = Color::White;
    *french = true;
  } else {
    return false;
  }
  return true;
}

Status parse_position_text(const std::string& text, TextPosition* out) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::string t = trim(strip_prompt(line));
    if (!t.empty()) lines.push_back(t);
  }
  if (lines.size() < 2) return Status::InvalidInput("expected a player line, a size line and the rows");
  if (!parse_player(lines[0], &out->to_move, &out->french))
    return Status::InvalidInput("line 1: '" + lines[0] + "' is not a player (B, W, Noir or Blanc)");
  int size = 0;
  try {
    size_t used = 0;
    size = std::stoi(lines[1], &used);
    if (used != lines[1].size()) size = 0;
  } catch (...) {
    size = 0;
  }
  if (size < kMinBoardSize || size > kMaxBoardSize)
    return Status::InvalidInput("line 2: '" + lines[1] + "' is not a board size from 2 to 25");
  if (int(lines.size()) < 2 + size)
    return Status::InvalidInput("expected " + std::to_string(size) + " rows, got " + std::to_string(lines.size() - 2));
  out->board = Board(size);
  for (int y = 0; y < size; ++y) {
    std::string row;
    for (char c : lines[size_t(2 + y)])
      if (!std::isspace((unsigned char)c)) row += c;
    if (int(row.size()) != size)
      return Status::InvalidInput("row " + std::to_string(y + 1) + ": expected " + std::to_string(size) + " points, got " +
                           std::to_string(row.size()) + " ('" + row + "')");
    for (int x = 0; x < size; ++x) {
      char c = char(std::toupper((unsigned char)row[size_t(x)]));
      Color col;
      if (c == '.' || c == '+') continue;
      if (c == 'X' || (out->french && c == 'N')) col = Color::Black;
      else if (c == 'O' || (out->french && c == 'B')) col = Color::White;
      else
        return Status::InvalidInput("row " + std::to_string(y + 1) + ": unexpected '" + std::string(1, row[size_t(x)]) +
                             "' (use . X O" + (out->french ? " or N B" : "") + ")");
      out->board.setup(Point{int8_t(x), int8_t(y)}, col);
    }
  }
  return Status::OK();
}

}  // namespace sgfpat

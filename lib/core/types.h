// Basic Go vocabulary shared by every layer: colors, points, moves.
#pragma once
#include <cstdint>
#include <string>

namespace sgfpat {

// OffBoard marks the border points around a Board's playing area (never a
// stone, never a player to move).
enum class Color : uint8_t { Empty = 0, Black = 1, White = 2, OffBoard = 3 };

inline constexpr Color opponent(Color c) {
  return c == Color::Black ? Color::White : c == Color::White ? Color::Black : Color::Empty;
}
inline constexpr char color_char(Color c) {  // 'B', 'W' or '.'
  return c == Color::Black ? 'B' : c == Color::White ? 'W' : '.';
}

inline constexpr int kMinBoardSize = 2;
inline constexpr int kMaxBoardSize = 25;

// A board point, x = column from the left, y = row from the top, both from 0
// (SGF order: B[pd] is x=15, y=3).  kPass marks a pass.
struct Point {
  int8_t x = -1;
  int8_t y = -1;
  constexpr bool is_pass() const { return x < 0; }
  friend constexpr bool operator==(Point a, Point b) { return a.x == b.x && a.y == b.y; }
};
inline constexpr Point kPass{-1, -1};

// "pd" style SGF coordinate; "" for a pass.
std::string sgf_name(Point p);
// GTP name ("Q16", column letters skip I); "pass" for a pass.
std::string gtp_name(Point p, int size);
// Parses "Q16"/"q16" (GTP) or "pd" (SGF) into a point on a size x size board.
// Returns false if the text is neither or lies off the board.
bool parse_point(const std::string& text, int size, Point* out);

}  // namespace sgfpat

// A board drawn as SVG: wood, grid, star points, coordinates (GTP letters
// and numbers), stones, the last move ringed, and labelled marks on points
// (continuations: a blue disc with up to two lines of text).
//
// Geometry, for whoever reads the picture back (the tests do): the point
// (x, y) is drawn at pixel (margin + x * cell, margin + y * cell) with
// margin = cell; the image is (size + 1) * cell pixels square.
#pragma once
#include <string>
#include <vector>

#include "board/board.h"

namespace sgfpat {

struct SvgMark {
  Point point;
  std::string line1;  // e.g. a count
  std::string line2;  // e.g. a win rate ("" for one line)
};

struct SvgOptions {
  int cell = 32;
  Point last = kPass;
  std::vector<SvgMark> marks;
  std::string title;  // drawn under nothing; kept in <title>
  // Points outside this mask (index y * size + x, non-zero = inside) are
  // dimmed: a pattern diagram's extent.  Empty: no dimming.
  std::vector<uint8_t> inside;
};

std::string board_svg(const Board& board, const SvgOptions& options);

// Colours used, as the tests check them in the rendered picture.
inline constexpr const char* kSvgWood = "#dcb35c";
inline constexpr const char* kSvgMark = "#2060d0";

}  // namespace sgfpat

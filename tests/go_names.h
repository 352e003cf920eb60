// Short names for the board tests: B, W, E and "C3"-style points, written
// here so that these tests do not depend on parse_point.
#pragma once
#include <string>

#include "core/types.h"

namespace testnames {

constexpr sgfpat::Color B = sgfpat::Color::Black;
constexpr sgfpat::Color W = sgfpat::Color::White;
constexpr sgfpat::Color E = sgfpat::Color::Empty;

// "C3" style name (columns skip I, row 1 at the bottom) -> Point.
inline sgfpat::Point pt(int size, const std::string& name) {
  char c = name[0];
  int x = c - 'A' - (c > 'I' ? 1 : 0);
  return sgfpat::Point{int8_t(x), int8_t(size - std::stoi(name.substr(1)))};
}

}  // namespace testnames

// The 8 symmetries of a square board and the colour swap, as 16 numbered
// transforms.  Transform t = 2 * sym + swap: sym's bit 2 transposes (x, y),
// then bit 0 mirrors x and bit 1 mirrors y; swap exchanges Black and White.
#pragma once
#include <cstdint>

#include "core/types.h"

namespace sgfpat {

inline constexpr int kSymmetries = 8;
inline constexpr int kTransforms = 16;

inline constexpr int transform_sym(int t) { return t >> 1; }
inline constexpr bool transform_swaps(int t) { return (t & 1) != 0; }

// The image of p under symmetry `sym` on a size x size board (a pass stays a pass).
inline Point apply_symmetry(int sym, Point p, int size) {
  if (p.is_pass()) return p;
  int x = p.x, y = p.y;
  if (sym & 4) std::swap(x, y);
  if (sym & 1) x = size - 1 - x;
  if (sym & 2) y = size - 1 - y;
  return Point{int8_t(x), int8_t(y)};
}
// The symmetry that undoes `sym`.
int inverse_symmetry(int sym);
// The colour under transform t.
inline Color apply_swap(int t, Color c) { return transform_swaps(t) ? opponent(c) : c; }

}  // namespace sgfpat

namespace sgfpat {
// The symmetry equal to applying `first`, then `then`.
int compose_symmetry(int first, int then);
}  // namespace sgfpat

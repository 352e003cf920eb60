#include "search/symmetry.h"

namespace sgfpat {

int inverse_symmetry(int sym) {
  // Found by trying: 8 candidates, checked on a point no symmetry fixes.
  const Point p{1, 2};
  for (int inv = 0; inv < kSymmetries; ++inv)
    if (apply_symmetry(inv, apply_symmetry(sym, p, 19), 19) == p) return inv;
  return 0;
}

}  // namespace sgfpat

namespace sgfpat {
int compose_symmetry(int first, int then) {
  const Point p{1, 2};
  const Point want = apply_symmetry(then, apply_symmetry(first, p, 19), 19);
  for (int s = 0; s < kSymmetries; ++s)
    if (apply_symmetry(s, p, 19) == want) return s;
  return 0;
}
}  // namespace sgfpat

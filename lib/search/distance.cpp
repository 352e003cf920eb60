#include "search/distance.h"

#include <algorithm>
#include <cstdlib>

#include "search/symmetry.h"

namespace sgfpat {

Status make_weights(int size, const std::string& region, Point last, int radius, std::vector<uint8_t>* weight) {
  if (radius < 0 || radius > 250) return Status::InvalidArgument("the near-last-move radius must be 0..250");
  int x0 = 0, y0 = 0, x1 = size - 1, y1 = size - 1;
  const int corner = size / 2 + 1;
  if (region.empty()) {
  } else if (region == "tl" || region == "tr" || region == "bl" || region == "br") {
    if (region[1] == 'l') x1 = corner - 1; else x0 = size - corner;
    if (region[0] == 't') y1 = corner - 1; else y0 = size - corner;
  } else {
    const auto colon = region.find(':');
    Point a, b;
    if (colon == std::string::npos || !parse_point(region.substr(0, colon), size, &a) ||
        !parse_point(region.substr(colon + 1), size, &b))
      return Status::InvalidArgument("region '" + region + "' is neither a corner (tl, tr, bl, br) nor a rectangle like D4:K10");
    x0 = std::min(a.x, b.x), x1 = std::max(a.x, b.x), y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
  }
  weight->assign(size_t(size * size), 0);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      int w = 1;
      if (radius > 0 && !last.is_pass()) w += std::max(0, radius - std::abs(x - last.x) - std::abs(y - last.y));
      (*weight)[size_t(y * size + x)] = uint8_t(w);
    }
  return Status::OK();
}

int position_distance(const DistanceQuery& q, const Board& stored, Color mover, int* sym) {
  const int n = q.board.size();
  int best = -1;
  for (int s = 0; s < kSymmetries; ++s) {
    int d = 0;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const Point p{int8_t(x), int8_t(y)};
        const Point image = apply_symmetry(s, p, n);
        Color want = q.board.at(image);
        if (mover != q.to_move) want = opponent(want);
        if (stored.at(p) != want) d += q.weight[size_t(image.y * n + image.x)];
      }
    if (best < 0 || d < best) {
      best = d;
      if (sym) *sym = s;
    }
  }
  return best;
}

}  // namespace sgfpat

#include "pattern/diamond.h"

#include <cstdlib>

namespace sgfpat {

namespace {
struct Geometry {
  std::vector<Offset> offsets;
  std::vector<int> ring;
  std::array<std::vector<int>, 8> sym;
  Geometry() {
    for (int d = 1; d <= kMaxLevels; ++d) {
      for (int k = 0; k < d; ++k) offsets.push_back({int8_t(k), int8_t(-d + k)});
      for (int k = 0; k < d; ++k) offsets.push_back({int8_t(d - k), int8_t(k)});
      for (int k = 0; k < d; ++k) offsets.push_back({int8_t(-k), int8_t(d - k)});
      for (int k = 0; k < d; ++k) offsets.push_back({int8_t(-d + k), int8_t(-k)});
      for (int k = 0; k < 4 * d; ++k) ring.push_back(d);
    }
    // Offsets lie in [-16, 16]^2: a small grid maps them back to indices.
    constexpr int W = 2 * kMaxLevels + 1;
    std::vector<int> where(W * W, -1);
    for (size_t o = 0; o < offsets.size(); ++o)
      where[(offsets[o].dy + kMaxLevels) * W + offsets[o].dx + kMaxLevels] = int(o);
    for (int s = 0; s < 8; ++s)
      for (size_t o = 0; o < offsets.size(); ++o) {
        Offset t = transform(s, offsets[o]);
        sym[s].push_back(where[(t.dy + kMaxLevels) * W + t.dx + kMaxLevels]);
      }
  }
};
const Geometry& geometry() {
  static const Geometry g;
  return g;
}
}  // namespace

const std::vector<Offset>& diamond_offsets() { return geometry().offsets; }
int offset_ring(int o) { return geometry().ring[o]; }
int sym_index(int s, int o) { return geometry().sym[s][o]; }

Offset transform(int s, Offset o) {
  int x = o.dx, y = o.dy;
  if (s & 4) x = -x;  // mirror first, then rotate s%4 quarter turns
  for (int r = 0; r < (s & 3); ++r) {
    int t = x;
    x = -y;
    y = t;
  }
  return {int8_t(x), int8_t(y)};
}

}  // namespace sgfpat

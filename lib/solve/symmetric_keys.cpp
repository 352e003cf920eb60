#include "solve/symmetric_keys.h"

#include <utility>

namespace sgfpat::solve {

BoardSymmetries::BoardSymmetries(const Geometry& g, bool enabled) {
  int w = g.width(), h = g.height();
  for (int s = 0; s < 8; ++s) {
    bool transpose = s & 4;
    if (transpose && w != h) continue;
    if (!enabled && s != 0) break;
    for (int i = 0; i < kPoints; ++i) perm_[n_][i] = inv_[n_][i] = int8_t(i);  // off-board bits map to themselves
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int nx = (s & 1) ? w - 1 - x : x;
        int ny = (s & 2) ? h - 1 - y : y;
        if (transpose) std::swap(nx, ny);
        perm_[n_][g.index(x, y)] = int8_t(g.index(nx, ny));
        inv_[n_][g.index(nx, ny)] = int8_t(g.index(x, y));
      }
    ++n_;
  }
  for (int c = 0; c < 2; ++c)
    for (Bits b = g.board(); b; b &= b - 1)
      for (int s = 0; s < n_; ++s)
        step_[c][lowest(b)][s] =
            stone_key(c == 0 ? Color::Black : Color::White, perm_[s][lowest(b)]) ^ kWhiteToMoveKey;
}

Position BoardSymmetries::image(int s, const Position& pos) const {
  Position img;
  img.to_move = pos.to_move;
  for (Bits b = pos.black; b; b &= b - 1) img.black |= bit(perm_[s][lowest(b)]);
  for (Bits b = pos.white; b; b &= b - 1) img.white |= bit(perm_[s][lowest(b)]);
  return img;
}

KeySet BoardSymmetries::keys(const Position& pos) const {
  KeySet ks{};
  for (int s = 0; s < n_; ++s) ks.k[s] = position_key(image(s, pos));
  return ks;
}

}  // namespace sgfpat::solve

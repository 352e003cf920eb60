#include "solve/retrograde.h"

#include <algorithm>

namespace sgfpat::solve {

namespace {

// The stones of one half of the digits, as board bits.
struct Half {
  std::vector<Bits> black, white;
  std::vector<uint8_t> nblack, nwhite;
};

Half make_half(const Geometry& g, int first_point, int npoints) {
  uint64_t n = 1;
  for (int i = 0; i < npoints; ++i) n *= 3;
  Half h;
  h.black.resize(n);
  h.white.resize(n);
  h.nblack.resize(n);
  h.nwhite.resize(n);
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t r = v;
    for (int i = 0; i < npoints; ++i, r /= 3) {
      int c = first_point + i;
      int p = g.index(c % g.width(), c / g.width());
      if (r % 3 == 1) h.black[v] |= bit(p), ++h.nblack[v];
      if (r % 3 == 2) h.white[v] |= bit(p), ++h.nwhite[v];
    }
  }
  return h;
}

}  // namespace

Status RetroTable::build(int width, int height, RetroTable* out,
                         const std::function<void(uint64_t, uint64_t)>& progress) {
  if (!Geometry::valid_size(width, height) || width * height > kMaxPoints)
    return Status::NotSupported("the retrograde table covers boards of at most " + std::to_string(kMaxPoints) +
                         " points, not " + std::to_string(width) + "x" + std::to_string(height));
  RetroTable& t = *out;
  t.g_ = Geometry(width, height);
  const Geometry& g = t.g_;
  const int n = width * height;
  const int nlo = n / 2, nhi = n - nlo;
  Half lo = make_half(g, 0, nlo), hi = make_half(g, nlo, nhi);
  const uint64_t lo_size = lo.black.size();
  std::vector<uint64_t> pow3(size_t(n) + 1, 1);
  for (int i = 1; i <= n; ++i) pow3[size_t(i)] = pow3[size_t(i) - 1] * 3;
  // Board bit -> digit weight, for the successor's number.
  std::vector<uint64_t> weight(128, 0);
  for (int c = 0; c < n; ++c) weight[size_t(g.index(c % width, c / width))] = pow3[size_t(c)];
  t.cells_.assign(pow3[size_t(n)], 0);
  t.positions_ = t.wins_ = 0;
  const uint64_t total = pow3[size_t(n)];
  for (uint64_t idx = total; idx-- > 0;) {
    if (progress && (idx & ((uint64_t(1) << 24) - 1)) == 0) progress(total - idx, total);
    uint64_t il = idx % lo_size, ih = idx / lo_size;
    int nb = lo.nblack[il] + hi.nblack[ih], nw = lo.nwhite[il] + hi.nwhite[ih];
    Color mover;
    if (nb == nw) mover = Color::Black;
    else if (nb == nw + 1) mover = Color::White;
    else continue;
    Bits black = lo.black[il] | hi.black[ih], white = lo.white[il] | hi.white[ih];
    Bits empty = g.board() & ~(black | white);
    if (has_dead_chain(g, black, empty) || has_dead_chain(g, white, empty)) continue;
    Bits mine = mover == Color::Black ? black : white;
    Bits theirs = mover == Color::Black ? white : black;
    uint64_t digit = mover == Color::Black ? 1 : 2;
    bool win = false, any = false;
    int best_win = 1 << 20, worst_loss = 0;
    for (Bits e = empty; e; e &= e - 1) {
      int p = lowest(e);
      Bits empty2 = empty & ~bit(p);
      bool capture = false;
      for (Bits nbh = g.neighbours(bit(p)) & theirs; nbh; nbh &= nbh - 1)
        if ((g.neighbours(g.chain(theirs, lowest(nbh))) & empty2) == 0) capture = true;
      if (capture) {
        win = any = true;
        best_win = 1;
        break;
      }
      if ((g.neighbours(g.chain(mine | bit(p), p)) & empty2) == 0) continue;  // suicide
      any = true;
      TableValue cv;
      decode(t.cells_[idx + digit * weight[size_t(p)]], &cv);
      if (!cv.win) {
        win = true;
        best_win = std::min(best_win, cv.distance + 1);
      } else {
        worst_loss = std::max(worst_loss, cv.distance + 1);
      }
    }
    int dist = !any ? 0 : win ? best_win : worst_loss;
    t.cells_[idx] = uint8_t(0x80 | (win ? 0x40 : 0) | dist);
    ++t.positions_;
    if (win) ++t.wins_;
  }
  if (progress) progress(total, total);
  return Status::OK();
}

Color table_side(const Position& pos) {
  int nb = popcount(pos.black), nw = popcount(pos.white);
  if (nb == nw) return Color::Black;
  if (nb == nw + 1) return Color::White;
  return Color::Empty;
}

uint64_t table_index(const Geometry& g, const Position& pos) {
  uint64_t idx = 0, w = 1;
  for (int c = 0; c < g.points(); ++c, w *= 3) {
    Bits b = bit(g.index(c % g.width(), c / g.width()));
    if (pos.black & b) idx += w;
    else if (pos.white & b) idx += 2 * w;
  }
  return idx;
}

bool RetroTable::lookup(const Position& pos, TableValue* v) const {
  if (side_to_move(pos) != pos.to_move || ((pos.black | pos.white) & ~g_.board())) return false;
  return decode(cells_[index(pos)], v);
}

Position RetroTable::position(uint64_t index) const {
  Position pos;
  for (int c = 0; c < g_.points(); ++c, index /= 3) {
    Bits b = bit(g_.index(c % g_.width(), c / g_.width()));
    if (index % 3 == 1) pos.black |= b;
    if (index % 3 == 2) pos.white |= b;
  }
  Color side = side_to_move(pos);
  pos.to_move = side == Color::Empty ? Color::Black : side;
  return pos;
}

}  // namespace sgfpat::solve

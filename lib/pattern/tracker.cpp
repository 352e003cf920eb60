#include "pattern/tracker.h"

#include <cstdlib>

#include "pattern/diamond.h"

namespace sgfpat {

PatternTracker::PatternTracker(const KeyScheme& scheme, int board_size)
    : scheme_(scheme), levels_(scheme.levels), incremental_(scheme.levels), z_(&zobrist_table(scheme.seed)) {
  const auto& all = diamond_offsets();
  offsets_.assign(all.begin(), all.begin() + level_points(levels_));
  const int side = 2 * levels_ + 1;
  offset_at_.assign(size_t(side) * size_t(side), -1);
  for (size_t o = 0; o < offsets_.size(); ++o)
    offset_at_[size_t((offsets_[o].dy + levels_) * side + offsets_[o].dx + levels_)] = int(o);
  reset(board_size);
}

void PatternTracker::reset(int board_size) {
  size_ = board_size;
  stride_ = board_size + 2;
  wide_ = board_size + 2 * levels_;
  stones_.assign(size_t(wide_) * size_t(wide_), 0);
  wide_off_.clear();
  for (const Offset& o : offsets_) wide_off_.push_back(o.dy * wide_ + o.dx);
  if (empty_size_ == board_size) {  // the usual case: same size as last game
    rings_ = empty_rings_;
    return;
  }
  rings_.assign(size_t(stride_) * stride_ * levels_ * 8, 0);
  // Off-board points are part of every pattern near an edge.
  const uint64_t* off = z_->by_symmetry(PState::Off);
  for (int y = 0; y < size_; ++y)
    for (int x = 0; x < size_; ++x) {
      uint64_t* ring = &rings_[size_t((y + 1) * stride_ + x + 1) * levels_ * 8];
      for (size_t o = 0; o < offsets_.size(); ++o) {
        int px = x + offsets_[o].dx, py = y + offsets_[o].dy;
        if (px >= 0 && py >= 0 && px < size_ && py < size_) continue;
        uint64_t* r = ring + size_t(offset_ring(int(o)) - 1) * 8;
        for (int s = 0; s < 8; ++s) r[s] ^= off[o * 8 + s];
      }
    }
  empty_rings_ = rings_;
  empty_size_ = board_size;
}

void PatternTracker::restore(const State& s) {
  if (s.size != size_) reset(s.size);
  rings_ = s.rings;
  stones_ = s.stones;
}

void PatternTracker::take(State* s) {
  if (s->size != size_) reset(s->size);
  rings_.swap(s->rings);
  stones_.swap(s->stones);
}

void PatternTracker::apply(int idx, PState from, PState to) {
  const uint64_t* wf = from == PState::Empty ? nullptr : z_->by_symmetry(from);
  const uint64_t* wt = to == PState::Empty ? nullptr : z_->by_symmetry(to);
  const int qx = idx % stride_ - 1, qy = idx / stride_ - 1;
  // q lies at offset (dx, dy) from the centres c = q - (dx, dy) within the
  // kept rings: visited row by row, clipped to the board once per row.
  const int n = incremental_, side = 2 * levels_ + 1;
  for (int dy = std::max(-n, qy - size_ + 1); dy <= std::min(n, qy); ++dy) {
    const int cy = qy - dy, reach = n - std::abs(dy);
    for (int dx = std::max(-reach, qx - size_ + 1); dx <= std::min(reach, qx); ++dx) {
      if (dx == 0 && dy == 0) continue;  // no pattern holds its centre
      const int o = offset_at_[size_t((dy + levels_) * side + dx + levels_)];
      const int cx = qx - dx;
      uint64_t* r = &rings_[(size_t((cy + 1) * stride_ + cx + 1) * levels_ + size_t(std::abs(dx) + std::abs(dy) - 1)) * 8];
      if (wf)
        for (int s = 0; s < 8; ++s) r[s] ^= wf[o * 8 + s];
      if (wt)
        for (int s = 0; s < 8; ++s) r[s] ^= wt[o * 8 + s];
    }
  }
}

void PatternTracker::spell_ring(int idx, int ring, const uint64_t* empty, uint64_t* out) const {
  // rings_ keeps the empty board's words above the kept rings (reset()
  // copies them and apply() leaves them): add the stones of the ring.
  // Every point of the ring is added, a point without a stone as zero
  // words: no branch depends on the board.
  uint64_t acc[8];
  for (int s = 0; s < 8; ++s) acc[s] = empty[s];
  const int cx = idx % stride_ - 1, cy = idx / stride_ - 1;
  const uint8_t* at = &stones_[size_t((cy + levels_) * wide_ + cx + levels_)];
  const uint64_t* own = z_->by_symmetry(PState::Own);
  const uint64_t* opp = z_->by_symmetry(PState::Opp);
  for (int o = level_points(ring - 1); o < level_points(ring); ++o) {
    const unsigned st = at[wide_off_[size_t(o)]];
    const uint64_t mask = uint64_t(0) - uint64_t(st != 0);
    const uint64_t* w = (st == 2 ? opp : own) + size_t(o) * 8;
    for (int s = 0; s < 8; ++s) acc[s] ^= w[s] & mask;
  }
  for (int s = 0; s < 8; ++s) out[s] = acc[s];
}

void PatternTracker::set(int idx, Color c) {
  const int x = idx % stride_ - 1, y = idx / stride_ - 1;
  uint8_t& stone = stones_[size_t((y + levels_) * wide_ + x + levels_)];
  const uint8_t now = c == Color::Black ? 1 : c == Color::White ? 2 : 0;
  if (stone == now) return;
  // Black's view: stones_ values 0, 1, 2 are empty, own, opponent.
  constexpr PState kState[3] = {PState::Empty, PState::Own, PState::Opp};
  const PState from = kState[stone];
  stone = now;
  apply(idx, from, kState[now]);
}

void PatternTracker::after_play(const Board& board, int idx) {
  set(idx, board.at_index(idx));
  for (int r : board.last_removed()) set(r, Color::Empty);
}

uint64_t PatternTracker::key(int idx, int level, Color mover) const {
  uint64_t k = 0;
  walk(idx, mover, [&](int, uint64_t key) { k = key; return true; }, level);
  return k;
}

}  // namespace sgfpat

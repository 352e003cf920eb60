#include "count/candidate_counter.h"

#include "count/sketch.h"

namespace sgfpat {

CandidateCounter::CandidateCounter(const KeyScheme& scheme, KeptFilter* filter, CountTable* table)
    : tracker_(scheme), filter_(filter), table_(table), levels_(scheme.levels) {
  const auto& all = diamond_offsets();
  offsets_.assign(all.begin(), all.begin() + level_points(levels_));
  for (size_t o = 0; o < offsets_.size(); ++o) ring_.push_back(uint8_t(offset_ring(int(o))));
}

void CandidateCounter::start_game(const Game& game) {
  if (game.info.size != size_) {
    size_ = game.info.size;
    stride_ = size_ + 2;
    Board b(size_);
    points_.clear();
    for (int y = 0; y < size_; ++y)
      for (int x = 0; x < size_; ++x) points_.push_back(b.index(Point{int8_t(x), int8_t(y)}));
    slot_.assign(size_t(stride_) * stride_ * 2 * size_t(levels_), kUnknown);
    pending_.assign(slot_.size(), 0);
    known_.assign(size_t(stride_) * stride_ * 2, 0);
  }
  tracker_.reset(size_);
  winner_ = game.info.winner();
  allow_suicide_ = game.info.suicide_allowed();
}

void CandidateCounter::flush(int idx, int player, int from_level) {
  const size_t base = cell(idx, player);
  const int known = known_[size_t(idx) * 2 + size_t(player)];
  for (int level = from_level; level <= known; ++level) {
    const size_t c = base + size_t(level - 1);
    if (slot_[c] >= 0 && pending_[c]) table_->counts(slot_[c]).seen += pending_[c];
    pending_[c] = 0;
    slot_[c] = kUnknown;
  }
  if (known >= from_level) known_[size_t(idx) * 2 + size_t(player)] = uint8_t(from_level - 1);
}

void CandidateCounter::finish_game() {
  for (int idx : points_)
    for (int player = 0; player < 2; ++player) flush(idx, player, 1);
}

void CandidateCounter::invalidate_around(int idx) {
  const int qx = idx % stride_ - 1, qy = idx / stride_ - 1;
  for (size_t o = 0; o < offsets_.size(); ++o) {
    const int cx = qx - offsets_[o].dx, cy = qy - offsets_[o].dy;
    if (cx < 0 || cy < 0 || cx >= size_ || cy >= size_) continue;
    const int c = (cy + 1) * stride_ + cx + 1;
    const int d = ring_[o];
    for (int player = 0; player < 2; ++player)
      if (known_[size_t(c) * 2 + size_t(player)] >= d) flush(c, player, d);
  }
}

void CandidateCounter::after_change(const Board& board, int idx, Color) {
  tracker_.after_play(board, idx);
  invalidate_around(idx);
  for (int r : board.last_removed()) invalidate_around(r);
}

void CandidateCounter::before_move(const Board& board, Color mover, Point move, int) {
  if (move.is_pass()) return;
  ++positions_;
  const int m = board.index(move);
  const int player = mover == Color::White ? 1 : 0;
  const bool win = winner_ == mover;
  for (int idx : points_) {
    if (board.at_index(idx) != Color::Empty || !board.is_legal_index(idx, mover, allow_suicide_)) continue;
    ++candidates_;
    const size_t base = cell(idx, player);
    uint8_t& known = known_[size_t(idx) * 2 + size_t(player)];
    const bool played = idx == m;
    int level = 1;
    // Levels whose pattern is unchanged since they were looked up.
    for (; level <= known; ++level) {
      const int32_t s = slot_[base + size_t(level - 1)];
      if (s == kNotKept) break;
      ++pending_[base + size_t(level - 1)];
      if (played) {
        PatternCounts& c = table_->counts(s);
        ++c.played;
        c.wins += win;
      }
    }
    if (level <= known) continue;  // stopped at a level that is not kept
    // Look up the levels above, until one is not kept.
    tracker_.walk(idx, mover, [&](int lv, uint64_t key) {
      if (lv < level) return true;  // already handled above
      const size_t c = base + size_t(lv - 1);
      int32_t s = table_->find(lv, key);
      if (s < 0 && filter_->kept(level_item(lv, key))) s = table_->add(lv, key);
      known = uint8_t(lv);
      if (s < 0) {
        slot_[c] = kNotKept;
        return false;
      }
      slot_[c] = s;
      ++pending_[c];
      if (played) {
        PatternCounts& pc = table_->counts(s);
        ++pc.played;
        pc.wins += win;
      }
      return true;
    });
  }
}

}  // namespace sgfpat

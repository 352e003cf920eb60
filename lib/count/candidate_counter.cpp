#include "count/candidate_counter.h"

#include <algorithm>

#include "count/draining_counts.h"
#include "count/resident_table.h"

namespace sgfpat {

namespace {
// played and wins are 32-bit in the table: drain before they could wrap.
constexpr uint64_t kMaxPositionsPerDrain = uint64_t(1) << 31;
}  // namespace

template <class Counts>
CandidateCounter<Counts>::CandidateCounter(const KeyScheme& scheme, Counts* counts)
    : tracker_(scheme), counts_(counts), levels_(scheme.levels) {
  const auto& all = diamond_offsets();
  offsets_.assign(all.begin(), all.begin() + level_points(levels_));
  for (size_t o = 0; o < offsets_.size(); ++o) ring_.push_back(uint8_t(offset_ring(int(o))));
}

template <class Counts>
void CandidateCounter<Counts>::start_game(const Game& game) {
  if (game.info.size != size_) {
    size_ = game.info.size;
    stride_ = size_ + 2;
    Board b(size_);
    points_.clear();
    for (int y = 0; y < size_; ++y)
      for (int x = 0; x < size_; ++x) points_.push_back(b.index(Point{int8_t(x), int8_t(y)}));
    slot_.assign(size_t(stride_) * stride_ * 2 * size_t(levels_), kUnknown);
    start_.assign(slot_.size(), 0);
    known_.assign(size_t(stride_) * stride_ * 2, 0);
  }
  // flush_all() at the end of the last game left every known_ at 0.
  candidate_count_.assign(known_.size(), 0);
  tracker_.reset(size_);
  winner_ = game.info.winner();
  allow_suicide_ = game.info.suicide_allowed();
}

template <class Counts>
void CandidateCounter<Counts>::flush(int idx, int player, int from_level) {
  const size_t cp = size_t(idx) * 2 + size_t(player);
  const size_t base = cell(idx, player);
  const int known = known_[cp];
  const uint32_t now = candidate_count_[cp];
  for (int level = from_level; level <= known; ++level) {
    const size_t c = base + size_t(level - 1);
    const uint32_t n = now - start_[c];
    if (slot_[c] >= 0 && n) {
      counts_->prefetch_slot(level, slot_[c]);
      seen_queue_.push_back(SeenAdd{slot_[c], level, n});
    }
    slot_[c] = kUnknown;
  }
  if (known >= from_level) known_[cp] = uint8_t(from_level - 1);
}

template <class Counts>
void CandidateCounter<Counts>::stop_after(size_t cp, size_t base, int level) {
  known_[cp] = uint8_t(level + 1);
  slot_[base + size_t(level)] = kNotKept;
}

template <class Counts>
void CandidateCounter<Counts>::flush_all() {
  for (int idx : points_)
    for (int player = 0; player < 2; ++player) flush(idx, player, 1);
}

template <class Counts>
void CandidateCounter<Counts>::apply_seen() {
  for (const SeenAdd& a : seen_queue_) counts_->add_seen(a.level, a.slot, a.n);
  seen_queue_.clear();
}

template <class Counts>
void CandidateCounter<Counts>::drain() {
  apply_seen();
  positions_since_drain_ = 0;
  Status s = counts_->drain();
  if (status_.ok() && !s.ok()) status_ = s;
}

template <class Counts>
void CandidateCounter<Counts>::finish_game() {
  flush_all();
  apply_seen();
  if (counts_->wants_drain()) drain();
}

template <class Counts>
void CandidateCounter<Counts>::invalidate_around(int idx) {
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

template <class Counts>
void CandidateCounter<Counts>::after_change(const Board& board, int idx, Color) {
  tracker_.after_play(board, idx);
  invalidate_around(idx);
  for (int r : board.last_removed()) invalidate_around(r);
}

template <class Counts>
void CandidateCounter<Counts>::before_move(const Board& board, Color mover, Point move, int) {
  if (move.is_pass()) return;
  // Slots handed out stay valid only until a drain, so a mid-game drain
  // first ends every pending pattern (the next look-ups start afresh).
  if (counts_->must_drain() || positions_since_drain_ >= kMaxPositionsPerDrain) {
    flush_all();
    drain();
  }
  ++positions_;
  ++positions_since_drain_;
  const int m = board.index(move);
  const int player = mover == Color::White ? 1 : 0;
  const bool win = winner_ == mover;

  // Levels still valid since their look-up cost no memory access beyond
  // this counter's arrays; collect the candidates that need look-ups.
  walks_.clear();
  for (int idx : points_) {
    if (board.at_index(idx) != Color::Empty || !board.is_legal_index(idx, mover, allow_suicide_)) continue;
    ++candidates_;
    const size_t cp = size_t(idx) * 2 + size_t(player);
    const size_t base = cell(idx, player);
    const int known = known_[cp];
    ++candidate_count_[cp];
    const bool stopped = known > 0 && slot_[base + size_t(known - 1)] == kNotKept;
    if (idx == m)
      for (int level = 1; level <= known - int(stopped); ++level)
        counts_->add_played(level, slot_[base + size_t(level - 1)], win);
    if (stopped || known == levels_) continue;
    if (known > 0 && !counts_->extends(known, slot_[base + size_t(known - 1)])) {
      stop_after(cp, base, known);
      continue;
    }
    Walk& w = walks_.emplace_back();
    w.idx = idx;
    w.cursor = PatternTracker::Cursor{};
    for (int l = 0; l < known; ++l) tracker_.fold(idx, &w.cursor);
    w.key = tracker_.next_key(idx, mover, &w.cursor);
    counts_->prefetch(w.cursor.level, w.key);
  }
  // The seen additions queued by the stone changes since the last position,
  // while the look-ups' lines are on their way.
  apply_seen();

  // Look up one level of every pending candidate per round, until each
  // reaches a level that is not kept (or L).  A pattern found now begins
  // with this position, which its candidate count already includes.
  size_t active = walks_.size();
  if (found_.size() < active) found_.resize(active);
  while (active > 0) {
    for (size_t i = 0; i < active; ++i) found_[i] = counts_->lookup(walks_[i].cursor.level, walks_[i].key);
    size_t next = 0;
    for (size_t i = 0; i < active; ++i) {
      Walk& w = walks_[i];
      const int lv = w.cursor.level;
      const size_t cp = size_t(w.idx) * 2 + size_t(player);
      const size_t c = cell(w.idx, player) + size_t(lv - 1);
      const int32_t s = found_[i];
      known_[cp] = uint8_t(lv);
      if (s < 0) {
        slot_[c] = kNotKept;
        continue;
      }
      slot_[c] = s;
      start_[c] = candidate_count_[cp] - 1;
      if (w.idx == m) counts_->add_played(lv, s, win);
      if (lv == levels_) continue;
      if (!counts_->extends(lv, s)) {
        stop_after(cp, c - size_t(lv - 1), lv);
        continue;
      }
      w.key = tracker_.next_key(w.idx, mover, &w.cursor);
      counts_->prefetch(w.cursor.level, w.key);
      if (next != i) walks_[next] = w;
      ++next;
    }
    active = next;
  }
}

template class CandidateCounter<DrainingCounts>;
template class CandidateCounter<ResidentTable>;

}  // namespace sgfpat

#include "count/candidate_counter.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>

#include "count/catchup_table.h"
#include "count/night_table.h"
#include "count/resident_table.h"

namespace sgfpat {

template <class Counts>
CandidateCounter<Counts>::CandidateCounter(const KeyScheme& scheme, Counts* counts)
    : tracker_(scheme), counts_(counts), levels_(scheme.levels) {}

template <class Counts>
void CandidateCounter<Counts>::start_game(const Game& game, const SharedPlan* plan) {
  winner_ = game.info.winner();
  allow_suicide_ = game.info.suicide_allowed();
  plan_ = plan;
  number_ = 0;
  if (plan && plan->restore_at > 0) return;  // the state comes from a kept one
  kept_count_ = 0;
  if (game.info.size != size_) {
    size_ = game.info.size;
    stride_ = size_ + 2;
    Board b(size_);
    points_.clear();
    for (int y = 0; y < size_; ++y)
      for (int x = 0; x < size_; ++x) points_.push_back(b.index(Point{int8_t(x), int8_t(y)}));
    const size_t n = size_t(stride_) * size_t(stride_);
    on_board_.assign(n, 0);
    for (int idx : points_) on_board_[size_t(idx)] = 1;
    g_.slot_.assign(n * 2 * size_t(levels_), kNotKept);
    g_.start_.assign(g_.slot_.size(), 0);
    g_.known_.assign(n * 2, 0);
    g_.counted_levels_.assign(n * 2, 0);
    g_.known_cells_.assign(size_t(levels_) + 1, 0);
    g_.known_cells_[0] = uint32_t(n * 2);
    is_illegal_.assign(n, 0);
  }
  // end_all_patterns() at the end of the last game left every known_ and
  // counted_levels_ at 0.
  const size_t n = on_board_.size();
  g_.occupied_.assign(n, 0);
  g_.empty_nbrs_.assign(n, 0);
  for (int idx : points_)
    for (int nb : {idx - stride_, idx + 1, idx + stride_, idx - 1}) g_.empty_nbrs_[size_t(idx)] += on_board_[size_t(nb)];
  g_.hole_at_.assign(n, -1);
  g_.holes_.clear();
  g_.empty_count_ = int(points_.size());
  g_.player_positions_[0] = g_.player_positions_[1] = 0;
  g_.candidate_tally_.assign(n * 2, 0);
  g_.is_dirty_.assign(n * 2, 0);
  for (int player = 0; player < 2; ++player) {
    g_.dirty_[player].clear();
    for (int idx : points_) mark_dirty(idx, player);
  }
  tracker_.reset(size_);
}

template <class Counts>
void CandidateCounter<Counts>::mark_dirty(int idx, int player) {
  uint8_t& d = g_.is_dirty_[cell(idx, player)];
  if (d) return;
  d = 1;
  g_.dirty_[player].push_back(idx);
}

template <class Counts>
void CandidateCounter<Counts>::update_hole(int idx) {
  const bool hole = !g_.occupied_[size_t(idx)] && g_.empty_nbrs_[size_t(idx)] == 0;
  int32_t& at = g_.hole_at_[size_t(idx)];
  if (hole == (at >= 0)) return;
  if (hole) {
    at = int32_t(g_.holes_.size());
    g_.holes_.push_back(idx);
  } else {
    const int last = g_.holes_.back();
    g_.holes_[size_t(at)] = last;
    g_.hole_at_[size_t(last)] = at;
    g_.holes_.pop_back();
    at = -1;
  }
}

template <class Counts>
void CandidateCounter<Counts>::update_point(int idx, bool occupied) {
  if (g_.occupied_[size_t(idx)] == occupied) return;  // e.g. a stone recolored by setup
  g_.occupied_[size_t(idx)] = occupied;
  for (int player = 0; player < 2; ++player) {
    uint32_t& c = g_.candidate_tally_[cell(idx, player)];
    c = g_.player_positions_[player] - c;
  }
  g_.empty_count_ += occupied ? -1 : 1;
  for (int nb : {idx - stride_, idx + 1, idx + stride_, idx - 1}) {
    if (!on_board_[size_t(nb)]) continue;
    g_.empty_nbrs_[size_t(nb)] = uint8_t(g_.empty_nbrs_[size_t(nb)] + (occupied ? -1 : 1));
    update_hole(nb);
  }
  update_hole(idx);
  // Its cells were left alone while it was occupied.
  if (!occupied)
    for (int player = 0; player < 2; ++player) mark_dirty(idx, player);
}

template <class Counts>
void CandidateCounter<Counts>::end_patterns(int idx, int player, int from_level) {
  const size_t cp = cell(idx, player);
  const size_t base = levels_of(cp);
  const int known = g_.known_[cp];
  if (known < from_level) return;
  uint16_t& mask = g_.counted_levels_[cp];
  const uint16_t below = uint16_t((1u << (from_level - 1)) - 1);
  uint32_t ended = mask & ~below;
  mask &= below;
  if (ended) {
    const uint32_t now = candidate_count(idx, player);
    for (; ended; ended &= ended - 1) {
      const int level = std::countr_zero(ended) + 1;
      const size_t c = base + size_t(level - 1);
      const uint32_t n = now - g_.start_[c];
      if (!n) continue;
      counts_->prefetch_slot(level, g_.slot_[c]);
      seen_queue_.push_back(SeenAdd{g_.slot_[c], level, n});
    }
  }
  set_known(cp, from_level - 1);
}

template <class Counts>
void CandidateCounter<Counts>::stop_after(size_t cp, int level) {
  set_known(cp, level + 1);
  g_.slot_[levels_of(cp) + size_t(level)] = kNotKept;
}

template <class Counts>
void CandidateCounter<Counts>::end_all_patterns() {
  for (int idx : points_)
    for (int player = 0; player < 2; ++player) {
      end_patterns(idx, player, 1);
      mark_dirty(idx, player);
    }
}

template <class Counts>
void CandidateCounter<Counts>::queue_played(int level, int32_t slot, uint32_t played, uint32_t wins) {
  counts_->prefetch_slot(level, slot);
  played_queue_.push_back(PlayedAdd{slot, level, played, wins});
}

template <class Counts>
void CandidateCounter<Counts>::queue_known_played(int m, int player, uint32_t played, uint32_t wins) {
  const size_t cp = cell(m, player);
  for (uint32_t bits = g_.counted_levels_[cp]; bits; bits &= bits - 1) {
    const int level = std::countr_zero(bits) + 1;
    queue_played(level, g_.slot_[levels_of(cp) + size_t(level - 1)], played, wins);
  }
}

template <class Counts>
void CandidateCounter<Counts>::keep_state(int position) {
  if (kept_count_ == kept_.size()) kept_.emplace_back();
  Kept& k = kept_[kept_count_++];
  k.position = position;
  k.game = g_;
  tracker_.save(&k.tracker);
}

template <class Counts>
bool CandidateCounter<Counts>::restore_state(int position, bool last) {
  while (kept_count_ > 0 && kept_[kept_count_ - 1].position > position) --kept_count_;
  if (kept_count_ == 0 || kept_[kept_count_ - 1].position != position) return false;
  Kept& k = kept_[kept_count_ - 1];
  if (last) {
    std::swap(g_, k.game);
    tracker_.take(&k.tracker);
    --kept_count_;
  } else {
    g_ = k.game;
    tracker_.restore(k.tracker);
  }
  // The positions up to this one were counted, for this game too, by the
  // game that kept the state: the patterns alive here begin now.
  for (int idx : points_)
    for (int player = 0; player < 2; ++player) {
      const size_t cp = cell(idx, player);
      const int known = g_.known_[cp];
      if (known == 0) continue;
      const uint32_t now = candidate_count(idx, player);
      const size_t base = levels_of(cp);
      for (int level = 1; level <= known; ++level) g_.start_[base + size_t(level - 1)] = now;
    }
  return true;
}

template <class Counts>
void CandidateCounter<Counts>::apply_queued() {
  for (const SeenAdd& a : seen_queue_) counts_->add_seen(a.level, a.slot, a.n);
  seen_queue_.clear();
  for (const PlayedAdd& a : played_queue_) counts_->add_played(a.level, a.slot, a.played, a.wins);
  played_queue_.clear();
}

template <class Counts>
void CandidateCounter<Counts>::finish_game() {
  end_all_patterns();
  apply_queued();
}

template <class Counts>
void CandidateCounter<Counts>::invalidate_around(int idx) {
  const int qx = idx % stride_ - 1, qy = idx / stride_ - 1;
  // Only the rings up to the highest known level can end a pattern.  The
  // diamond of that radius is visited row by row, clipped to the board
  // once per row rather than tested point by point.
  int top = levels_;
  while (top > 0 && g_.known_cells_[size_t(top)] == 0) --top;
  for (int cy = std::max(0, qy - top); cy <= std::min(size_ - 1, qy + top); ++cy) {
    const int dy = std::abs(cy - qy), reach = top - dy;
    const int row = (cy + 1) * stride_ + 1;
    for (int cx = std::max(0, qx - reach); cx <= std::min(size_ - 1, qx + reach); ++cx) {
      const int d = dy + std::abs(cx - qx);  // 0 at the changed point: no pattern holds it
      const int c = row + cx;
      for (int player = 0; player < 2; ++player)
        if (g_.known_[cell(c, player)] >= d && d > 0) {
          end_patterns(c, player, d);
          mark_dirty(c, player);
        }
    }
  }
}

template <class Counts>
void CandidateCounter<Counts>::after_change(const Board& board, int idx, Color) {
  if (plan_ && number_ < plan_->restore_at) return;  // counted by an earlier game
  tracker_.after_play(board, idx);
  update_point(idx, board.at_index(idx) != Color::Empty);
  for (int r : board.last_removed()) update_point(r, board.at_index(r) != Color::Empty);
  invalidate_around(idx);
  for (int r : board.last_removed()) invalidate_around(r);
}

template <class Counts>
void CandidateCounter<Counts>::before_move(const Board& board, Color mover, Point move, int number) {
  number_ = number;
  uint32_t seen_weight = 1, played_weight = 1, wins_weight = 0;
  if (plan_) {
    if (number < plan_->restore_at) return;  // counted by an earlier game
    if (size_t(number) >= plan_->seen.size()) {
      if (status_.ok()) status_ = Status::Internal("shared positions: the plan is shorter than the game");
      plan_ = nullptr;
      return;
    }
    seen_weight = plan_->seen[size_t(number)];
    played_weight = plan_->played[size_t(number)];
    wins_weight = plan_->wins[size_t(number)];
  } else {
    wins_weight = winner_ == mover ? 1 : 0;
  }
  if (move.is_pass()) return;
  const int m = board.index(move);
  const int player = mover == Color::White ? 1 : 0;
  if (plan_ && number == plan_->restore_at) {
    // This position was counted by the game that kept its state: only the
    // move is this game's.
    if (!restore_state(number, plan_->restore_last)) {
      if (status_.ok()) status_ = Status::Internal("shared positions: no state kept for position " + std::to_string(number));
      plan_ = nullptr;
      return;
    }
    queue_known_played(m, player, played_weight, wins_weight);
    return;
  }
  positions_ += seen_weight;

  // This position counts for every empty point but the illegal holes.
  g_.player_positions_[player] += seen_weight;
  illegal_.clear();
  for (int h : g_.holes_)
    if (!board.is_legal_index(h, mover, allow_suicide_)) {
      g_.candidate_tally_[cell(h, player)] += seen_weight;
      is_illegal_[size_t(h)] = 1;
      illegal_.push_back(h);
    }
  candidates_ += (uint64_t(g_.empty_count_) - illegal_.size()) * seen_weight;

  // The played point's levels known already; its walk adds the others.
  queue_known_played(m, player, played_weight, wins_weight);

  // The dirty cells that are candidates now start their walks; an illegal
  // one waits for a position where it is legal, an occupied one for its
  // stone to go.
  walks_.clear();
  std::vector<int>& dirty = g_.dirty_[player];
  size_t still_dirty = 0;
  for (int idx : dirty) {
    const size_t cp = cell(idx, player);
    if (is_illegal_[size_t(idx)]) {
      dirty[still_dirty++] = idx;
      continue;
    }
    g_.is_dirty_[cp] = 0;
    if (g_.occupied_[size_t(idx)]) continue;
    const int known = g_.known_[cp];
    if (known == levels_) continue;
    if (known > 0) {
      const int32_t top = g_.slot_[levels_of(cp) + size_t(known - 1)];
      if (top == kNotKept) continue;
      if (!counts_->extends(known, top)) {
        stop_after(cp, known);
        continue;
      }
    }
    // Built on the stack and copied: value-initializing the element in
    // place cleared it with `rep stos`, slow to start for 88 bytes.
    Walk w;
    w.idx = idx;
    for (int l = 0; l < known; ++l) tracker_.fold(idx, &w.cursor);
    w.key = tracker_.next_key(idx, mover, &w.cursor);
    counts_->prefetch(w.cursor.level, w.key);
    walks_.push_back(w);
  }
  dirty.resize(still_dirty);
  for (int h : illegal_) is_illegal_[size_t(h)] = 0;
  // The seen additions queued by the stone changes since the last position,
  // while the look-ups' lines are on their way.
  apply_queued();

  // Look up one level of every walking cell per round, until each reaches
  // a level that is not kept (or L).  A pattern found now begins with this
  // position, which its candidate count already includes.
  size_t active = walks_.size();
  if (found_.size() < active) found_.resize(active);
  while (active > 0) {
    for (size_t i = 0; i < active; ++i) found_[i] = counts_->lookup(walks_[i].cursor.level, walks_[i].key);
    size_t next = 0;
    for (size_t i = 0; i < active; ++i) {
      Walk& w = walks_[i];
      const int lv = w.cursor.level;
      const size_t cp = cell(w.idx, player);
      const size_t c = levels_of(cp) + size_t(lv - 1);
      const int32_t s = found_[i];
      set_known(cp, lv);
      if (s < 0) {
        g_.slot_[c] = kNotKept;
        continue;
      }
      g_.slot_[c] = s;
      g_.start_[c] = candidate_count(w.idx, player) - seen_weight;
      if (counts_->counted(lv, s)) {
        g_.counted_levels_[cp] |= uint16_t(1u << (lv - 1));
        if (w.idx == m) queue_played(lv, s, played_weight, wins_weight);
      }
      if (lv == levels_) continue;
      if (!counts_->extends(lv, s)) {
        stop_after(cp, lv);
        continue;
      }
      w.key = tracker_.next_key(w.idx, mover, &w.cursor);
      counts_->prefetch(w.cursor.level, w.key);
      if (next != i) walks_[next] = w;
      ++next;
    }
    active = next;
  }
  if (plan_ && std::binary_search(plan_->keep.begin(), plan_->keep.end(), number)) keep_state(number);
}

template class CandidateCounter<ResidentTable>;
template class CandidateCounter<CatchupTable>;
template class CandidateCounter<NightTable>;

}  // namespace sgfpat

// Pass 2 of the counter for one game at a time: exact seen / played / wins
// of every kept pattern of every candidate of every position.
//
// A candidate's level-i pattern stays the same until a stone changes within
// distance i of it, so instead of touching the counts for every candidate,
// level and position, the counter keeps per (point, player) the number of
// positions so far in which the point was a candidate, and per (point,
// player, level) the slot of the current pattern and that number when the
// pattern began.  When a stone change (or the end of the game) ends the
// pattern, the difference is added to its seen count.  The result is
// identical to incrementing seen at every position, and a position costs
// one increment per candidate whatever the number of levels.
//
// The counts are far bigger than the CPU caches, so memory accesses are
// made in batches whose cache lines are fetched ahead: the look-ups of a
// position go in rounds, one level of every pending candidate per round,
// each key's line prefetched a round ahead; the seen additions of ended
// patterns are queued, their lines prefetched, and applied after the next
// position's candidate scan.  The misses then overlap instead of queueing behind each
// other (an atomic add waits for its line and holds back what follows).
//
// `Counts` is DrainingCounts or ResidentTable: lookup(level, key) -> slot
// or -1 when not kept, extends(level, slot) -> false when the next level
// is surely not kept, prefetch(level, key), prefetch_slot(level, slot),
// add_seen, add_played, and must_drain() (before a position) /
// wants_drain() (after a game) / drain().
#pragma once
#include <cstdint>
#include <vector>

#include "board/replay.h"
#include "core/status.h"
#include "pattern/tracker.h"

namespace sgfpat {

template <class Counts>
class CandidateCounter : public ReplayObserver {
 public:
  CandidateCounter(const KeyScheme& scheme, Counts* counts);

  // Call before replaying `game` with this observer; finish_game() after.
  void start_game(const Game& game);
  void finish_game();
  // The first error of a drain, if any (counting stops being exact then).
  const Status& status() const { return status_; }

  uint64_t positions() const { return positions_; }
  uint64_t candidates() const { return candidates_; }

  void before_move(const Board& board, Color mover, Point move, int number) override;
  void after_change(const Board& board, int idx, Color now) override;

 private:
  static constexpr int32_t kUnknown = -1;  // not looked up since the last change
  static constexpr int32_t kNotKept = -2;

  size_t cell(int idx, int player) const { return (size_t(idx) * 2 + size_t(player)) * size_t(levels_); }
  // Ends the patterns of levels >= ring of the centers around a changed point.
  void invalidate_around(int idx);
  // Ends the patterns of levels >= from_level of (idx, player), queueing
  // their seen additions (their lines are fetched from then on).
  void flush(int idx, int player, int from_level);
  void flush_all();
  // Records that the pattern of level + 1 of cell cp (slots from `base`) is
  // not kept, known without a look-up: no kept pattern extends `level`'s.
  void stop_after(size_t cp, size_t base, int level);
  // Applies the queued seen additions (before any slot can go stale).
  void apply_seen();
  void drain();

  PatternTracker tracker_;
  Counts* counts_;
  Status status_;
  int levels_;
  int size_ = 0;
  int stride_ = 0;
  Color winner_ = Color::Empty;
  bool allow_suicide_ = false;
  std::vector<int> points_;       // on-board indices
  std::vector<int32_t> slot_;     // [idx][player][level-1] -> slot / kUnknown / kNotKept
  std::vector<uint32_t> start_;   // same layout: candidate_count_ when the pattern began
  std::vector<uint32_t> candidate_count_;  // [idx][player]: positions as a candidate, this game
  std::vector<uint8_t> known_;    // [idx][player]: levels 1..known_ have a valid slot_;
                                  // only the last known one can be kNotKept
  struct SeenAdd {
    int32_t slot;
    int32_t level;
    uint64_t n;
  };
  std::vector<SeenAdd> seen_queue_;
  // A candidate of this position whose levels above the known ones need
  // look-ups, paused before looking up `key` (level cursor.level).
  struct Walk {
    PatternTracker::Cursor cursor;
    uint64_t key;
    int idx;
  };
  std::vector<Walk> walks_;
  std::vector<int32_t> found_;    // look-up results of one round
  std::vector<Offset> offsets_;
  std::vector<uint8_t> ring_;
  uint64_t positions_ = 0, candidates_ = 0;
  uint64_t positions_since_drain_ = 0;
};

class DrainingCounts;
class ResidentTable;
extern template class CandidateCounter<DrainingCounts>;
extern template class CandidateCounter<ResidentTable>;

}  // namespace sgfpat

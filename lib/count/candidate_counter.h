// Pass 2 of the counter for one game at a time: exact seen / played / wins
// of every kept pattern of every candidate of every position.
//
// A candidate's level-i pattern stays the same until a stone changes within
// distance i of it, so the counter keeps per (point, player, level) the slot
// of the current pattern and when it began, and adds the number of
// positions in which the point was a candidate since then to the pattern's
// seen count when a stone change (or the end of the game) ends it.  The
// result is identical to incrementing seen at every position.
//
// A position then costs work only where something changed, not for every
// point of the board:
// - a point's number of candidate positions is the player's number of
//   positions minus those in which the point was occupied (settled when
//   its stone comes or goes) or illegal; only an empty point without an
//   empty neighbour ("hole") can be illegal (suicide or ko), so only the
//   holes are tested at each position;
// - only (point, player) cells whose patterns a stone change ended ("dirty")
//   walk their levels up again, looking up each level's pattern until one
//   is not kept.
//
// The counts are far bigger than the CPU caches, so memory accesses are
// made in batches whose cache lines are fetched ahead: the look-ups of a
// position go in rounds, one level of every walking cell per round, each
// key's line prefetched a round ahead; the seen additions of ended patterns
// and the played point's additions are queued, their lines fetched for
// writing (prefetch_slot), and applied after the next walks have been
// started.  The misses then overlap instead of queueing behind each
// other.
//
// `Counts` is ResidentTable or CatchupTable: lookup(level, key) -> slot
// or -1 when not kept, extends(level, slot) -> false when the next level
// is surely not kept, counted(level, slot) -> false when the slot only
// leads on to others, prefetch(level, key), prefetch_slot(level, slot),
// add_seen, add_played.  Slots stay valid from game to game.
#pragma once
#include <cstdint>
#include <vector>

#include "board/replay.h"
#include "core/status.h"
#include "count/shared_positions.h"
#include "pattern/tracker.h"

namespace sgfpat {

template <class Counts>
class CandidateCounter : public ReplayObserver {
 public:
  CandidateCounter(const KeyScheme& scheme, Counts* counts);

  // Call before replaying `game` with this observer; finish_game() after.
  // With a plan (the games of a batch in their order, the plans from
  // plan_shared_positions()), the positions the game shares with the games
  // before it are not counted again, and its other positions count for
  // every game the plan says they stand for.  `plan` must live until
  // finish_game().
  void start_game(const Game& game, const SharedPlan* plan = nullptr);
  // See PatternTracker::set_incremental_rings(); call before a game.
  void set_incremental_rings(int n) { tracker_.set_incremental_rings(n); }
  void finish_game();
  // The first error of a plan (counting stops being exact then).
  const Status& status() const { return status_; }

  uint64_t positions() const { return positions_; }
  uint64_t candidates() const { return candidates_; }

  void before_move(const Board& board, Color mover, Point move, int number) override;
  void after_change(const Board& board, int idx, Color now) override;

 private:
  static constexpr int32_t kNotKept = -2;

  // A (point, player) cell, and the first of its levels_ level entries.
  static size_t cell(int idx, int player) { return size_t(idx) * 2 + size_t(player); }
  size_t levels_of(size_t cp) const { return cp * size_t(levels_); }
  // Positions so far in which the point was a candidate for the player.
  uint32_t candidate_count(int idx, int player) const {
    const uint32_t c = g_.candidate_tally_[cell(idx, player)];
    return g_.occupied_[size_t(idx)] ? c : g_.player_positions_[player] - c;
  }
  void mark_dirty(int idx, int player);
  void set_known(size_t cp, int level) {
    --g_.known_cells_[g_.known_[cp]];
    ++g_.known_cells_[size_t(level)];
    g_.known_[cp] = uint8_t(level);
  }
  // Keeps occupancy, candidate counts and holes in step with a point's stone.
  void update_point(int idx, bool occupied);
  void update_hole(int idx);
  // Ends the patterns of levels >= ring of the centers around a changed point.
  void invalidate_around(int idx);
  // Ends the patterns of levels >= from_level of (idx, player), queueing
  // their seen additions (their lines are fetched from then on).
  void end_patterns(int idx, int player, int from_level);
  // Ends every pattern; every cell walks again at its next position.
  void end_all_patterns();
  // Records that the pattern of level + 1 of cell cp is not kept, known
  // without a look-up: no kept pattern extends `level`'s.
  void stop_after(size_t cp, int level);
  // Queues the played point's addition to `slot`, fetching its line.
  void queue_played(int level, int32_t slot, uint32_t played, uint32_t wins);
  // Queues the additions of the played point m's known levels.
  void queue_known_played(int m, int player, uint32_t played, uint32_t wins);
  // Keeps the state of this position for a later game of the plan.  Out
  // of line, as restore_state(): rare, and before_move() stays small.
  [[gnu::noinline]] void keep_state(int position);
  // The state kept at `position`, with every pattern begun afresh there
  // (its positions so far were counted by the game that kept it); `last`:
  // no later game restores it.  False if no state was kept there.
  [[gnu::noinline]] bool restore_state(int position, bool last);
  // Applies the queued seen and played additions.
  void apply_queued();

  PatternTracker tracker_;
  Counts* counts_;
  Status status_;
  int levels_;
  int size_ = 0;
  int stride_ = 0;
  Color winner_ = Color::Empty;
  bool allow_suicide_ = false;
  std::vector<int> points_;         // on-board indices
  std::vector<uint8_t> on_board_;   // [idx]

  // Everything the positions of a game change, as one value: kept at a
  // position that a later game shares and restored for it (with tracker_).
  struct GameState {
    // Per point.
    std::vector<uint8_t> occupied_;    // this counter's copy of the board
    std::vector<uint8_t> empty_nbrs_;  // empty on-board neighbours
    std::vector<int32_t> hole_at_;     // index in holes_, or -1
    std::vector<int> holes_;           // empty points without an empty neighbour
    int empty_count_ = 0;
    // Per player: positions so far (each weighted by the games it stands
    // for).
    uint32_t player_positions_[2] = {0, 0};
    // Per cell: while the point is empty, player_positions_ minus its
    // candidate count; while occupied, its candidate count (frozen).  A
    // stone coming or going switches between the two, both ways by the
    // same formula.
    std::vector<uint32_t> candidate_tally_;
    std::vector<uint8_t> known_;         // levels 1..known_ have a valid slot_;
                                         // only the last known one can be kNotKept
    // Per cell: bit level - 1 set for the known levels whose slot is
    // counted.  Ending a cell's patterns and the played point's additions
    // visit these levels only: a catch-up's walks pass mostly through
    // chains that lead on but are not counted.
    std::vector<uint16_t> counted_levels_;
    std::vector<uint32_t> known_cells_;  // [level]: cells whose known_ is level
    std::vector<uint8_t> is_dirty_;
    std::vector<int> dirty_[2];  // per player: points whose cell may walk
    // Per cell and level.
    std::vector<int32_t> slot_;    // slot / kNotKept; read at levels 1..known_ only
    std::vector<uint32_t> start_;  // candidate_count() before the pattern began
  };
  GameState g_;
  std::vector<int> illegal_;         // the holes illegal at this position
  std::vector<uint8_t> is_illegal_;  // [idx], during before_move()

  // Sharing positions with the games before (shared_positions.h): the
  // current game's plan, the position being replayed, and the states kept
  // for later games (positions ascending; the vector's size never shrinks,
  // so that a kept state reuses the memory of an older one).
  const SharedPlan* plan_ = nullptr;
  int number_ = 0;
  struct Kept {
    int position = 0;
    GameState game;
    PatternTracker::State tracker;
  };
  std::vector<Kept> kept_;
  size_t kept_count_ = 0;

  struct SeenAdd {
    int32_t slot;
    int32_t level;
    uint64_t n;
  };
  std::vector<SeenAdd> seen_queue_;
  // The played point's additions, queued the same way: its counts' lines
  // are not in the caches when its walk finds them.
  struct PlayedAdd {
    int32_t slot;
    int32_t level;
    uint32_t played;
    uint32_t wins;
  };
  std::vector<PlayedAdd> played_queue_;
  // A cell of this position whose levels above the known ones need
  // look-ups, paused before looking up `key` (level cursor.level).
  struct Walk {
    PatternTracker::Cursor cursor;
    uint64_t key;
    int idx;
  };
  std::vector<Walk> walks_;
  std::vector<int32_t> found_;    // look-up results of one round
  uint64_t positions_ = 0, candidates_ = 0;
};

class ResidentTable;
class CatchupTable;
class NightTable;
extern template class CandidateCounter<ResidentTable>;
extern template class CandidateCounter<CatchupTable>;
extern template class CandidateCounter<NightTable>;

}  // namespace sgfpat

// Pass 2 of the counter for one game at a time: exact seen / played / wins
// of every kept pattern of every candidate of every position.
//
// A candidate's level-i pattern stays the same until a stone changes within
// distance i of it, so instead of touching the count table for every
// candidate, level and position, the counter keeps per (point, player,
// level) the table entry of the current pattern and a pending number of
// positions; the pending number is added to the entry when a stone change
// (or the end of the game) ends that pattern.  The result is identical to
// incrementing seen at every position.
#pragma once
#include <cstdint>
#include <vector>

#include "board/replay.h"
#include "count/count_table.h"
#include "count/kept_filter.h"
#include "pattern/tracker.h"

namespace sgfpat {

class CandidateCounter : public ReplayObserver {
 public:
  CandidateCounter(const KeyScheme& scheme, KeptFilter* filter, CountTable* table);

  // Call before replaying `game` with this observer; finish_game() after.
  void start_game(const Game& game);
  void finish_game();

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
  void flush(int idx, int player, int from_level);

  PatternTracker tracker_;
  KeptFilter* filter_;
  CountTable* table_;
  int levels_;
  int size_ = 0;
  int stride_ = 0;
  Color winner_ = Color::Empty;
  bool allow_suicide_ = false;
  std::vector<int> points_;       // on-board indices
  std::vector<int32_t> slot_;     // [idx][player][level-1] -> table entry / kUnknown / kNotKept
  std::vector<uint32_t> pending_; // same layout: positions not yet added to seen
  std::vector<uint8_t> known_;    // [idx][player]: levels 1..known_ have a valid slot_
  std::vector<Offset> offsets_;
  std::vector<uint8_t> ring_;
  uint64_t positions_ = 0, candidates_ = 0;
};

}  // namespace sgfpat

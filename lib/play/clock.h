// A game's clocks, enforced by the referee: main time, then byo-yomi
// (Japanese: `periods` periods of `byo` each; a move made within a period
// keeps it, a period that runs out is gone, the last one out loses on
// time).  Time is given by the caller in milliseconds (the moment a turn
// began and the moment the move came), so the same moves with the same
// times always give the same clocks: a game's record keeps the time each
// move took and replays its clocks exactly.
#pragma once
#include <cstdint>

#include "core/status.h"
#include "core/types.h"

namespace sgfpat {

struct ClockRules {
  int64_t main_ms = 0;    // main time of each player
  int64_t byo_ms = 0;     // one byo-yomi period (0: none)
  int periods = 0;        // byo-yomi periods
  bool enabled() const { return main_ms > 0 || (byo_ms > 0 && periods > 0); }
};

// OK, or InvalidArgument: negative times, main time over a day, a period
// over an hour, more than 100 periods, or no time at all.
Status check_clock_rules(const ClockRules& r);

class GameClock {
 public:
  struct Side {
    int64_t main_left_ms = 0;
    int periods_left = 0;
  };

  explicit GameClock(ClockRules rules = {});

  const ClockRules& rules() const { return rules_; }
  const Side& side(Color c) const { return c == Color::White ? white_ : black_; }

  // `c` spent `spent_ms` on a move: main time first, then byo-yomi
  // periods.  False when that was more than `c` had (lost on time; the
  // clock then shows nothing left).
  bool charge(Color c, int64_t spent_ms);
  // How long `c` may still think on this move before losing on time.
  int64_t time_left_ms(Color c) const;

 private:
  Side& mutable_side(Color c) { return c == Color::White ? white_ : black_; }
  ClockRules rules_;
  Side black_, white_;
};

}  // namespace sgfpat

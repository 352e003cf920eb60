#include "play/clock.h"

#include <algorithm>

namespace sgfpat {

Status check_clock_rules(const ClockRules& r) {
  if (r.main_ms < 0 || r.byo_ms < 0 || r.periods < 0) return Status::InvalidArgument("clock: times must not be negative");
  if (r.main_ms > 24 * 3600 * 1000LL) return Status::InvalidArgument("clock: main time of at most a day");
  if (r.byo_ms > 3600 * 1000LL) return Status::InvalidArgument("clock: byo-yomi periods of at most an hour");
  if (r.periods > 100) return Status::InvalidArgument("clock: at most 100 byo-yomi periods");
  if (!r.enabled()) return Status::InvalidArgument("clock: no main time and no byo-yomi");
  return Status::OK();
}

GameClock::GameClock(ClockRules rules) : rules_(rules) {
  black_.main_left_ms = white_.main_left_ms = rules.main_ms;
  black_.periods_left = white_.periods_left = rules.byo_ms > 0 ? rules.periods : 0;
}

int64_t GameClock::time_left_ms(Color c) const {
  const Side& s = side(c);
  return s.main_left_ms + (s.periods_left > 0 ? rules_.byo_ms * s.periods_left : 0);
}

bool GameClock::charge(Color c, int64_t spent_ms) {
  spent_ms = std::max<int64_t>(0, spent_ms);
  Side& s = mutable_side(c);
  // All the time left (or more) is too much: the deadline is the moment
  // the time runs out.
  if (spent_ms >= time_left_ms(c)) {
    s.main_left_ms = 0;
    s.periods_left = 0;
    return false;
  }
  const int64_t from_main = std::min(spent_ms, s.main_left_ms);
  s.main_left_ms -= from_main;
  // In byo-yomi: the periods that ran out are gone; the move made within
  // the next one keeps it.
  const int64_t rest = spent_ms - from_main;
  if (rest > 0) s.periods_left -= int(rest / rules_.byo_ms);
  return true;
}

}  // namespace sgfpat

// A time budget in seconds as a point on the steady clock.
#pragma once
#include <chrono>

namespace sgfpat {

// now + `seconds` (> 0), saturated: a budget past what the clock can hold
// (its nanoseconds overflow near 9.2e9 s from its epoch: `--time 1e10`)
// is time_point::max(), never reached, instead of a sum that wraps into
// the past and ends the work at once.
inline std::chrono::steady_clock::time_point deadline_after(double seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point now = Clock::now();
  const double room = std::chrono::duration<double>(Clock::time_point::max() - now).count();
  // Half the room keeps the conversion below clear of rounding up past it.
  if (!(seconds < room / 2)) return Clock::time_point::max();
  return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace sgfpat

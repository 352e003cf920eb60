// The steps a count reports its progress in (CountProgress in recount.h,
// the progress of count_in_parts() in key_parts.h).
#pragma once
#include <cstdint>

namespace sgfpat {

enum class CountStep : uint8_t {
  kSketch = 1,  // pass 1: the sketch of played patterns and the kept set
  kExact,       // pass 2: the exact counts (of a part, when counted in parts)
  kCatchup,     // the catch-up: every stored game's counts of the pending patterns (count/catchup.h)
  kListing,     // counting in parts: the listing of the kept patterns
  kCommit,      // writing the counts into the database (no games)
  kFrontier,    // a night: the frontier index of the counted games' moves (docs/nightly.md)
  kCrossing,    // a night: the patterns that reach min_played (games replayed for their levels above)
};

// What a user reads for `step` ("sketch of played patterns", ...).
const char* count_step_name(CountStep step);

}  // namespace sgfpat

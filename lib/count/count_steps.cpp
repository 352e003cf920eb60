#include "count/count_steps.h"

namespace sgfpat {

const char* count_step_name(CountStep step) {
  switch (step) {
    case CountStep::kSketch: return "sketch of played patterns";
    case CountStep::kExact: return "exact counts";
    case CountStep::kCatchup: return "catch-up of the pending patterns";
    case CountStep::kListing: return "listing the kept patterns";
    case CountStep::kCommit: return "writing the counts";
    case CountStep::kFrontier: return "frontier index of the counted moves";
    case CountStep::kCrossing: return "patterns reaching --min-played";
  }
  return "count";
}

}  // namespace sgfpat

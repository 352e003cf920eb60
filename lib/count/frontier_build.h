// The build of the frontier index (docs/nightly.md) over the counted games:
// what the first night after a full count does before counting its games.
#pragma once
#include <cstdint>
#include <functional>

#include "core/status.h"
#include "count/game_feed.h"
#include "count/kept_keys.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Clears the frontier index of `db`, then indexes every played move of the
// games of `counted` (`total` of them, always in the same order: the stored
// games the current generation counts) under its frontier for the kept set
// K and the pending set `pending` (exact), in sorted runs, and records the
// index built for the current generation.  A kill leaves it recorded as
// not built (the next night builds it again).
//
// K's exact keys are read from the stored counts by groups of levels that
// fit `bytes` beside `pending` (plan_level_groups()), or with `by_level`
// a level at a time, each in two ranges (for tests: the way of the largest
// archives on a small one): one replay of the counted games per group or
// range, each listing the moves whose frontier it holds, and a mark per
// move (count/move_marks.h) saying which are listed when there are
// several.  The runs take what is left of `bytes`.  *passes says how many
// replays it made.  NotSupported when a level does not fit even in parts.
Status build_frontier(PatternDb& db, const GameSource& counted, uint64_t total, const KeyHashSet& pending,
                      int threads, size_t bytes, bool by_level,
                      const std::function<void(uint64_t done, uint64_t total)>& progress, uint64_t* entries,
                      uint64_t* passes);

}  // namespace sgfpat

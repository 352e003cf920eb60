// The build of the frontier index (docs/nightly.md) over the counted games:
// what the first night after a full count does before counting its games.
#pragma once
#include <cstdint>
#include <functional>

#include "core/status.h"
#include "count/game_feed.h"
#include "count/key_hash_set.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Clears the frontier index of `db`, then indexes every played move of the
// games of `counted` (about `total` of them: the stored games the current
// generation counts) under its frontier for the kept set `kept` and the
// pending set `pending` (both exact), in sorted runs of at most `run_bytes`,
// and records the index built for the current generation.  A kill leaves
// it recorded as not built (the next night builds it again).
Status build_frontier(PatternDb& db, const GameSource& counted, uint64_t total, const KeyHashSet& kept,
                      const KeyHashSet& pending, int threads, size_t run_bytes,
                      const std::function<void(uint64_t)>& progress, uint64_t* entries);

}  // namespace sgfpat

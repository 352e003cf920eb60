// Finding a pattern string for keys read from the database by replaying the
// stored games.
#pragma once
#include <cstdint>

#include "core/status.h"
#include "export/pattern_table.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct RepresentativeSearch {
  // true: the table holds every reported pattern (closed under smaller
  // levels), so the walk up the levels of a move stops at the first level
  // not in it.  false: only some keys of some levels are wanted.
  bool closed = true;
  uint64_t max_games = 0;  // 0: no limit
  // Filled in:
  uint64_t games_replayed = 0;
  uint64_t key_mismatches = 0;  // strings whose key did not match (a bug)
  double seconds = 0;
};

// Replays stored games and gives every pattern of `table` the spec string
// of the first played move found with that pattern.  Every reported pattern
// was played (played >= min_played >= 1), so looking at played moves only
// finds them all.  Stops once every string is known.
Status find_representatives(PatternDb& db, PatternTable* table, RepresentativeSearch* search);

}  // namespace sgfpat

// Counting only the games stored since the last count.
//
// The current generation holds the exact counts, over the counted games, of
// every pattern played at least min_played times there ("old kept"), and the
// count-min sketch of every played pattern of those games is saved beside
// it.  For new games:
//  1. their played patterns go into the loaded sketch, which then bounds
//     the played counts over all games; every pattern that may be kept now
//     and was played in a new game is listed (N), exactly as in the first
//     pass of a full count;
//  2. the old kept patterns (their keys and counts) and N go into one
//     resident table, one part of the one driver (count/count_driver.h),
//     and the new games are counted into it: every pattern
//     kept over all games is old kept or in N, with its smaller levels, so
//     its count over the new games is exact;
//  3. the patterns of N that were not old kept (C) were counted in the
//     counted games by no one: a catch-up replays the counted games and
//     counts only C (with the smaller levels that lead to them, taken from
//     the new games' moves where they were played), in small per-thread
//     tables (catchup_table.h), hashing no level above C's largest one;
//  4. the sum is written as a new generation, patterns played fewer than
//     min_played times dropped, with the updated sketch; the switch clears
//     the pending games.
// The result is the generation a full count of all games would write.
#pragma once
#include <string>

#include "count/recount.h"

namespace sgfpat {

// Counts the pending games into a new generation as described above.  Falls
// back to recount() when the saved sketch cannot serve (damaged, too full,
// or the tables would not fit `options.memory_budget`), saying why in
// *full_reason ("" when it counted incrementally).
// Preconditions (ingest/ingest_policy.h plan_count() says kIncremental):
// the current generation counts exactly the stored games that are not
// pending, db.sketch_file() names its sketch, and no other writer runs.
Status count_pending(PatternDb& db, const CountOptions& options, CountSummary* summary, std::string* full_reason);

}  // namespace sgfpat

// A night: counting the games stored since the last count into the current
// generation, at the cost of those games (docs/nightly.md).
//
//  1. the pending set P is loaded as an exact key set; the frontier index F
//     is built when it is not the current generation's (the first night
//     after a full count), a replay of the counted games per group of
//     levels whose exact keys of K fit the budget; K, the kept set of the
//     current generation, is loaded as a filter (count/kept_keys.h);
//  2. the night's games are counted (CandidateCounter over NightTable)
//     through the filter (a thread's table past its share written to a
//     sorted run), and what K lacks is dropped against the stored counts:
//     their counts of K's patterns, exact, as a count from scratch adds
//     them; then each of their moves' frontier (count/frontier.h) and
//     plays of P's patterns are listed, by a replay of their played
//     points against the patterns of K the counting touched and found
//     played, into scratch files by bucket (count/entry_buckets.h);
//  3. a part (a run of buckets) at a time: a frontier whose plays, F's and
//     the night's, reach min_played joins P, with its exact played and
//     wins; the level above it is decided among the same moves (replayed
//     up to the move), and so on up; the moves of joined patterns are
//     indexed again at their new frontier; the part's edits go to sorted
//     runs (store/edit_run.h);
//  4. one atomic commit (PatternDb::commit_night): K's counts added, P's
//     entries, F's entries (the runs merged), the summary, the night's
//     pending marks cleared.  The scratch folder goes.
// After it every reported pattern has its counts over every stored game,
// and P holds exactly the patterns a count from scratch would report
// beside them.  A catch-up (count/catchup.h) makes them reported.
#pragma once
#include <string>

#include "count/recount.h"

namespace sgfpat {

// Counts the pending games as described above.  Falls back to recount()
// where a night cannot serve (the kept set's filter would have fewer than 4
// bits a key in a quarter of the budget; F must be built and one level of
// K's keys does not fit in 64 ranges what P leaves of half of it; two
// stored games share the first 8 bytes of their fingerprints), saying why in *full_reason ("" when it
// counted the night).
// Preconditions (ingest/ingest_policy.h plan_count() says kIncremental):
// the current generation counts exactly the stored games that are not
// pending, and no other writer runs.
Status count_night(PatternDb& db, const CountOptions& options, CountSummary* summary, std::string* full_reason);

}  // namespace sgfpat

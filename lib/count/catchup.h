// The catch-up (docs/nightly.md): the pending patterns, played min_played
// times over the stored games since some night, counted over every stored
// game and made reported.  Afterwards the exports are byte-identical to a
// count from scratch of the same games.
//
// Every stored game is replayed (by opening, shared positions counted
// once) and walks only the chains of smaller levels that lead to a pending
// pattern (stored with it), counting the pending patterns alone in small
// per-thread tables (catchup_table.h).  Their played and wins, known
// exactly since they joined, are checked against the replay's (Internal on
// a difference: a bug, nothing is written).  The counts, the pending set
// emptied and the summary are one atomic commit.  A pending set too large
// for half the budget is caught up in parts (runs of buckets of its keys,
// count/part_range.h), each a replay of every game and a commit of its
// own: after each, the patterns of the parts done are reported (exactly)
// and the others still pending.  The counts so far are recorded after
// each eighth of the games (count/catchup_progress.h): the same command
// after a kill goes on from the last share recorded (in the part it was
// in; the parts done stay done), and a night in between makes the record
// stale (the part starts over).
#pragma once
#include <vector>

#include "count/recount.h"

namespace sgfpat {

struct CatchupResult {
  uint64_t patterns = 0;        // pending patterns made reported
  uint64_t games = 0;           // games counted (all stored games)
  uint64_t resumed_games = 0;   // of those, counted by an earlier run that was killed
  uint64_t parts = 0;           // parts of the pending set counted apart (a replay and a commit each)
  double seconds = 0;
};

// What waits for a catch-up: the pending patterns, per level, and the
// time the oldest of them joined (Unix seconds; 0 when none is pending).
struct PendingSummary {
  uint64_t patterns = 0;
  int64_t since = 0;
  std::vector<uint64_t> per_level;  // index level - 1
};
Status pending_summary(PatternDb& db, PendingSummary* out);

// Precondition: no pending game (a night counted every stored game), no
// other writer.  Nothing to do (OK) when no pattern is pending.
Status catch_up(PatternDb& db, const CountOptions& options, CatchupResult* result);

}  // namespace sgfpat

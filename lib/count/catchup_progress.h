// How far a catch-up got (docs/nightly.md#the-catch-up), recorded in the
// database after each share of the games (PatternDb::save_catchup_progress),
// so that a catch-up run again after a kill goes on from the next share:
// at millions of games a catch-up replays them for many minutes.
//
// The record is encoded here only: a format byte, the facts it was made
// for (the generation, the stored games, a digest of the pending set), how
// many games of the catch-up's order were counted, and the counts so far
// of every pending pattern in (level, key) order.  A record made for
// anything else, of another format or damaged, is not used: the catch-up
// starts over, which costs time, never exactness.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/pattern_db.h"
#include "store/pending_pattern.h"

namespace sgfpat {

struct CatchupProgress {
  uint32_t generation = 0;      // the current generation it counts into
  uint64_t games = 0;           // stored games (every one is replayed)
  uint64_t pending_digest = 0;  // pending_digest() of the pending set
  uint64_t games_done = 0;      // the first games of the order, counted
  std::vector<PatternCounts> counts;  // per pending pattern, in (level, key) order
  friend bool operator==(const CatchupProgress&, const CatchupProgress&) = default;
};

std::string encode_catchup_progress(const CatchupProgress& p);
// False for bytes that are not a whole record of this format.
bool decode_catchup_progress(std::string_view bytes, CatchupProgress* p);

// A digest of the pending set sorted by (level, key): levels, keys, played
// and wins (a night changes one of them, or adds a pattern).
uint64_t pending_digest(const std::vector<PendingPattern>& sorted);

}  // namespace sgfpat

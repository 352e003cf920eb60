// The K stored positions nearest each of a few queries (distance.h), found
// by one pass over every stored game: games are replayed on all threads,
// and each query's distance under each symmetry and colour view is kept up
// to date by one addition per stone that comes or goes.  Memory: per
// thread one game and 2K candidates per query (k_smallest.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/status.h"
#include "search/distance.h"
#include "search/position_hit.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct ScanOptions {
  int k = 10;
  int threads = 2;
  // Called now and then from the scanning threads with games done so far.
  std::function<void(uint64_t games, uint64_t total)> progress;
};

struct ScanStats {
  uint64_t games = 0;      // stored games replayed (of the queries' board sizes)
  uint64_t positions = 0;  // positions compared (before a move)
  uint64_t skipped = 0;    // records that did not decode or replay
};

// hits->at(i): query i's nearest positions, nearest first; ties in distance
// go by game fingerprint, then position number.  Positions are those before
// each move of a stored game (each has a move played next).
Status scan_nearest(PatternDb* db, const std::vector<DistanceQuery>& queries, const ScanOptions& options,
                    std::vector<std::vector<PositionHit>>* hits, ScanStats* stats);

// The order of hits: distance, game, position.
bool hit_less(const PositionHit& a, const PositionHit& b);

}  // namespace sgfpat

// Exact pattern counting over every game stored in a PatternDb.
//
// Pass 1 replays every game and adds each played pattern (every level) to a
// count-min sketch that never under-counts; the patterns whose estimate
// reaches min_played are the kept set.  Pass 2 replays every game again
// and, for each position, walks every candidate's levels upward from 1,
// counting seen / played / wins exactly for each kept pattern and stopping
// at the first level that is not kept.  Since a pattern is played at most
// as often as the smaller patterns inside it, every pattern truly played
// min_played times has all its smaller levels kept, so its counts are exact
// and the reported set {played >= min_played} is closed under smaller
// levels.  Pass 2 is the one counting driver (count/count_driver.h): the
// kept set as one part when it fits the budget, else in parts.  Counts go
// to a new database generation that replaces the old one atomically.
#pragma once
#include <cstdint>
#include <functional>

#include "core/status.h"
#include "count/count_steps.h"
#include "count/played_sketch_file.h"
#include "count/sketch_pass.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct CountProgress {
  CountStep step = CountStep::kSketch;  // kCommit: no games, 0 of 0
  uint64_t games_done = 0;  // in this step
  uint64_t games_total = 0;
  int part = 0;             // counting in parts: the part (from 1), else 0
};

// Pass 1 made while the games were stored (sketch_alongside.h).
struct SketchedGames {
  explicit SketchedGames(int levels) : pass(levels) {}
  PlayedSketch played;  // the sketch, and the items it holds
  SketchPass pass;
  double seconds = 0;   // spent after the last game was stored
  bool used = false;    // set by recount() when it took the pass
  // The pass stands for pass 1 only over exactly the games it sketched: a
  // database that held games before, or a pass that failed (left empty),
  // is sketched again.
  bool covers(uint64_t stored_games) const { return played.sketch && pass.games == stored_games; }
};

struct CountOptions {
  int threads = 2;
  // Bytes, sketch + tables (count/count_budget.h).  A kept set over it is
  // counted in parts (count/key_parts.h), each over its own replay of the
  // games.
  size_t memory_budget = size_t(2) << 30;
  std::function<void(const CountProgress&)> progress;  // from the calling thread
  // When not null and it covers as many games as are stored, pass 1 is
  // taken from here (moved out) instead of replaying the stored games.
  // Precondition: it covers exactly the stored games, with this budget's
  // sketch share at most.
  SketchedGames* sketched = nullptr;
  // A night in its smallest parts, as past the resident size
  // (count/night.h): it builds the frontier index a level at a time (each
  // level in two ranges), writes its counts to a run after every batch of
  // games and crosses its moves a bucket at a time; for
  // tests, on databases small enough to fit.
  bool night_in_smallest_parts = false;
};

// Recounts everything from the stored games and makes it the current
// generation of `db`.
Status recount(PatternDb& db, const CountOptions& options, CountSummary* summary);

}  // namespace sgfpat

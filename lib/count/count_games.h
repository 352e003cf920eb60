// Replaying stored games through a candidate counter (count/candidate_counter.h):
// game by game, or the games of a batch in their order, the positions
// consecutive games share counted once (count/shared_positions.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/game_feed.h"
#include "count/resident_table.h"
#include "count/shared_positions.h"
#include "pattern/key_scheme.h"
#include "store/stored_replay.h"

namespace sgfpat {

// Replays the stored game records of `batch` through `counter` (a
// CandidateCounter), finishing each game.
template <class Counter>
Status count_batch(const std::vector<std::string>& batch, Counter* counter) {
  StoredGame g;
  for (const std::string& rec : batch) {
    Status st = replay_stored(rec, &g, counter);
    if (!st.ok()) return st;
    counter->finish_game();
    if (!counter->status().ok()) return counter->status();
  }
  return Status::OK();
}

// Positions two games share are counted once up to this far into a game;
// each further one the batch's states can hold costs a copy of the state
// (CandidateCounter::start_game()).
inline constexpr int kMaxSharedPositions = 64;

// The same, the games taken in their order and the positions consecutive
// games share counted once (shared_positions.h).
template <class Counter>
Status count_batch_shared(const std::vector<std::string>& batch, Counter* counter) {
  std::vector<Game> games(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    Status st = decode_stored(batch[i], &games[i]);
    if (!st.ok()) return st;
  }
  std::vector<SharedPlan> plans;
  plan_shared_positions(games, kMaxSharedPositions, &plans);
  Board board(19);
  ReplayResult result;
  for (size_t i = 0; i < games.size(); ++i) {
    counter->start_game(games[i], &plans[i]);
    Status st = replay_decoded(games[i], &board, &result, counter);
    if (!st.ok()) return st;
    counter->finish_game();
    if (!counter->status().ok()) return counter->status();
  }
  return Status::OK();
}

// Counts seen / played / wins of every pattern of `table` over the games of
// `source` (about `total` of them), adding to the table's counts.  With
// `share_openings`, consecutive games of a batch share the positions they
// have in common (count_batch_shared()): worth it when the source gives the
// games by opening (games_by_opening()), a loss in any other order.
// Precondition: every pattern to be counted exactly has all its smaller
// levels in the table, marked extended (the walks stop at the first level
// that is not), and the table is not read or written by anyone else.
// `incremental_rings` (0: all) as in PatternTracker::set_incremental_rings().
Status count_resident(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                      ResidentTable* table, const std::function<void(uint64_t)>& progress,
                      std::atomic<uint64_t>* positions, std::atomic<uint64_t>* candidates,
                      int incremental_rings = 0, bool share_openings = false);

}  // namespace sgfpat

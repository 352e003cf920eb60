// Steps shared by the full count (recount.h) and the incremental one
// (incremental.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "count/game_feed.h"
#include "count/kept_set.h"
#include "count/shared_positions.h"
#include "count/resident_table.h"
#include "store/pattern_db.h"
#include "store/stored_replay.h"

namespace sgfpat {

// The steps a count reports its progress in (CountProgress, count_in_parts()).
enum class CountStep : uint8_t {
  kSketch = 1,  // pass 1: the sketch of played patterns and the kept set
  kExact,       // pass 2: the exact counts (of a part, when counted in parts)
  kCatchup,     // incremental: the stored games' counts of newly kept patterns
  kListing,     // counting in parts: the listing of the kept patterns
  kCommit,      // writing the counts into the database (no games)
};

// What a user reads for `step` ("sketch of played patterns", ...).
const char* count_step_name(CountStep step);

// What sketch_played() found.
struct SketchPass {
  explicit SketchPass(int levels) : kept(levels), extended(levels) {}
  KeySet kept;       // patterns whose estimate reached min_played at one of their moves
  KeySet extended;   // the level-below parts of those, at those moves
  bool complete = false;  // false: the sets grew past max_list_bytes and were dropped
  uint64_t games = 0;
  uint64_t items = 0;  // played (level, pattern) items added to the sketch
};

// Adds every level of every played pattern of the games of `source` to
// `sketch`, and lists the patterns whose estimate reaches min_played at
// one of their moves, as do the estimates of all their smaller levels at
// that move.  The sketch never lags a true count, so every
// pattern played min_played times in all (counting what the sketch held
// before) is listed, with its smaller levels marked extended.  The lists
// are dropped (out->complete false) when they would hold more than
// max_list_bytes (0: never kept).
Status sketch_played(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                     CountMinSketch* sketch, unsigned min_played, size_t max_list_bytes, SketchPass* out,
                     const std::function<void(uint64_t)>& progress);

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

// How many levels of one played move (`keys[l - 1]` its level-l key) the
// finished `sketch` may keep: the levels 1..top up to the first of 1..last
// whose estimate is below min_played (a kept pattern's smaller parts were
// played at least as often, so they are kept too).
inline int levels_reaching(const CountMinSketch& sketch, const uint64_t* keys, int last, unsigned min_played) {
  int top = 0;
  while (top < last && sketch.estimate(level_item(top + 1, keys[top])) >= min_played) ++top;
  return top;
}

// Replays the stored game records of `batch` and appends to *keys the
// keys of every played move, L per move (levels 1..L).
Status played_keys(const KeyScheme& scheme, std::span<const std::string> batch, std::vector<uint64_t>* keys);

// Replays the stored game records of `batch` through `counter` (a
// CandidateCounter), finishing each game.
template <class Counter>
Status count_batch(const std::vector<std::string>& batch, Counter* counter) {
  StoredGame g;
  for (const std::string& rec : batch) {
    Status st = replay_stored(rec, &g, counter);
    if (!st.ok()) return st;
    counter->finish_game();
  }
  return Status::OK();
}

// Positions two games share are counted once up to this far into a game;
// each further one the batch's states can hold costs a copy of the state
// (CandidateCounter::start_game()).
inline constexpr int kMaxSharedPositions = 64;

// The same, the games taken in their order and the positions consecutive
// games share counted once (shared_positions.h).  For a Counts whose slots
// stay valid from game to game (ResidentTable, CatchupTable).
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

// The most memory a resident count of these lists (by_level(): distinct
// keys) holds: its table's build (ResidentTable::build_peak_bytes()) or
// its writing by write_resident_counts() on `writers` threads (the whole
// table beside the sorted keys of the `writers` largest levels, 16 bytes
// a pattern).
size_t resident_count_peak_bytes(const std::vector<std::vector<uint64_t>>& keys,
                                 const std::vector<std::vector<uint64_t>>& extended, int writers);
// The same from the lists' sizes (keys[l], extended[l]: level l + 1's),
// for a writing that sorts `writers` levels at once; with
// `level_by_level`, for a table built by ResidentTable::add_level().
size_t resident_count_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended, int writers,
                                 bool level_by_level = false);

// Writes the patterns of `table` of levels >= from_level played at least
// `min_played` times to generation `gen` (one sorted table file).  Says
// how many were dropped (played fewer times) and how many are written per
// level (index level-1; 0 below from_level).
// Precondition: `gen` came from db.begin_generation() and none of these
// patterns was written to it.
Status write_resident_counts(PatternDb& db, uint32_t gen, const ResidentTable& table, unsigned min_played,
                             uint64_t* pruned, std::vector<uint64_t>* per_level, int from_level = 1);

}  // namespace sgfpat

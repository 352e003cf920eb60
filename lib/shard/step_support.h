// What the shard steps (shard_steps.cpp, count_step.cpp) share: opening a
// shard's database, the checks every step makes, and small helpers.  Not
// part of the library's interface.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"
#include "count/game_feed.h"
#include "shard/shard_plan.h"
#include "store/pattern_db.h"

namespace sgfpat::shard_internal {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Size of the file at `path` (0 if there is none).
uint64_t file_bytes(const std::string& path);

// InvalidArgument unless 0 <= shard < plan.shards.
Status check_shard(const ShardPlan& plan, int shard);

// Opens a shard's database (its own games only; nobody else writes it).
// A reader (the steps that only replay its games) can share it with other
// readers: the count tasks of one shard run at the same time.
enum class ShardDbUse { kCreate, kRead };
Status open_shard_db(const ShardPaths& paths, const ShardPlan& plan, int shard, ShardDbUse use, size_t memory_budget,
                     std::unique_ptr<PatternDb>* db, int write_threads = 1);

// The steps that hold the plan's sketch refuse a budget it does not fit.
Status check_sketch_fits(const ShardPlan& plan, size_t memory_budget);

// Every stored game of `db`.
inline GameSource all_games(PatternDb& db) {
  return [&db](const GameVisitor& v) { return db.for_each_game(v); };
}

}  // namespace sgfpat::shard_internal

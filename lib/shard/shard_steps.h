// Counting a corpus in shards, exactly, as separate steps that any
// scheduler can run (each shard step on its own machine, with its own
// memory budget; the combine steps anywhere), all working in one folder of
// a shared file system (layout in shard/shard_plan.h).
//
//   plan             write_plan()            once
//   import  (shard)  import_shard()          stores the shard's games, sketches their played patterns
//   sum-sketches     sum_sketches()          the shards' sketches summed: a sketch of every game
//   kept    (shard)  list_kept()             the shard's played patterns the summed sketch may keep
//   merge-kept       merge_kept()            the union of those lists
//   count   (shard)  count_shard()           exact counts of the union over the shard's games
//                                            (shard/count_step.h)
//                                            (or of one part of it: a task per shard and part)
//   finish           finish_shards()         one ordinary database: every game, the summed counts
//
// Why it is exact (the two passes of count/recount.h, spread over shards):
// every cell of a conservative-update sketch is at least the true count of
// every item mapping to it, so the summed sketch never under-counts a
// pattern's plays over all games.  A pattern played min_played times in
// all is played in some shard, where its estimate then reaches min_played:
// that shard lists it, and its level-below part (played as often, at the
// same moves) as kept and extended.  So the union holds every reported
// pattern with its chain of smaller levels, every shard's walks reach them
// over its own games (seen counts included where a pattern was never
// played), and the sums over shards are the counts over all games.
// Patterns the sketch kept wrongly are dropped at finish, where the summed
// played count is exact.
//
// Every step writes its output under a temporary name and renames it when
// whole, so a step killed at any moment is simply run again.  The import
// step stores games in atomic batches and skips those already stored, so a
// rerun stores exactly what is missing.
//
// The count step is the one counting driver (count/count_driver.h) over the
// shard's games: the union of the kept lists is a kept file, counted whole
// when it fits the shard's budget, else in parts as ingest counts them,
// each over a replay of the shard's games (the kept lists name each
// pattern's bucket of the split level for that).  Only when the levels
// below the split level and one bucket do not fit does the step fail
// (NotSupported).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "core/status.h"
#include "ingest/import_inputs.h"
#include "ingest/importer.h"
#include "shard/shard_plan.h"

namespace sgfpat {

struct ShardRunOptions {
  int threads = 2;
  size_t memory_budget = size_t(2) << 30;  // the whole process's, bytes
  // count: this task counts part `part` (1..parts) of the kept set's 64
  // buckets (parts <= 64); parts == 1: all of it.
  int part = 1, parts = 1;
  // Games done in the current pass (from the calling thread).
  std::function<void(uint64_t)> progress;
  // count: a part (1..parts) of this task's count begins its replay.
  std::function<void(int part, int parts)> on_part;
  // finish: shards whose position indexes are merged at a time (each open
  // shard holds its table files open); the groups' files are then merged
  // by the database.
  int merge_fan_in = 32;
};

// What a step did, for its summary.
struct ShardStepReport {
  uint64_t games = 0;            // games the step went through
  uint64_t records = 0;          // records written (kept or counts files)
  uint64_t bytes_written = 0;    // bytes of the step's output files (databases: on disk)
  uint64_t items = 0;            // played (level, pattern) items
  uint64_t positions = 0, candidates = 0;
  uint64_t kept_keys = 0;        // count, finish: patterns of the union
  uint64_t parts = 0;            // count: parts the union was counted in (1: whole)
  uint64_t pruned = 0;           // finish: counted, but played < min_played
  std::vector<uint64_t> patterns_per_level;  // finish: reported
  ImportStats import;            // import
  uint64_t input_errors = 0;     // import
  bool sketched_during_import = false;  // import: the sketch made while the games were stored
  double seconds = 0;
};

Status import_shard(const ShardPaths& paths, const ShardPlan& plan, int shard, const ShardRunOptions& options,
                    const InputCallbacks& callbacks, ShardStepReport* report);
Status sum_sketches(const ShardPaths& paths, const ShardPlan& plan, ShardStepReport* report);
Status list_kept(const ShardPaths& paths, const ShardPlan& plan, int shard, const ShardRunOptions& options,
                 ShardStepReport* report);
Status merge_kept(const ShardPaths& paths, const ShardPlan& plan, ShardStepReport* report);
// Makes the database at `db_path` (which must not exist, or be an empty
// folder): it is built at "<db_path>.partial" (a leftover of a killed
// finish is removed first) and renamed when complete.
Status finish_shards(const ShardPaths& paths, const ShardPlan& plan, const std::string& db_path,
                     const ShardRunOptions& options, ShardStepReport* report);

}  // namespace sgfpat

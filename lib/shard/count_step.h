// The count step of a sharded count (shard/shard_steps.h lists the steps):
// exact counts of the union of the shards' kept lists over one shard's
// games, through the one counting driver (count/count_driver.h), the
// union's kept file counted in parts that fit the step's budget.
#pragma once
#include "core/status.h"
#include "shard/shard_plan.h"
#include "shard/shard_steps.h"

namespace sgfpat {

// Counts this task's part (options.part of options.parts: a run of the 64
// buckets of the kept file, the first with the base) of the union
// `paths.kept()` over the games of shard `shard`, into
// paths.shard_counts(shard) (one task) or paths.shard_counts_part() (one
// of several), removing the counts files of other splits.  NotSupported
// when the base and one bucket do not fit the step's --memory-mb.
Status count_shard(const ShardPaths& paths, const ShardPlan& plan, int shard, const ShardRunOptions& options,
                   ShardStepReport* report);

}  // namespace sgfpat

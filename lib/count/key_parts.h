// A full count whose kept set does not fit the memory budget: the kept set
// listed once into a kept file, then counted in parts (count/count_driver.h),
// runs of buckets read back from the file, each over its own replay of the
// games, each written into the new generation and recorded when done.
//
// The kept set is listed by one replay of the played moves (each level
// asked of the finished sketch of pass 1) into a kept file on disk
// (count/kept_file.h) whose patterns are known per level and bucket of the
// split level: the parts are then runs of buckets sized exactly
// (plan_parts(), count/part_sources.h), and each costs one counting replay,
// with its table read from the file.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "count/count_steps.h"
#include "count/game_feed.h"
#include "count/part_range.h"
#include "count/parts_progress.h"
#include "count/played_sketch_file.h"
#include "count/sketch.h"
#include "store/count_summary.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Lists the patterns the finished `sketch` keeps, as sketch_played() lists
// them (a move lists its levels up to the first whose estimate is below
// min_played): the base of every move, and the levels above it of the
// moves whose split-level pattern is at or after `from` (its part_hash()).
// The lists are written out as sorted kept files (`prefix`.run-N, named in
// *runs) whenever they pass max_list_bytes, and runs are merged
// kept_merge_fan_in(max_list_bytes) at a time while the lists are empty.
Status list_kept_runs(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                      const CountMinSketch& sketch, unsigned min_played, uint64_t from, size_t max_list_bytes,
                      const std::string& prefix, std::vector<std::string>* runs,
                      const std::function<void(uint64_t)>& progress);

// Merges the kept files `runs` into the kept file `path` (a run alone is
// renamed), removing them, in merges that fit `bytes`.
Status merge_kept_runs(std::vector<std::string> runs, int levels, size_t bytes, const std::string& path);

// How many kept files a merge within `bytes` reads at once (2..32).
int kept_merge_fan_in(size_t bytes);

// Counts every stored game of `db` into generation `gen` in parts, through
// the one driver (count/count_driver.h): the kept set is listed into a kept
// file in `sketch_path`.parts/ (removed at the end), by one replay with the
// sketch of pass 1 (`played`, saved at `sketch_path`) in memory, within
// `budget_bytes` (count/count_budget.h) beside the lists; the sketch is
// then freed, and the parts, runs of buckets that fit the budget
// (plan_parts()), are counted one after the other, each written into `gen`
// when done.  `played->sketch` must be loaded on entry, unless `resume`
// finds the kept file done (it is freed either way).  progress(step, part,
// games) reports kListing (with the first part it lists for) and kExact
// (counting a part).  NotSupported when even the base and one bucket do
// not fit the budget.
//
// The parts' tallies (parts, kept_keys = counted, pruned,
// patterns_per_level, positions, candidates, seconds_listing) are kept in
// *summary, and after each part the progress (where the next part starts,
// and *summary with the time of pass 2 so far) is recorded in `db`
// (PatternDb::save_count_progress).  With `resume` (such a record of this
// `gen`, these games and this sketch; *summary must then be its summary),
// the key space it says is counted is skipped: its counts are in `gen`
// already, and only the rest is listed, or not even that when the
// interrupted run finished its kept file (a kill leaves it in the folder).
// A part that was being written when the run was interrupted is counted
// again: its keys get the same counts.
Status count_in_parts(PatternDb& db, uint32_t gen, PlayedSketch* played, const std::string& sketch_path, int threads,
                      size_t budget_bytes, const PartsProgress* resume,
                      const std::function<void(CountStep, int, uint64_t)>& progress, CountSummary* summary);

}  // namespace sgfpat

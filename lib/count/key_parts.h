// Counting a kept set bigger than the memory budget in parts, each part
// counted resident over its own replay of the games.
//
// A move's patterns of levels >= kSplitLevel belong to the part of their
// level-kSplitLevel pattern (a range of its hashed key); the smaller levels
// (the "base": 45 + 104k patterns at levels 1-2 for all 616k Tygem games)
// are in every part's table.  The walks of pass 2 go up a candidate's
// levels, so in a part's table a walk stops at a split-level pattern of
// another part, and every pattern of the part is reached with all its
// smaller levels (they share its split-level pattern): the counts of a part
// are exactly those a single resident table would have.  Level 3 has the
// most patterns of all levels (6M of 29.6M kept at 616k games), so parts cut
// that fine stay balanced.
//
// The kept set is listed once, by one replay of the played moves (each
// level asked of the sketch of pass 1), into a kept file on disk
// (count/kept_file.h) whose patterns are known per level and bucket of the
// split level: the parts are then runs of buckets sized exactly, and each
// costs one counting replay, with its table read from the file.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "count/count_steps.h"
#include "count/part_range.h"
#include "count/parts_progress.h"
#include "count/played_sketch_file.h"
#include "count/recount.h"
#include "count/sketch.h"
#include "store/count_summary.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Beyond this many parts the draining tables cost less than the replays.
inline constexpr int kMaxParts = 64;
// The share of the budget a part is sized for: its size is exact, but the
// table's arrays are rounded up to huge pages and the counting threads
// have their own buffers.
inline constexpr double kPartFill = 0.95;

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

// Counts every stored game of `db` into generation `gen` in parts of at
// most `part_bytes` each, writing each part's counts as it is done.  The
// sketch of pass 1 (`played`, saved at `sketch_path`) is in memory while
// the kept set is listed, within `part_bytes` beside the lists, and freed
// before the parts are counted; the kept file lies in `sketch_path`.parts/,
// removed at the end.  `played->sketch` must be loaded on entry; on return
// it is loaded when *fitted is false, maybe not otherwise.
// progress(step, part, games) reports kListing (with the first part it
// lists for) and kExact (counting a part).  When *fitted is false (the
// listing has less than 1.5 MB beside the sketch, or the base with one
// bucket of the others does not fit, or a resumed count would pass
// kMaxParts parts in all), `gen` may hold parts and `db` their progress:
// the caller counts another way after begin_generation(), which clears
// both.
//
// The parts' tallies (parts, kept_keys = counted, pruned,
// patterns_per_level, positions, candidates, seconds_listing) are kept in
// *summary, and after each part the progress (where the next part starts,
// and *summary with the time of pass 2 so far) is recorded in `db`
// (PatternDb::save_count_progress).  With `resume` (such a record of this
// `gen`, these games and this sketch; *summary must then be its summary),
// the key space it says is counted is skipped: its counts are in `gen`
// already, and only the rest is listed, or not even that when the
// interrupted run finished its kept file (a kill leaves it in the folder).  A part that was being written when
// the run was interrupted is counted again: its keys get the same counts.
Status count_in_parts(PatternDb& db, uint32_t gen, PlayedSketch* played, const std::string& sketch_path, int threads,
                      size_t part_bytes, const PartsProgress* resume,
                      const std::function<void(CountStep, int, uint64_t)>& progress, CountSummary* summary,
                      bool* fitted);

}  // namespace sgfpat

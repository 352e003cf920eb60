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
// A part costs a listing replay (the played moves only, each level asked
// of the sketch of pass 1) and a counting replay.  The ranges are chosen as
// the run goes: a part whose lists or table would not fit is listed again
// with a smaller range, and each next range is sized by what the last one
// held.
#pragma once
#include <cstdint>
#include <functional>

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
// The share of the budget a part's range is sized for, from the last
// part's patterns per key-space width.
inline constexpr double kPartFill = 0.85;

// Memory to count `kept` patterns resident, `extended` of them marked so,
// with the whole lists they are built from beside the table: a coarser
// measure than resident_count_peak_bytes() (no per-level sizes needed),
// for first guesses.
size_t part_bytes_for(size_t kept, size_t extended);

// Lists the patterns of `range` (and the base) as sketch_played() lists
// all of them, asking the finished `sketch` instead of filling it: a move
// lists its levels up to the first whose estimate is below min_played.
// out->complete is false when the lists would outgrow max_list_bytes (the
// rest of the games is then skipped); out->listed_bytes is the lists'
// memory at the end.  `base_bytes` is the base levels' table
// (ResidentTable::bytes_for() of each), which every part holds.
Status list_part(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                 const CountMinSketch& sketch, unsigned min_played, const PartRange& range, size_t max_list_bytes,
                 SketchPass* out, size_t* base_bytes, const std::function<void(uint64_t)>& progress);

// Counts every stored game of `db` into generation `gen` in parts of at
// most `part_bytes` each, writing each part's counts as it is done.  The
// sketch of pass 1 (`played`, saved at `sketch_path`) counts within
// `part_bytes` while a part is listed and is freed while it is counted, so
// that a part's table has its memory too; it is loaded again from the file
// for the next listing.  `played->sketch` must be loaded on entry; on
// return it is loaded when *fitted is false, maybe not otherwise.
// `expected_bytes` (0: unknown) guesses what counting every part at once
// would need, to size the first range.  progress(pass, part, games)
// reports pass 4 (listing) and 2 (counting) of each part.  When *fitted is
// false (even the base, or one split-level pattern, does not fit, or more
// than kMaxParts parts would be needed), `gen` may hold parts and `db`
// their progress: the caller counts another way after begin_generation(),
// which clears both.
//
// The parts' tallies (parts, part_relists, kept_keys = counted, pruned,
// patterns_per_level, positions, candidates, seconds_listing) are kept in
// *summary, and after each part the progress (the next range, and
// *summary with the time of pass 2 so far) is recorded in `db`
// (PatternDb::save_count_progress).  With `resume` (such a record of this
// `gen`, these games and this sketch; *summary must then be its summary),
// the ranges it says are counted are skipped: their counts are in `gen`
// already.  A part that was being written when the run was interrupted is
// counted again: its keys get the same counts.
Status count_in_parts(PatternDb& db, uint32_t gen, PlayedSketch* played, const std::string& sketch_path, int threads,
                      size_t part_bytes, size_t expected_bytes, const PartsProgress* resume,
                      const std::function<void(int, int, uint64_t)>& progress, CountSummary* summary,
                      bool* fitted);

}  // namespace sgfpat

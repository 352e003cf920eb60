// K, the kept set of the current generation, read from its stored counts
// (the patterns played at least min_played times), for a night
// (docs/nightly.md): as a filter of every level (the night's counting
// walks), as exact keys of some levels (the frontier index's build), and
// as the judge of which patterns a night counted through the filter K
// holds.
#pragma once
#include <cstdint>
#include <tuple>
#include <vector>

#include "core/status.h"
#include "count/key_filter.h"
#include "count/key_hash_set.h"
#include "count/part_range.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Adds the keys of K's levels first..last (1-based) that are in `range`
// (part_hash() of the key) to *kept, a level per thread.  Corruption when a
// level holds other than the summary's number of patterns
// (PatternDb::for_each_count()).
Status load_kept_keys(PatternDb& db, int first, int last, int threads, KeyHashSet* kept, PartRange range = {});

// Fills *filter (as many levels as the scheme) with every level of K at
// `bits_per_key`, a level per thread.  Corruption as load_kept_keys().
Status load_kept_filter(PatternDb& db, unsigned bits_per_key, int threads, KeyFilter* filter);

// Levels first..last of K, or one level's keys in `parts` ranges of
// part_hash() (PartRange::share(p, parts)).
struct LevelGroup {
  int first = 1, last = 1;
  int parts = 1;
};
// Consecutive groups covering levels 1..sizes.size() (sizes[l - 1]: K's
// keys at level l), each as large as fits: its exact keys within `bytes`,
// a level too large alone in the fewest ranges that fit (at most 64).
// Empty when even that does not fit.
std::vector<LevelGroup> plan_level_groups(const std::vector<uint64_t>& sizes, size_t bytes);

using LevelCounts = std::vector<std::tuple<int, uint64_t, PatternCounts>>;
// Keeps in *counts (sorted by level, then key, each pattern once) only the
// patterns K holds, read level by level beside it (a level per thread; a
// level *counts has none of is not read); *dropped says how many went.
// Corruption as load_kept_keys().
Status keep_only_kept(PatternDb& db, int threads, LevelCounts* counts, uint64_t* dropped);

}  // namespace sgfpat

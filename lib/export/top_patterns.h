// The most played patterns of one level of a database (`sgfpat stats`).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "store/pattern_db.h"

namespace sgfpat {

struct TopPattern {
  uint64_t key = 0;
  PatternCounts counts;
};

// More played first; ties by more seen, then by the smaller key (keys of a
// level are distinct, so the order is total and the list is stable).
bool played_more(const TopPattern& a, const TopPattern& b);

// The `n` first patterns of `level` in played_more() order among those
// played at least `min_played` times (the patterns the database reports),
// in that order, and in *reported how many patterns of the level those are.
// One pass over the level's counts in O(n) memory (search/k_smallest.h).
Status most_played_patterns(PatternDb& db, int level, uint64_t min_played, size_t n, std::vector<TopPattern>* out,
                            uint64_t* reported);

}  // namespace sgfpat

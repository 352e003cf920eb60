#include "export/top_patterns.h"

#include "search/k_smallest.h"

namespace sgfpat {

bool played_more(const TopPattern& a, const TopPattern& b) {
  if (a.counts.played != b.counts.played) return a.counts.played > b.counts.played;
  if (a.counts.seen != b.counts.seen) return a.counts.seen > b.counts.seen;
  return a.key < b.key;
}

Status most_played_patterns(PatternDb& db, int level, uint64_t min_played, size_t n, std::vector<TopPattern>* out,
                            uint64_t* reported) {
  out->clear();
  *reported = 0;
  // "Smallest" in played_more() order: the most played.
  KSmallest<TopPattern, bool (*)(const TopPattern&, const TopPattern&)> top(n, played_more);
  Status st = db.for_each_count(level, [&](int, uint64_t key, const PatternCounts& c) {
    if (c.played < min_played) return true;
    ++*reported;
    top.offer(TopPattern{key, c});
    return true;
  });
  if (!st.ok()) return st;
  *out = top.sorted();
  return Status::OK();
}

}  // namespace sgfpat

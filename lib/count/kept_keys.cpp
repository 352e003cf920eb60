#include "count/kept_keys.h"

#include <algorithm>

#include "core/tasks.h"

namespace sgfpat {

namespace {
// Runs visit over K's patterns of each level, a level per task.
Status for_each_kept(PatternDb& db, int first, int last, int threads,
                     const std::function<void(int, uint64_t)>& visit, const std::string& context) {
  const uint64_t min_played = uint64_t(db.settings().min_played);
  if (last < first) return Status::OK();
  for (const Status& s : run_tasks(
           size_t(last - first + 1), std::min(threads, last - first + 1),
           [&](size_t i) {
             return db.for_each_count(first + int(i), [&](int lv, uint64_t key, const PatternCounts& c) {
               if (c.played >= min_played) visit(lv, key);
               return true;
             });
           },
           context))
    if (!s.ok()) return s;
  return Status::OK();
}

uint64_t size_at(const std::vector<uint64_t>& sizes, int level) {
  return size_t(level - 1) < sizes.size() ? sizes[size_t(level - 1)] : 0;
}
}  // namespace

Status load_kept_keys(PatternDb& db, int first, int last, int threads, KeyHashSet* kept, PartRange range) {
  const std::vector<uint64_t>& sizes = db.summary().patterns_per_level;
  const long double share = ((long double)(range.hi - range.lo) + 1) / 18446744073709551616.0L;
  for (int l = first; l <= last; ++l) kept->reserve(l, size_t((long double)size_at(sizes, l) * share * 1.05L) + 16);
  // Each level of the set is written by one thread only (its room made first).
  return for_each_kept(
      db, first, last, threads,
      [&](int lv, uint64_t key) {
        if (range.contains(key)) kept->insert(lv, key);
      },
      "reading the kept patterns");
}

Status load_kept_filter(PatternDb& db, unsigned bits_per_key, int threads, KeyFilter* filter) {
  const std::vector<uint64_t>& sizes = db.summary().patterns_per_level;
  for (int l = 1; l <= filter->levels(); ++l) filter->reserve(l, size_t(size_at(sizes, l)), bits_per_key);
  return for_each_kept(db, 1, filter->levels(), threads, [&](int lv, uint64_t key) { filter->add(lv, key); },
                       "reading the kept patterns into a filter");
}

std::vector<LevelGroup> plan_level_groups(const std::vector<uint64_t>& sizes, size_t bytes) {
  constexpr int kMaxParts = 64;
  std::vector<LevelGroup> groups;
  const int levels = int(sizes.size());
  // A range's keys vary around their share: room for 5% more.
  auto set_bytes = [&](int l, int parts) {
    return KeyHashSet::bytes_for(size_t(size_at(sizes, l) * 105 / 100 / uint64_t(parts)) + 16);
  };
  for (int first = 1; first <= levels;) {
    size_t used = set_bytes(first, 1);
    if (used > bytes) {
      int parts = 2;
      while (parts <= kMaxParts && set_bytes(first, parts) > bytes) ++parts;
      if (parts > kMaxParts) return {};
      groups.push_back({first, first, parts});
      ++first;
      continue;
    }
    int last = first;
    while (last < levels && used + set_bytes(last + 1, 1) <= bytes) used += set_bytes(++last, 1);
    groups.push_back({first, last, 1});
    first = last + 1;
  }
  return groups;
}

Status keep_only_kept(PatternDb& db, int threads, LevelCounts* counts, uint64_t* dropped) {
  *dropped = 0;
  const int levels = db.settings().scheme.levels;
  // Where each level's run starts in *counts.
  std::vector<size_t> begin(size_t(levels) + 2, counts->size());
  for (size_t i = counts->size(); i-- > 0;) begin[size_t(std::get<0>((*counts)[i]))] = i;
  for (int l = levels; l >= 1; --l) begin[size_t(l)] = std::min(begin[size_t(l)], begin[size_t(l) + 1]);
  std::vector<char> keep(counts->size(), 0);
  const uint64_t min_played = uint64_t(db.settings().min_played);
  for (const Status& s : run_tasks(
           size_t(levels), std::min(threads, levels),
           [&](size_t i) {
             const int level = int(i) + 1;
             size_t at = begin[size_t(level)];
             const size_t end = begin[size_t(level) + 1];
             if (at == end) return Status::OK();  // none of this level: K's not read
             // Both in key order: a merge-join.
             return db.for_each_count(level, [&](int, uint64_t key, const PatternCounts& c) {
               while (at < end && std::get<1>((*counts)[at]) < key) ++at;
               if (at < end && std::get<1>((*counts)[at]) == key && c.played >= min_played) keep[at] = 1;
               return true;
             });
           },
           "checking the night's patterns against the kept patterns"))
    if (!s.ok()) return s;
  size_t out = 0;
  for (size_t i = 0; i < counts->size(); ++i)
    if (keep[i]) (*counts)[out++] = (*counts)[i];
  *dropped = counts->size() - out;
  counts->resize(out);
  return Status::OK();
}

}  // namespace sgfpat

#include "ingest/ingest_policy.h"

#include <algorithm>

#include "store/pattern_db.h"

namespace sgfpat {

MemorySplit split_memory(size_t budget) {
  MemorySplit m;
  m.db_bytes = std::min(budget / 8, size_t(256) << 20);
  m.count_bytes = budget - m.db_bytes - std::min(kIngestFixedBytes, budget / 2);
  m.position_run_bytes = m.count_bytes / 2;
  m.tight = budget < kIngestRecommendedBytes;
  return m;
}

void give_db_memory(const MemorySplit& m, OpenOptions* open) {
  open->memory_bytes = m.db_bytes;
  open->position_run_bytes = m.position_run_bytes;
}

bool counts_stale(const CountState& s) {
  if (s.stored_games == 0) return false;
  return s.recount_requested || s.generation == 0 || s.counted_games != s.stored_games;
}

}  // namespace sgfpat

namespace sgfpat {

CountPlan plan_count(const CountState& s, std::string* reason) {
  reason->clear();
  if (!counts_stale(s)) return CountPlan::kUpToDate;
  auto full = [&](const char* why) {
    *reason = why;
    return CountPlan::kFull;
  };
  if (s.recount_requested) return full("--recount");
  if (s.generation == 0) return full("never counted");
  if (s.counted_games + s.pending_games != s.stored_games)
    return full("the counts do not say which stored games they cover (counted by an older sgfpat?)");
  if (!s.has_sketch) return full("no sketch of played patterns (counted by an older sgfpat)");
  *reason = std::to_string(s.pending_games) + " new games";
  return CountPlan::kIncremental;
}

}  // namespace sgfpat

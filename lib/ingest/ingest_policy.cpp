#include "ingest/ingest_policy.h"

#include <algorithm>

namespace sgfpat {

MemorySplit split_memory(size_t budget) {
  MemorySplit m;
  m.db_bytes = std::min(budget / 8, size_t(256) << 20);
  m.count_bytes = budget - m.db_bytes - std::min(kIngestFixedBytes, budget / 2);
  m.tight = budget < kIngestRecommendedBytes;
  return m;
}

bool counts_stale(const CountState& s) {
  if (s.stored_games == 0) return false;
  return s.recount_requested || s.generation == 0 || s.counted_games != s.stored_games;
}

}  // namespace sgfpat

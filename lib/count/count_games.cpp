#include "count/count_games.h"

#include "count/candidate_counter.h"

namespace sgfpat {

Status count_resident(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                      ResidentTable* table, const std::function<void(uint64_t)>& progress,
                      std::atomic<uint64_t>* positions, std::atomic<uint64_t>* candidates, int incremental_rings,
                      bool share_openings) {
  return feed_games(
      source, total, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        CandidateCounter<ResidentTable> counter(scheme, table);
        if (incremental_rings > 0) counter.set_incremental_rings(incremental_rings);
        Status st = share_openings ? count_batch_shared(batch, &counter) : count_batch(batch, &counter);
        if (!st.ok()) return st;
        *positions += counter.positions();
        *candidates += counter.candidates();
        return Status::OK();
      },
      progress);
}

}  // namespace sgfpat

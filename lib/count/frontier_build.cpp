#include "count/frontier_build.h"

#include <algorithm>
#include <mutex>

#include "count/frontier.h"

namespace sgfpat {

Status build_frontier(PatternDb& db, const GameSource& counted, uint64_t total, const KeyHashSet& kept,
                      const KeyHashSet& pending, int threads, size_t run_bytes,
                      const std::function<void(uint64_t)>& progress, uint64_t* entries) {
  *entries = 0;
  Status st = db.clear_frontier();
  if (!st.ok()) return st;
  const KeyScheme& scheme = db.settings().scheme;
  const size_t run_limit = std::max<size_t>(1 << 16, run_bytes / sizeof(FrontierEntry));
  std::mutex mu;
  std::vector<FrontierEntry> run;
  // A full run is sorted and written by the thread that filled it, the
  // others waiting: the writing is the database's, one file at a time.
  auto write_run = [&]() -> Status {
    std::sort(run.begin(), run.end());
    Status s = db.add_frontier_run(run);
    *entries += run.size();
    run.clear();
    return s;
  };
  st = feed_games(
      counted, total, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        std::vector<FrontierEntry> mine;
        Status s = frontier_entries(scheme, batch, kept, &mine, &pending);
        if (!s.ok()) return s;
        std::lock_guard<std::mutex> lock(mu);
        run.insert(run.end(), mine.begin(), mine.end());
        return run.size() >= run_limit ? write_run() : Status::OK();
      },
      progress);
  if (st.ok() && !run.empty()) st = write_run();
  std::vector<FrontierEntry>().swap(run);
  if (!st.ok()) return st;
  return db.finish_frontier(db.generation());
}

}  // namespace sgfpat

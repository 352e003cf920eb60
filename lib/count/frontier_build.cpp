#include "count/frontier_build.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "core/fail_point.h"
#include "count/frontier.h"

namespace sgfpat {

namespace {
// One replay of the counted games: the moves `pass` lists, written in sorted runs of at most `run_bytes`.
Status index_group(PatternDb& db, const GameSource& counted, uint64_t total, const KeyHashSet& kept,
                   const KeyHashSet& pending, const FrontierPass& pass, int threads, size_t run_bytes,
                   const std::function<void(uint64_t)>& progress, uint64_t* entries) {
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
  Status st = feed_games(
      counted, total, threads,
      [&](int, std::vector<std::string>& batch, uint64_t first) -> Status {
        std::vector<FrontierEntry> mine;
        FrontierPass here = pass;
        here.first_game = first;
        Status s = frontier_entries(scheme, batch, kept, &mine, &pending, nullptr, &here);
        if (!s.ok()) return s;
        std::lock_guard<std::mutex> lock(mu);
        run.insert(run.end(), mine.begin(), mine.end());
        return run.size() >= run_limit ? write_run() : Status::OK();
      },
      progress);
  if (st.ok() && !run.empty()) st = write_run();
  return st;
}
}  // namespace

Status build_frontier(PatternDb& db, const GameSource& counted, uint64_t total, const KeyHashSet& pending,
                      int threads, size_t bytes, bool by_level,
                      const std::function<void(uint64_t, uint64_t)>& progress, uint64_t* entries,
                      uint64_t* passes) {
  *entries = *passes = 0;
  const int levels = db.settings().scheme.levels;
  // Every level of the scheme gets its passes, whatever the summary lists.
  std::vector<uint64_t> sizes = db.summary().patterns_per_level;
  sizes.resize(size_t(levels), 0);
  if (pending.bytes() >= bytes)
    return Status::NotSupported("the pending patterns do not leave the frontier index's build room in the budget");
  size_t free = bytes - pending.bytes();
  auto replays_of = [](const std::vector<LevelGroup>& groups) {
    uint64_t n = 0;
    for (const LevelGroup& g : groups) n += uint64_t(g.parts);
    return n;
  };
  auto without_marks = [&] { free = free > MoveMarks::bytes_for(total) ? free - MoveMarks::bytes_for(total) : 0; };
  std::vector<LevelGroup> groups;
  if (by_level) {
    for (int l = 1; l <= levels; ++l) groups.push_back({l, l, 2});
    without_marks();
  } else {
    groups = plan_level_groups(sizes, free);
    // Several replays need the marks: the room for the keys is smaller.
    if (replays_of(groups) > 1) {
      without_marks();
      groups = plan_level_groups(sizes, free);
    }
  }
  if (groups.empty())
    return Status::NotSupported("a level of the kept patterns does not fit the memory budget as a key set");
  const uint64_t replays = replays_of(groups);
  std::unique_ptr<MoveMarks> marks;
  if (replays > 1) marks = std::make_unique<MoveMarks>(total);
  Status st = db.clear_frontier();
  if (!st.ok()) return st;
  constexpr size_t kMinRun = size_t(64) << 20;  // when the sets leave nothing
  for (const LevelGroup& g : groups)
    for (int part = 0; part < g.parts; ++part) {
      FrontierPass pass;
      pass.first = g.first;
      pass.last = g.last;
      pass.range = PartRange::share(part, g.parts);
      pass.listed = marks.get();
      KeyHashSet set(levels);
      st = load_kept_keys(db, g.first, g.last, threads, &set, pass.range);
      if (!st.ok()) return st;
      const size_t run_bytes = free > set.bytes() ? free - set.bytes() : kMinRun;
      const uint64_t before = *passes;
      st = index_group(db, counted, total, set, pending, pass, threads, run_bytes,
                       [&](uint64_t done) { progress(before * total + done, replays * total); }, entries);
      if (!st.ok()) return st;
      ++*passes;
      fail_point("frontier.pass_done");
    }
  return db.finish_frontier(db.generation());
}

}  // namespace sgfpat

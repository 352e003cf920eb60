// What the candidate counter counts into when the kept patterns do not all
// fit in memory: a per-thread CountTable that learns the kept patterns
// from the pass-1 sketch as they come, and is drained into the database
// (as partial sums) whenever it fills.
#pragma once
#include <functional>

#include "core/prefetch.h"
#include "core/status.h"
#include "count/count_table.h"
#include "count/kept_filter.h"
#include "pattern/diamond.h"

namespace sgfpat {

class DrainingCounts {
 public:
  // `drain` empties `table` into the database.
  DrainingCounts(CountTable* table, KeptFilter* filter, std::function<Status()> drain)
      : table_(table), filter_(filter), drain_(std::move(drain)) {}

  // Slot of a kept (level, key), added on first sight; -1 if not kept.
  int32_t lookup(int level, uint64_t key) {
    int32_t s = table_->find(level, key);
    if (s < 0 && filter_->kept(level_item(level, key))) s = table_->add(level, key);
    return s;
  }
  void prefetch(int level, uint64_t key) const {
    table_->prefetch(level, key);
    filter_->prefetch(level_item(level, key));
  }
  // The sketch cannot tell which patterns extend to the next level.
  bool extends(int, int32_t) const { return true; }
  static constexpr bool counted(int, int32_t) { return true; }
  void prefetch_slot(int, int32_t slot) const { prefetch_line_for_write(&table_->at(slot)); }
  void add_seen(int, int32_t slot, uint64_t n) { table_->at(slot).seen += n; }
  void add_played(int, int32_t slot, uint32_t played, uint32_t wins) {
    CountTable::Entry& e = table_->at(slot);
    e.played += played;
    e.wins += wins;
  }
  // Before a position: too little room left for one more position.
  bool must_drain() const { return table_->room() < kMaxNewPerPosition; }
  // At the end of a game: full.
  bool wants_drain() const { return table_->full(); }
  Status drain() { return drain_(); }

 private:
  // A position adds at most one pattern per candidate and level.
  static constexpr size_t kMaxNewPerPosition = size_t(kMaxBoardSize) * kMaxBoardSize * kMaxLevels;
  CountTable* table_;
  KeptFilter* filter_;
  std::function<Status()> drain_;
};

}  // namespace sgfpat

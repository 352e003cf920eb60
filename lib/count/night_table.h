// The counts of a night's games (docs/nightly.md): what one counting thread
// adds to the kept patterns its walks touch, found as they go.
//
// The kept set K is not built into a table with slots for every pattern
// (tens of millions, read from the database: the cost of a night would grow
// with the archive).  A walk looks a pattern up in a filter of K, shared
// (count/key_filter.h); the thread's own map gives each pattern that passes
// a slot the first time (a pattern the filter stops is asked each time:
// remembering the tens of millions of patterns seen once would cost the
// night's memory).  Slots stay valid from game to game.  The threads'
// counts are summed at the end (sorted_counts()).  A pattern K lacks that
// the filter lets through by mistake gets a slot and counts too: the night
// drops those against the stored counts before it commits (count/night.h).
//
// The interface CandidateCounter counts through (candidate_counter.h), as
// ResidentTable's: every kept pattern may lead on (extends), and is counted.
#pragma once
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "core/hash.h"
#include "core/prefetch.h"
#include "count/key_filter.h"
#include "store/pattern_db.h"

namespace sgfpat {

class NightTable {
 public:
  explicit NightTable(const KeyFilter& kept) : kept_(&kept), levels_(size_t(kept.levels())) {}

  int32_t lookup(int level, uint64_t key);
  // Both places a lookup may read: this table's slot and the filter's
  // (asked on every key this table lacks, the last level of every walk
  // among them).
  void prefetch(int level, uint64_t key) const {
    const Level& lv = levels_[size_t(level - 1)];
    if (!lv.entries.empty()) prefetch_line(&lv.entries[fibonacci_slot(key, lv.bits)]);
    kept_->prefetch(level, key);
  }
  static bool extends(int /*level*/, int32_t slot) { return slot >= 0; }
  static bool counted(int /*level*/, int32_t slot) { return slot >= 0; }
  void prefetch_slot(int level, int32_t slot) { prefetch_line_for_write(&levels_[size_t(level - 1)].counts[size_t(slot)]); }
  void add_seen(int level, int32_t slot, uint64_t n) { levels_[size_t(level - 1)].counts[size_t(slot)].seen += n; }
  void add_played(int level, int32_t slot, uint32_t played, uint32_t wins) {
    PatternCounts& c = levels_[size_t(level - 1)].counts[size_t(slot)];
    c.played += played;
    c.wins += wins;
  }
  int levels() const { return int(levels_.size()); }
  // Bytes held.
  size_t bytes() const;

  // The counts of `tables` summed, by (level, key), patterns with no count
  // left out.
  static std::vector<std::tuple<int, uint64_t, PatternCounts>> sorted_counts(std::span<const NightTable> tables);

 private:
  struct Entry {
    uint64_t key;
    int32_t slot;  // -2: empty
    int32_t unused;
  };
  struct Level {
    std::vector<Entry> entries;  // a power of two, at most half full
    size_t mask = 0;
    int bits = 0;
    size_t used = 0;
    std::vector<uint64_t> keys;           // [slot]
    std::vector<PatternCounts> counts;    // [slot]
  };
  static void grow(Level& lv);

  const KeyFilter* kept_;
  std::vector<Level> levels_;
};

}  // namespace sgfpat

// The exact counts of a fixed set of patterns, all in memory at once:
// per level a hash table of keys and a dense array of counts, built from the
// keys the first passes found kept, then shared by every counting thread.
// Nothing is inserted while counting (a key that is absent is not kept), so
// look-ups need no lock, and counts are bumped with relaxed atomic adds.
//
// Look-ups are the counting pass's main cost, and most of them go to memory:
// keys sit in 64-byte buckets of 7 (a key's home bucket, or the next ones
// when it is full), so a look-up, hit or miss, reads one cache line of keys
// almost always; the counts live apart and are touched only by the additions.
//
// The table also knows which kept patterns are the inner part of some kept
// pattern one level up ("extended"): a walk up the levels that reaches a
// pattern nobody extends can stop without looking up the next level, which
// would miss.  That bit travels in the slot handle a look-up returns, so
// asking costs no memory access.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/hash.h"
#include "core/prefetch.h"
#include "core/status.h"
#include "count/huge_array.h"
#include "count/part_range.h"
#include "store/pattern_db.h"

namespace sgfpat {

class ResidentTable {
 public:
  // keys[level - 1]: the keys of that level (any order; a repeat is
  // ignored, but costs memory); extended[level - 1]: those of them that are
  // the level-`level` part of a key of keys[level] (any order, repeats
  // allowed).  A key left out of `extended` ends the counting walks at its
  // level.  Throws std::length_error past 2^30 keys in one level.
  ResidentTable(const std::vector<std::vector<uint64_t>>& keys, const std::vector<std::vector<uint64_t>>& extended);
  // The same, freeing each level's lists once that level is built: the
  // lists and the table are not both whole in memory at once.
  ResidentTable(std::vector<std::vector<uint64_t>>&& keys, std::vector<std::vector<uint64_t>>&& extended);
  // An empty table of `levels` levels, to be built by add_level() of every
  // level before any look-up.
  explicit ResidentTable(int levels) : levels_(size_t(levels)) {}
  // Builds `level` (not built before) from its keys and extended keys, as
  // the constructors do: a table read level by level from a file holds
  // only one level's lists beside it.
  void add_level(int level, const std::vector<uint64_t>& keys, const std::vector<uint64_t>& extended) {
    build_level(size_t(level - 1), keys, &extended);
  }
  // Memory a table of this many keys in all takes (within a few buckets).
  static size_t bytes_for(size_t keys);
  // The most memory the freeing constructor holds, lists and table, for
  // lists of these sizes (keys[l], extended[l]: level l + 1's distinct
  // keys): the levels built so far beside the lists not yet freed.
  static size_t build_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended);
  // The same for a table built by add_level(), level by level: the levels
  // built so far beside one level's lists.
  static size_t level_build_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended);

  // Slot handle of (level, key), or -1 when the key is not in the set.
  int32_t find(int level, uint64_t key) const;
  void prefetch(int level, uint64_t key) const {
    if (outside_part(level, key)) return;
    const Level& lv = levels_[size_t(level - 1)];
    prefetch_line(&lv.buckets[home(key, lv.buckets.size())]);
  }
  void prefetch_slot(int level, int32_t slot) const { prefetch_line_for_write(&counts(level, slot)); }
  void add_seen(int level, int32_t slot, uint64_t n) {
    std::atomic_ref<uint64_t>(counts(level, slot).seen).fetch_add(n, std::memory_order_relaxed);
  }
  // `played` plays of the pattern, `wins` of them by the game's winner.
  void add_played(int level, int32_t slot, uint32_t played, uint32_t wins) {
    Counts& c = counts(level, slot);
    std::atomic_ref<uint32_t>(c.played).fetch_add(played, std::memory_order_relaxed);
    if (wins) std::atomic_ref<uint32_t>(c.wins).fetch_add(wins, std::memory_order_relaxed);
  }
  // Adds whole counts to a slot (one thread only: not atomic).
  void add_counts(int level, int32_t slot, const PatternCounts& add) {
    Counts& c = counts(level, slot);
    c.seen += add.seen;
    c.played += uint32_t(add.played);
    c.wins += uint32_t(add.wins);
  }
  PatternCounts counts_at(int level, int32_t slot) const {
    const Counts& c = counts(level, slot);
    return {c.played, c.seen, c.wins};
  }
  // False when no kept pattern of level + 1 has the pattern at `slot` as
  // its level-`level` part (so the look-up of the next level would miss).
  static bool extends(int /*level*/, int32_t slot) { return slot & 1; }
  static constexpr bool counted(int, int32_t) { return true; }

  // Counting one part of the kept set (key_parts.h): the split-level keys
  // outside `range` are absent without a look-up, so the walks of the
  // other parts' patterns stop there at no memory cost.
  void restrict_to(const PartRange& range) {
    range_ = range;
    restricted_ = true;
  }

  // The interface CandidateCounter counts through (candidate_counter.h).
  int32_t lookup(int level, uint64_t key) const {
    if (outside_part(level, key)) return -1;
    return find(level, key);
  }

  size_t size() const { return size_; }
  size_t bytes() const;
  int levels() const { return int(levels_.size()); }
  // Patterns of `level` (repeats given to the constructor included).
  size_t size_at(int level) const { return levels_[size_t(level - 1)].counts.size(); }
  // Calls f(key, slot handle) for every pattern of `level`, in bucket order
  // (the order of its counts in memory).
  template <class F>
  void for_each_slot_at(int level, F&& f) const {
    const Level& lv = levels_[size_t(level - 1)];
    for (size_t b = 0; b < lv.buckets.size(); ++b) {
      const Bucket& bk = lv.buckets[b];
      for (unsigned i = 0; i < bk.used; ++i) f(bk.keys[i], int32_t((bk.base + i) << 1));
    }
  }
  // Calls f(key, counts) for every pattern of `level`, in bucket order
  // (after counting is done).
  template <class F>
  void for_each_at(int level, F&& f) const {
    for_each_slot_at(level, [&](uint64_t key, int32_t slot) { f(key, counts_at(level, slot)); });
  }
  // Calls f(key, counts) in key order for the patterns of `level` whose
  // counts pass keep(counts), and returns f's first error.  Beside the
  // table it takes kSortedEntryBytes a pattern passed (its key and slot,
  // sorted; the counts are read where they are, once to choose and once,
  // prefetched, to visit).  *passed and *all say how many passed of how
  // many.
  static constexpr size_t kSortedEntryBytes = 16;
  template <class Keep, class F>
  Status for_each_sorted_at(int level, Keep&& keep, F&& f, size_t* passed = nullptr, size_t* all = nullptr) const {
    struct Entry {
      uint64_t key;
      int32_t slot;
    };
    static_assert(sizeof(Entry) == kSortedEntryBytes);
    size_t n = 0, slots = 0;  // counted first, so that only the chosen take memory
    for_each_slot_at(level, [&](uint64_t, int32_t slot) {
      ++slots;
      n += bool(keep(counts_at(level, slot)));
    });
    if (all) *all = slots;
    std::vector<Entry> sorted;
    sorted.reserve(n);
    for_each_slot_at(level, [&](uint64_t key, int32_t slot) {
      if (keep(counts_at(level, slot))) sorted.push_back({key, slot});
    });
    if (passed) *passed = sorted.size();
    std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    constexpr size_t kAhead = 16;
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i + kAhead < sorted.size()) prefetch_slot(level, sorted[i + kAhead].slot);
      Status st = f(sorted[i].key, counts_at(level, sorted[i].slot));
      if (!st.ok()) return st;
    }
    return Status::OK();
  }

 private:
  static constexpr unsigned kBucketKeys = 7;
  struct Bucket {
    uint64_t keys[kBucketKeys];
    uint32_t base;      // index in the counts of keys[0]
    uint8_t used;       // keys[0..used) are in use
    uint8_t overflow;   // 1: some key whose search passes here lies further on
    uint8_t extended;   // bit i: keys[i] is extended
    uint8_t reserved;
  };
  static_assert(sizeof(Bucket) == 64, "one cache line");
  struct Counts {
    uint64_t seen;
    uint32_t played;
    uint32_t wins;
  };
  static_assert(sizeof(Counts) == 16, "four a cache line");
  struct Level {
    HugeArray<Bucket> buckets;
    HugeArray<Counts> counts;  // in bucket order
  };

  static size_t buckets_for(size_t keys);
  // Builds level l + 1 from its keys and extended keys (null: none).
  void build_level(size_t l, const std::vector<uint64_t>& keys, const std::vector<uint64_t>* extended);
  static size_t home(uint64_t key, size_t buckets) {
    return size_t((unsigned __int128)mix64(key) * buckets >> 64);
  }
  // The slot handle: the counts index and the extended bit.
  Counts& counts(int level, int32_t slot) { return levels_[size_t(level - 1)].counts[size_t(slot) >> 1]; }
  const Counts& counts(int level, int32_t slot) const {
    return levels_[size_t(level - 1)].counts[size_t(slot) >> 1];
  }

  // A split-level key of another part (restrict_to()).
  bool outside_part(int level, uint64_t key) const {
    return restricted_ && level == kSplitLevel && !range_.contains(key);
  }

  std::vector<Level> levels_;
  size_t size_ = 0;
  PartRange range_;
  bool restricted_ = false;
};

}  // namespace sgfpat

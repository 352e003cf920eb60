// The exact counts of a fixed set of patterns, all in memory at once:
// one open-addressing table per level, built from the keys the first
// passes found kept, then shared by every counting thread.  Nothing is
// inserted while counting (a key that is absent is not kept), so look-ups
// need no lock, and counts are bumped with relaxed atomic adds.  A key
// and its counts share an entry: the patterns looked up most often then
// keep one cache line each in the caches, not two.
//
// The table also knows which kept patterns are the inner part of some kept
// pattern one level up ("extended"): a walk up the levels that reaches a
// pattern nobody extends can stop without looking up the next level, which
// would miss.  One bit a slot, a small array that stays in the caches.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/prefetch.h"
#include "core/status.h"
#include "count/huge_array.h"
#include "store/pattern_db.h"

namespace sgfpat {

class ResidentTable {
 public:
  struct Entry {
    uint64_t key;
    uint64_t seen;
    uint32_t played;
    uint32_t wins;
  };
  static_assert(sizeof(Entry) == 24, "compact entries");

  // keys[level - 1]: the distinct keys of that level (any order);
  // extended[level - 1]: those of them that are the level-`level` part of a
  // key of keys[level] (any order, duplicates allowed).  A key left out of
  // `extended` ends the counting walks at its level.
  ResidentTable(const std::vector<std::vector<uint64_t>>& keys, const std::vector<std::vector<uint64_t>>& extended);
  // Memory the table of this many keys in all takes.
  static size_t bytes_for(size_t keys);

  // Slot of (level, key), or -1 when the key is not in the set.
  int32_t find(int level, uint64_t key) const;
  void prefetch(int level, uint64_t key) const { prefetch_line(&levels_[size_t(level - 1)].slots[home(level, key)]); }
  // Both lines of the slot's entry (entries straddle lines).
  void prefetch_slot(int level, int32_t slot) const {
    const Entry* e = &levels_[size_t(level - 1)].slots[size_t(slot)];
    prefetch_line(e);
    prefetch_line(reinterpret_cast<const char*>(e) + sizeof(Entry) - 1);
  }
  void add_seen(int level, int32_t slot, uint64_t n) {
    std::atomic_ref<uint64_t>(entry(level, slot).seen).fetch_add(n, std::memory_order_relaxed);
  }
  void add_played(int level, int32_t slot, bool win) {
    Entry& e = entry(level, slot);
    std::atomic_ref<uint32_t>(e.played).fetch_add(1, std::memory_order_relaxed);
    if (win) std::atomic_ref<uint32_t>(e.wins).fetch_add(1, std::memory_order_relaxed);
  }

  // False when no kept pattern of level + 1 has the pattern at `slot` as
  // its level-`level` part (so the look-up of the next level would miss).
  bool extends(int level, int32_t slot) const {
    const std::vector<uint64_t>& bits = levels_[size_t(level - 1)].extended;
    return (bits[size_t(slot) >> 6] >> (slot & 63)) & 1;
  }

  // The interface CandidateCounter counts through (see DrainingCounts).
  int32_t lookup(int level, uint64_t key) const { return find(level, key); }
  bool must_drain() const { return false; }
  bool wants_drain() const { return false; }
  Status drain() { return Status::OK(); }

  size_t size() const { return size_; }
  size_t bytes() const;
  int levels() const { return int(levels_.size()); }
  // Calls f(key, counts) for every pattern of `level`, in no particular
  // order (after counting is done).
  template <class F>
  void for_each_at(int level, F&& f) const {
    const Level& lv = levels_[size_t(level - 1)];
    for (size_t i = 0; i < lv.slots.size(); ++i) {
      const Entry& e = lv.slots[i];
      if (e.key != 0 || (i == lv.n && lv.has_zero)) f(e.key, PatternCounts{e.played, e.seen, e.wins});
    }
  }

 private:
  // Key 0 marks an empty slot; the real key 0, if kept, has the extra slot
  // at index n.
  struct Level {
    size_t n = 0;  // slots for hashing (the array has n + 1)
    bool has_zero = false;
    HugeArray<Entry> slots;
    std::vector<uint64_t> extended;  // a bit per slot
  };
  size_t home(int level, uint64_t key) const {
    uint64_t z = key;
    z = (z ^ (z >> 31)) * 0x7fb5d329728ea185ULL;
    z ^= z >> 27;
    return size_t((unsigned __int128)z * levels_[size_t(level - 1)].n >> 64);
  }
  Entry& entry(int level, int32_t slot) { return levels_[size_t(level - 1)].slots[size_t(slot)]; }

  std::vector<Level> levels_;
  size_t size_ = 0;
};

}  // namespace sgfpat

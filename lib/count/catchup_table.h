// The counts of a small set of patterns, one table per counting thread:
// what the catch-up (count/catchup.h) counts into.
//
// The set is the pending patterns and the chains of smaller levels that
// lead to them: thousands to a few hundred thousand
// keys, a table that stays in the CPU caches.  So a look-up is a short
// linear probe in a half-empty array, and the counts are plain additions
// (each thread owns a copy; the copies are summed at the end), not the
// atomic additions of the shared ResidentTable, which cost more than the
// look-ups here and bounce cache lines between the threads.  Copies share
// the keys (read only) and own their counts.
//
// Slot handles like ResidentTable's, bit 0 set when the pattern is the
// level-`level` part of a key of the next level ("extended"; a walk that
// reaches a pattern nobody extends stops there), plus bit 1 when the
// pattern is counted: only the newly kept patterns are, the chains leading
// to them are looked up to go on but get no counts (most of the walks'
// seen additions were theirs, for nothing).  The counts index is the
// handle shifted right by two.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/hash.h"
#include "core/prefetch.h"
#include "core/status.h"
#include "store/pattern_db.h"

namespace sgfpat {

class CatchupTable {
 public:
  // keys[level - 1]: the keys of that level (repeats ignored);
  // extended[level - 1]: those of them that are the level-`level` part of
  // a key of keys[level] (others ignored); counted[level - 1]: those of
  // them whose counts are kept (others ignored; all of them when
  // `counted` is null).  Counts start at zero.  Throws std::length_error
  // past 2^28 keys in one level.
  CatchupTable(const std::vector<std::vector<uint64_t>>& keys, const std::vector<std::vector<uint64_t>>& extended,
               const std::vector<std::vector<uint64_t>>* counted = nullptr);
  // Memory a table of this many keys in all takes (at most), and each
  // further copy that counts this many of them.
  static size_t bytes_for(size_t keys);
  static size_t copy_bytes_for(size_t counted) { return counted * sizeof(Counts); }

  // Slot handle of (level, key), or -1 when the key is not in the set.
  int32_t find(int level, uint64_t key) const {
    const Level& lv = (*levels_)[size_t(level - 1)];
    for (size_t i = home(lv, key);; i = (i + 1) & lv.mask) {
      const Entry& e = lv.entries[i];
      if (e.handle < 0 || e.key == key) return e.handle;
    }
  }
  static bool extends(int /*level*/, int32_t slot) { return slot & 1; }
  // False for a pattern only looked up on the way to others (and for a
  // negative, not-found handle): the counting calls below are for counted
  // slots only.
  static bool counted(int /*level*/, int32_t slot) { return slot >= 0 && (slot & 2); }
  void add_seen(int level, int32_t slot, uint64_t n) { counts(level, slot).seen += n; }
  void add_played(int level, int32_t slot, uint32_t played, uint32_t wins) {
    Counts& c = counts(level, slot);
    c.played += played;
    c.wins += wins;
  }
  PatternCounts counts_at(int level, int32_t slot) const {
    const Counts& c = counts(level, slot);
    return {c.played, c.seen, c.wins};
  }

  // The interface CandidateCounter counts through (candidate_counter.h).
  int32_t lookup(int level, uint64_t key) const { return find(level, key); }
  void prefetch(int level, uint64_t key) const {
    const Level& lv = (*levels_)[size_t(level - 1)];
    prefetch_line(&lv.entries[home(lv, key)]);
  }
  void prefetch_slot(int level, int32_t slot) const { prefetch_line_for_write(&counts(level, slot)); }

  int levels() const { return int(levels_->size()); }
  size_t size() const { return size_; }
  size_t bytes() const;

 private:
  struct Entry {
    uint64_t key;
    int32_t handle;  // -1: empty (see the slot handles above)
    int32_t unused;
  };
  struct Counts {
    uint64_t seen = 0;
    uint32_t played = 0;
    uint32_t wins = 0;
  };
  struct Level {
    std::vector<Entry> entries;  // a power of two, at most half full
    size_t mask = 0;
    int shift = 63;
  };
  static size_t home(const Level& lv, uint64_t key) { return size_t((key * kGoldenGamma) >> lv.shift) & lv.mask; }
  Counts& counts(int level, int32_t slot) { return counts_[size_t(level - 1)][size_t(slot) >> 2]; }
  const Counts& counts(int level, int32_t slot) const { return counts_[size_t(level - 1)][size_t(slot) >> 2]; }
  // The entry of `key`, or the empty one where its search ends.
  static Entry& entry_of(Level& lv, uint64_t key);

  std::shared_ptr<const std::vector<Level>> levels_;
  std::vector<std::vector<Counts>> counts_;  // [level - 1][counts index]: the counted keys'
  size_t size_ = 0;
};

}  // namespace sgfpat

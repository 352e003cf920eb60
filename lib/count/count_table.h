// An accumulator of (level, key) -> counts for a counting pass: an
// open-addressing table whose entries live in their slots (one probe, one
// cache line), in huge-page memory.  Entries never move until drain(), so a
// slot index handed out stays valid until then.  The caller drains it into
// the database whenever it fills, so memory stays bounded.
#pragma once
#include <cstdint>
#include <functional>

#include "core/prefetch.h"
#include "count/huge_array.h"
#include "count/sketch.h"
#include "store/pattern_db.h"

namespace sgfpat {

class CountTable {
 public:
  struct Entry {
    uint64_t key;
    uint64_t seen;
    uint32_t played;
    uint32_t wins;
    uint32_t level;  // 0: empty slot
    uint32_t pad;
  };
  static_assert(sizeof(Entry) == 32, "two entries per cache line");

  // full() turns true at `max_entries` patterns (at least kMinEntries);
  // the table has room for half as many again, for patterns added before
  // the caller drains.
  static constexpr size_t kMinEntries = 16384;
  explicit CountTable(size_t max_entries);

  // Slot of (level, key), or -1 when absent.
  int32_t find(int level, uint64_t key) const;
  // Slot of (level, key), created with zero counts when absent.  At most
  // room() additions may follow a full() check.
  int32_t add(int level, uint64_t key);
  Entry& at(int32_t slot) { return slots_[size_t(slot)]; }
  const Entry& at(int32_t slot) const { return slots_[size_t(slot)]; }
  void prefetch(int level, uint64_t key) const { prefetch_line(&slots_[hash(level, key) & mask_]); }

  size_t size() const { return size_; }
  size_t capacity() const { return max_entries_; }
  bool full() const { return size_ >= max_entries_; }
  // How many more patterns fit before probing gets slow.
  size_t room() const { return hard_limit_ > size_ ? hard_limit_ - size_ : 0; }
  // Calls sink(level, key, counts) for every entry, then empties the table;
  // every slot handed out before becomes invalid.
  void drain(const std::function<void(int, uint64_t, const PatternCounts&)>& sink);

 private:
  static size_t hash(int level, uint64_t key) { return size_t(mix64(level_item(level, key))); }
  size_t probe(int level, uint64_t key) const;
  size_t max_entries_, hard_limit_;
  size_t mask_;
  size_t size_ = 0;
  HugeArray<Entry> slots_;
};

}  // namespace sgfpat

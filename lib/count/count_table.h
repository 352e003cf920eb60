// An accumulator of (level, key) -> counts for a counting pass.  Entries
// live in an append-only array, so an entry's index stays valid until
// drain(); an open-addressing index finds them.  Flushed into the database
// whenever it reaches its capacity, so memory stays bounded.
#pragma once
#include <cstdint>
#include <tuple>
#include <vector>

#include "store/pattern_db.h"

namespace sgfpat {

class CountTable {
 public:
  // Holds at most `max_entries` patterns before full() says so.
  explicit CountTable(size_t max_entries);

  // Index of (level, key), or -1 when absent.
  int32_t find(int level, uint64_t key) const;
  // Index of (level, key), created with zero counts when absent.
  int32_t add(int level, uint64_t key);
  PatternCounts& counts(int32_t index) { return entries_[size_t(index)].counts; }
  PatternCounts& at(int level, uint64_t key) { return counts(add(level, key)); }

  size_t size() const { return entries_.size(); }
  bool full() const { return entries_.size() >= max_entries_; }
  // Moves every entry out (as partial sums) and empties the table; every
  // index handed out before becomes invalid.
  std::vector<std::tuple<int, uint64_t, PatternCounts>> drain();

 private:
  struct Entry {
    uint64_t key;
    int32_t level;
    PatternCounts counts;
  };
  void rehash(size_t slots);
  size_t max_entries_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> index_;  // entry index + 1; 0 marks an empty slot
  size_t mask_ = 0;
};

}  // namespace sgfpat

// An open-addressing table of (level, key) -> counts, the in-memory
// accumulator of a counting pass.  Flushed into the database whenever it
// reaches its capacity, so memory stays bounded.
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

  // Counters of (level, key), created at zero when new.
  PatternCounts& at(int level, uint64_t key);
  // Counters of (level, key) if present, else nullptr.
  PatternCounts* find(int level, uint64_t key);
  size_t size() const { return size_; }
  bool full() const { return size_ >= max_entries_; }
  // Moves every entry out (as partial sums) and empties the table.
  std::vector<std::tuple<int, uint64_t, PatternCounts>> drain();

 private:
  struct Entry {
    uint64_t key;
    uint32_t level;  // 0 marks an empty slot
    uint32_t pad;
    PatternCounts counts;
  };
  void grow();
  size_t max_entries_;
  size_t size_ = 0;
  size_t mask_;
  std::vector<Entry> slots_;
};

}  // namespace sgfpat

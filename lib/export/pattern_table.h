// The reported patterns of a database generation that need a string (the
// database stores keys only), each with its counts, and the spec's string
// form of a pattern.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/pattern_db.h"

namespace sgfpat {

// The spec's string of a pattern under `scheme`: the canonical form with
// symmetry on, the string as seen with symmetry off.
std::string export_form(std::string_view pattern, const KeyScheme& scheme);

// Patterns of the current database generation that need a string, each
// with its counts.  Strings are kept packed (2 bits a point) so that a
// table of every reported pattern stays small.
class PatternTable {
 public:
  explicit PatternTable(int levels);

  // Adds (level, key); keys of a level must be added in increasing order
  // (for_each_count order).  Call seal() after the last add().
  void add(int level, uint64_t key, const PatternCounts& counts);
  void seal();

  int levels() const { return int(levels_.size()); }
  size_t size(int level) const { return levels_[size_t(level - 1)].keys.size(); }
  size_t total() const;
  // Index of key in its level, or -1.
  int64_t find(int level, uint64_t key) const;
  uint64_t key(int level, size_t i) const { return levels_[size_t(level - 1)].keys[i]; }
  const PatternCounts& counts(int level, size_t i) const { return levels_[size_t(level - 1)].counts[i]; }
  bool has_string(int level, size_t i) const { return levels_[size_t(level - 1)].found[i]; }
  std::string string(int level, size_t i) const;  // "" if not found yet
  void set_string(int level, size_t i, std::string_view pattern);
  size_t missing() const { return missing_; }
  size_t missing(int level) const;

 private:
  struct Level {
    std::vector<uint64_t> keys;
    std::vector<PatternCounts> counts;
    std::vector<uint8_t> packed;  // bytes_per * keys.size()
    std::vector<bool> found;
    std::vector<uint32_t> slots;  // open addressing: index + 1, 0 empty
    size_t bytes_per = 0;
  };
  std::vector<Level> levels_;
  size_t missing_ = 0;
};

}  // namespace sgfpat

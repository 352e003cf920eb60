// Helpers shared by query, stats and export: rates with confidence
// intervals, the spec's text form of a pattern, and finding a pattern string
// for keys read from the database (which stores keys only) by replaying the
// stored games.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/pattern_db.h"

namespace sgfpat::cli {

// 95% Wilson score interval of a proportion k / n ([0, 1] when n == 0).
struct Interval {
  double low = 0;
  double high = 1;
};
Interval wilson95(uint64_t k, uint64_t n);

// k / n, 0 when n == 0.
inline double rate(uint64_t k, uint64_t n) { return n ? double(k) / double(n) : 0.0; }

// "12.34%" (3 significant digits below 0.1%: "0.00397%")
std::string percent_text(double p);

// printf into a std::string.
std::string format_text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// 16 lowercase hex digits.
std::string key_hex(uint64_t key);

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

struct RepresentativeSearch {
  // true: the table holds every reported pattern (closed under smaller
  // levels), so the walk up the levels of a move stops at the first level
  // not in it.  false: only some keys of some levels are wanted.
  bool closed = true;
  uint64_t max_games = 0;  // 0: no limit
  // Filled in:
  uint64_t games_replayed = 0;
  uint64_t key_mismatches = 0;  // strings whose key did not match (a bug)
  double seconds = 0;
};

// Replays stored games and gives every pattern of `table` the spec string
// of the first played move found with that pattern.  Every reported pattern
// was played (played >= min_played >= 1), so looking at played moves only
// finds them all.  Stops once every string is known.
Status find_representatives(PatternDb& db, PatternTable* table, RepresentativeSearch* search);

}  // namespace sgfpat::cli

// The pending_patterns family's entries (docs/nightly.md), the one place of
// these bytes: a pattern played min_played times over the stored games but
// not yet kept, until a catch-up counts it over every game.
//   key    level (1) | pattern key (8, BE)
//   value  played (8, LE) | wins (8, LE) | joined (8, LE: the Unix time of
//          the night it joined) | the keys of its smaller patterns, levels
//          1 .. level-1 (8 each, LE): the chain a catch-up's walks follow
//          to reach it
// Covered by the database's format version (core/format_version.h).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/coding.h"
#include "store/level_key.h"

namespace sgfpat {

struct PendingPattern {
  int level = 0;
  uint64_t key = 0;
  uint64_t played = 0, wins = 0;
  int64_t joined = 0;
  std::vector<uint64_t> chain;  // levels 1 .. level-1
  friend bool operator==(const PendingPattern&, const PendingPattern&) = default;
};

inline constexpr size_t kPendingPatternKeyBytes = kLevelKeyBytes;

inline std::string pending_pattern_key(int level, uint64_t key) { return level_key(level, key); }
inline std::string pending_pattern_value(const PendingPattern& p) {
  std::string v(24 + 8 * p.chain.size(), '\0');
  encode_fixed64(v.data(), p.played);
  encode_fixed64(v.data() + 8, p.wins);
  encode_fixed64(v.data() + 16, uint64_t(p.joined));
  for (size_t i = 0; i < p.chain.size(); ++i) encode_fixed64(v.data() + 24 + 8 * i, p.chain[i]);
  return v;
}
// False for an entry of any other shape (damage).
inline bool parse_pending_pattern(std::string_view key, std::string_view value, PendingPattern* p) {
  if (key.size() != kPendingPatternKeyBytes || key[0] == 0) return false;
  const int level = uint8_t(key[0]);
  if (value.size() != 24 + 8 * size_t(level - 1)) return false;
  p->level = level;
  p->key = decode_fixed64_be(key.data() + 1);
  p->played = decode_fixed64(value.data());
  p->wins = decode_fixed64(value.data() + 8);
  p->joined = int64_t(decode_fixed64(value.data() + 16));
  p->chain.resize(size_t(level - 1));
  for (size_t i = 0; i < p->chain.size(); ++i) p->chain[i] = decode_fixed64(value.data() + 24 + 8 * i);
  return true;
}

}  // namespace sgfpat

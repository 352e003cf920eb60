// A pattern named as a key prefix: level (1 byte) | pattern key (8,
// big-endian), so that one level's patterns lie together in key order.
// The one place of these 9 bytes (the frontier and pending_patterns
// families' keys begin with them).
#pragma once
#include <cstdint>
#include <string>

#include "core/coding.h"

namespace sgfpat {

inline constexpr size_t kLevelKeyBytes = 9;

inline std::string level_key(int level, uint64_t key) {
  std::string k(kLevelKeyBytes, '\0');
  k[0] = char(level);
  encode_fixed64_be(k.data() + 1, key);
  return k;
}

}  // namespace sgfpat

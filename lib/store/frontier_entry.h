// The frontier family's entries (docs/nightly.md), the one place of these
// bytes:
//   key    level (1) | pattern key (8, BE) | game (8, BE: the first 8 bytes
//          of its fingerprint, as the position index names games) | move
//          number (4, BE: the position before it, from 0)
//   value  1 byte: 1 when the move's player won the game, else 0; then,
//          when known, the move's played key of the next level (8, BE),
//          which lets a night decide that level without replaying the game
// Big-endian, so that the entries of one (level, pattern) lie together and
// a look-up is one seek to their prefix.  Covered by the database's format
// version (core/format_version.h).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "core/coding.h"
#include "store/game_record.h"
#include "store/level_key.h"

namespace sgfpat {

// A stored move: its game, its number in the game's replay, and whether its
// player won the game.
struct StoredMove {
  uint64_t game = 0;
  uint32_t number = 0;
  bool won = false;
  friend bool operator==(const StoredMove&, const StoredMove&) = default;
};

// The fingerprint's first 8 bytes, as a number (the order of the bytes).
inline uint64_t game_prefix(const Fingerprint& fp) {
  return decode_fixed64_be(reinterpret_cast<const char*>(fp.data()));
}

// A move indexed under its frontier, the pattern of `level` and `key`;
// `above` is the move's played key of level + 1, 0 when not known (or at
// the last level).
struct FrontierEntry {
  int level = 0;
  uint64_t key = 0;
  StoredMove move;
  uint64_t above = 0;
  friend bool operator<(const FrontierEntry& a, const FrontierEntry& b) {
    return std::tie(a.level, a.key, a.move.game, a.move.number) < std::tie(b.level, b.key, b.move.game, b.move.number);
  }
  friend bool operator==(const FrontierEntry&, const FrontierEntry&) = default;
};

inline constexpr size_t kFrontierKeyBytes = kLevelKeyBytes + 12;

inline std::string frontier_prefix(int level, uint64_t key) { return level_key(level, key); }
inline std::string frontier_key(const FrontierEntry& e) {
  std::string k = frontier_prefix(e.level, e.key);
  k.resize(kFrontierKeyBytes);
  encode_fixed64_be(k.data() + 9, e.move.game);
  encode_fixed32_be(k.data() + 17, e.move.number);
  return k;
}
inline std::string frontier_value(const FrontierEntry& e) {
  std::string v(e.above ? 9 : 1, e.move.won ? '\x01' : '\x00');
  if (e.above) encode_fixed64_be(v.data() + 1, e.above);
  return v;
}
// False for an entry of any other shape (damage).
inline bool parse_frontier(std::string_view key, std::string_view value, FrontierEntry* e) {
  if (key.size() != kFrontierKeyBytes || (value.size() != 1 && value.size() != 9) || uint8_t(value[0]) > 1 ||
      key[0] == 0)
    return false;
  e->level = uint8_t(key[0]);
  e->key = decode_fixed64_be(key.data() + 1);
  e->move.game = decode_fixed64_be(key.data() + 9);
  e->move.number = decode_fixed32_be(key.data() + 17);
  e->move.won = value[0] == 1;
  e->above = value.size() == 9 ? decode_fixed64_be(value.data() + 1) : 0;
  return e->above != 0 || value.size() == 1;
}

}  // namespace sgfpat

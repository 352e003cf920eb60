// The frontier of a played move (docs/nightly.md): the smallest level whose
// played pattern is in neither the kept set K nor the pending set P.
//
// Two moves with the same level-j pattern have the same smaller patterns
// (they lie inside it), so they have the same frontier when it is at level
// j or above: for a pattern x outside K and P, if x is the frontier of one
// move it is the frontier of every move that played it, and the moves
// indexed under x are all of x's plays.  That is what lets a night decide
// exactly, without replaying the archive, which patterns its games bring
// to min_played.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "core/status.h"
#include "count/key_hash_set.h"
#include "pattern/key_scheme.h"
#include "store/game_record.h"

namespace sgfpat {

// A stored move: its game (the fingerprint's first 8 bytes, big-endian, as
// the position index names games), its number in the game's replay (the
// position before it, from 0) and whether its player won the game.
struct StoredMove {
  uint64_t game = 0;
  uint32_t number = 0;
  bool won = false;
  friend bool operator==(const StoredMove&, const StoredMove&) = default;
};

uint64_t game_prefix(const Fingerprint& fp);

struct FrontierEntry {
  int level = 0;
  uint64_t key = 0;
  StoredMove move;
  friend bool operator<(const FrontierEntry& a, const FrontierEntry& b) {
    return std::tie(a.level, a.key, a.move.game, a.move.number) < std::tie(b.level, b.key, b.move.game, b.move.number);
  }
  friend bool operator==(const FrontierEntry&, const FrontierEntry&) = default;
};

// Appends to *out the frontier entry of every played move of the stored
// game records `batch` whose played pattern leaves `kept` (K and P, exact)
// at some level; a move kept at every level has none.  Corruption for a
// record that does not decode or replay.
Status frontier_entries(const KeyScheme& scheme, std::span<const std::string> batch, const KeyHashSet& kept,
                        std::vector<FrontierEntry>* out);

// The played keys of every level of one stored move (levels 1..L, index
// level - 1), replaying `record` up to it.  NotFound when the game has no
// played move numbered `number`.
Status played_keys_at(const KeyScheme& scheme, std::string_view record, uint32_t number,
                      std::vector<uint64_t>* keys);

}  // namespace sgfpat

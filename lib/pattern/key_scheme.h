// How pattern keys are made: the Zobrist seed, the deepest level and whether
// keys are symmetry-invariant.  Databases and priors files record it and
// refuse to mix with another.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pattern/diamond.h"

namespace sgfpat {

inline constexpr uint64_t kDefaultZobristSeed = 0x73676670617421ULL;  // "sgfpat!"

struct KeyScheme {
  uint64_t seed = kDefaultZobristSeed;
  int levels = 10;        // deepest zoom level L, 1..kMaxLevels
  bool symmetry = true;   // keys invariant under the 8 square symmetries

  std::string describe() const;  // "seed=0x.. levels=10 symmetry=on"
  friend bool operator==(const KeyScheme&, const KeyScheme&) = default;
};

// Relative point states of a pattern, as in the spec's strings.
enum class PState : uint8_t { Off = 0, Empty = 1, Opp = 2, Own = 3 };
inline constexpr char kPStateChar[4] = {'#', '.', 'O', 'X'};  // byte order # < . < O < X

// The Zobrist words of a scheme.  Words are drawn with splitmix64 from the
// seed, in spec point order, for offsets 0..level_points(16)-1:
//   own(o)  = next word
//   off(o)  = low 32 bits of the next word, repeated in both halves
//   opp(o)  = rotl(own(o), 32)
// so that swapping the two 32-bit halves of a key swaps own and opponent
// stones while leaving off-board points alone: the key for the other player
// to move is rotl(key, 32), with no second table to maintain.
class ZobristTable {
 public:
  explicit ZobristTable(uint64_t seed);
  uint64_t word(PState st, int offset) const;

  // words_for(st)[o * 8 + s] = word(st, sym_index(s, o)): the contribution
  // of a point at offset o to the hash of symmetry s.
  const uint64_t* by_symmetry(PState st) const { return sym_[int(st)].data(); }

 private:
  std::array<std::vector<uint64_t>, 4> words_;
  std::array<std::vector<uint64_t>, 4> sym_;
};

const ZobristTable& zobrist_table(uint64_t seed);

inline uint64_t swap_halves(uint64_t k) { return (k << 32) | (k >> 32); }

}  // namespace sgfpat

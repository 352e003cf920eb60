// A stored position found by a search, seen in the query's orientation.
#pragma once
#include <array>
#include <cstdint>

#include "core/types.h"

namespace sgfpat {

struct PositionHit {
  std::array<uint8_t, 8> game{};  // the first 8 bytes of the game's fingerprint
  int position = 0;               // moves played before it (0: the start)
  int distance = 0;               // 0 for an exact hit
  int sym = 0;                    // the stored board through symmetry `sym` ...
  bool swap = false;              // ... and this colour exchange is the query's view
  Color mover = Color::Black;     // who is to move, in the stored game's colours
  Color winner = Color::Empty;    // the game's winner (Empty: unknown or draw)
  bool has_next = false;          // false at the end of the game
  Point next = kPass;             // the move played next, in the query's orientation

  bool mover_won() const { return winner != Color::Empty && winner == mover; }
};

}  // namespace sgfpat

// Patterns as text (spec "Point order"): spelling a pattern off a board,
// its canonical form, and keys computed from scratch.  The incremental
// tracker (pattern/tracker.h) must always agree with pattern_key().
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "board/board.h"
#include "pattern/key_scheme.h"

namespace sgfpat {

// The level-`level` pattern around `center` as seen by `mover` (X = mover's
// stones), in spec point order, not canonicalized.
std::string spell_pattern(const Board& board, Point center, int level, Color mover);

// Level of a pattern string (its length is 2i(i+1) and every char is one of
// "#.OX"), or 0 if it is not a pattern string.
int pattern_level(std::string_view pattern);

// The string of the pattern transformed by symmetry s (0 = identity).
std::string transform_pattern(std::string_view pattern, int s);

// Lexicographically smallest of the 8 transforms (byte order # . O X).
std::string canonical_pattern(std::string_view pattern);

// Key of a pattern string under `scheme`, computed from scratch: the XOR of
// the Zobrist words of its points, minimized over the 8 symmetries when
// scheme.symmetry is on.  Precondition: pattern_level(pattern) > 0.
uint64_t pattern_key(std::string_view pattern, const KeyScheme& scheme);

// Multi-line diagram of a pattern for people: the diamond laid out on a
// grid, the center shown as '*'.
std::string pattern_diagram(std::string_view pattern);

}  // namespace sgfpat

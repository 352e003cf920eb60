// Geometry of the nested diamond patterns (docs/patterns.md):
// point order within a level, ring by ring, and the 8 square symmetries.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace sgfpat {

inline constexpr int kMaxLevels = 16;

// Number of points of the level-i diamond: 2i(i+1).
constexpr int level_points(int level) { return 2 * level * (level + 1); }

struct Offset {
  int8_t dx;
  int8_t dy;
};

// The points of the level-kMaxLevels diamond in spec order: ring 1, ring 2,
// ...; ring d starts due north (0,-d) and goes clockwise.  The level-i
// pattern is the first level_points(i) entries.
const std::vector<Offset>& diamond_offsets();

// Ring (1-based) of offset index o: |dx| + |dy|.
int offset_ring(int o);

// Symmetry s in 0..7 applied to an offset; s = 0 is the identity.
Offset transform(int s, Offset o);

// sym_index(s, o): spec-order index of transform(s, offset o).  Stays in
// the same ring, so it is < level_points(i) whenever o is.
int sym_index(int s, int o);

}  // namespace sgfpat

#include "mcts/patterns3x3.h"

#include <array>
#include <bitset>
#include <memory>

namespace sgfpat::mcts {

namespace {

// Rows from the top, the centre (always '.') is the move.  X, O: stones of
// either colour (the table holds both colourings); x: not X (empty, O or
// the edge), o: not O; '.': empty; '#': off the board; '?': anything.
const char* const kPatterns[][3] = {
    {"XOX", "...", "???"},  // hane: enclosing hane
    {"XO.", "...", "?.?"},  // hane: non-cutting hane
    {"XO?", "X..", "x.?"},  // hane: magari
    {".O.", "X..", "..."},  // katatsuke, diagonal attachment
    {"XO?", "O.o", "?o?"},  // cut: unprotected cut
    {"XO?", "O.X", "???"},  // cut: peeped cut
    {"?X?", "O.O", "ooo"},  // cut: de
    {"OX?", "o.O", "???"},  // cut: keima
    {"X.?", "O.?", "##?"},  // edge: chase
    {"OX?", "X.O", "###"},  // edge: block a cut on the side
    {"?X?", "x.O", "###"},  // edge: block a connection on the side
    {"?XO", "x.x", "###"},  // edge: sagari
    {"?OX", "X.O", "###"},  // edge: cut
};

// The states (bit set over Empty, Black, White, OffBoard) a pattern
// character allows, with X = `x_color`.
int allowed(char ch, bool swap) {
  const int e = 1 << int(Color::Empty), b = 1 << int(Color::Black), w = 1 << int(Color::White),
            off = 1 << int(Color::OffBoard);
  const int X = swap ? w : b, O = swap ? b : w;
  switch (ch) {
    case 'X': return X;
    case 'O': return O;
    case 'x': return e | O | off;
    case 'o': return e | X | off;
    case '.': return e;
    case '#': return off;
    default: return e | b | w | off;
  }
}

struct Table {
  std::bitset<1 << 16> match;
  Table() {
    // The eight transforms of (dx, dy) in -1..1, and the neighbour order of
    // neighbourhood_code.
    const int order[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    for (const auto& pat : kPatterns)
      for (int t = 0; t < 8; ++t)
        for (bool swap : {false, true}) {
          int sets[8];
          for (int k = 0; k < 8; ++k) {
            int dx = order[k][0], dy = order[k][1];
            if (t & 1) dx = -dx;
            if (t & 2) dy = -dy;
            if (t & 4) std::swap(dx, dy);
            sets[k] = allowed(pat[dy + 1][dx + 1], swap);
          }
          expand(sets, 0, 0);
        }
  }
  void expand(const int* sets, int k, int code) {
    if (k == 8) {
      match.set(size_t(code));
      return;
    }
    for (int s = 0; s < 4; ++s)
      if (sets[k] & (1 << s)) expand(sets, k + 1, code | (s << (2 * k)));
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

bool matches_pattern3x3(int code) { return table().match.test(size_t(code)); }

}  // namespace sgfpat::mcts

// Atari-go positions on rectangular boards up to 9x9, as two bit sets.
//
// Atari-go as played here: Black moves first, players alternate, there are no
// passes, and the first capture wins at once.  Suicide (a move that captures
// nothing and leaves its own chain without liberties) is forbidden, and a
// player with no legal move loses.  Since the game stops at the first
// capture, stones are never removed: a position is just which points hold
// which colour, there is no ko, and every move adds one stone.
//
// Points are bit indices y * stride + x with stride = width + 1: the extra
// column is never on the board, so a shift by one never wraps a row.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"

namespace sgfpat::solve {

using Bits = unsigned __int128;

inline Bits bit(int i) { return Bits(1) << i; }
inline int popcount(Bits b) {
  return __builtin_popcountll(uint64_t(b)) + __builtin_popcountll(uint64_t(b >> 64));
}
// Index of the lowest set bit; b must not be 0.
inline int lowest(Bits b) {
  uint64_t lo = uint64_t(b);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(b >> 64));
}

// The same on one word: the searches run on uint64_t when the board fits
// one (Geometry::fits64(), boards up to 8x7), where every operation costs
// half as much, and on Bits otherwise; their code is written once for a
// word type W.
inline int popcount(uint64_t b) { return __builtin_popcountll(b); }
inline int lowest(uint64_t b) { return __builtin_ctzll(b); }
template <class W>
inline W bit_of(int i) {
  return W(1) << i;
}

class Geometry {
 public:
  static constexpr int kMaxSide = 9;
  // Width and height in 2..9 (checked by valid_size()).
  Geometry(int width = 6, int height = 6);
  static bool valid_size(int width, int height) {
    return width >= 2 && height >= 2 && width <= kMaxSide && height <= kMaxSide;
  }

  int width() const { return width_; }
  int height() const { return height_; }
  int stride() const { return width_ + 1; }
  int points() const { return width_ * height_; }
  Bits board() const { return board_; }
  // The board as a word of type W (uint64_t only when fits64()).
  template <class W>
  W board_as() const {
    return W(board_);
  }
  // True if every point's index is below 64.
  bool fits64() const { return fits64_; }
  int index(int x, int y) const { return y * (width_ + 1) + x; }
  int x_of(int i) const { return i % (width_ + 1); }
  int y_of(int i) const { return i / (width_ + 1); }

  // On-board points next to some point of b.
  Bits neighbours(Bits b) const {
    if (fits64_) return neighbours(uint64_t(b));  // one word costs half as much
    return spread(b) & board_;
  }
  // The chain of `stones` holding point p (p must be in stones).
  Bits chain(Bits stones, int p) const {
    if (fits64_) return chain(uint64_t(stones), p);
    return fill(stones, p);
  }
  // neighbours() and chain() on one word; the board must fit it (fits64()).
  uint64_t neighbours(uint64_t w) const { return spread(w) & uint64_t(board_); }
  uint64_t chain(uint64_t stones, int p) const { return fill(stones, p); }
  // The on-board points with at least two, three and four of their
  // neighbours in b, for every point at once (W as in board_as()).
  template <class W>
  void neighbour_counts(W b, W* two_plus, W* three_plus, W* four) const {
    const int s = width_ + 1;
    const W l = b << 1, r = b >> 1, u = b << s, d = b >> s;
    // The four shifted copies added bit by bit: each point's count as
    // ones, twos and fours.
    const W ones1 = l ^ r, twos1 = l & r, ones2 = u ^ d, twos2 = u & d;
    const W ones = ones1 ^ ones2, carry = ones1 & ones2;
    const W twos = twos1 ^ twos2 ^ carry, fours = (twos1 & twos2) | (carry & (twos1 ^ twos2));
    const W on = board_as<W>();
    *two_plus = (twos | fours) & on;
    *three_plus = ((twos & ones) | fours) & on;
    *four = fours & on;
  }

  // GTP-style name: column letter (I skipped) and row counted from the bottom.
  std::string name(int i) const;
  // Parses a GTP-style name ("C3", any case); false if off this board.
  bool parse(const std::string& text, int* out) const;

 private:
  // The points next to b's, on the board or not (the stride's spare column
  // keeps a shift by one from wrapping a row).
  template <class W>
  W spread(W b) const {
    const int s = width_ + 1;
    return (b << 1) | (b >> 1) | (b << s) | (b >> s);
  }
  // The flood fill from p inside `stones` (masking by them keeps it on the board).
  template <class W>
  W fill(W stones, int p) const {
    W c = W(1) << p, prev;
    do {
      prev = c;
      c = (c | spread(c)) & stones;
    } while (c != prev);
    return c;
  }
  int width_, height_;
  Bits board_ = 0;
  bool fits64_ = false;
};

struct Position {
  Bits black = 0;
  Bits white = 0;
  Color to_move = Color::Black;

  Bits stones(Color c) const { return c == Color::Black ? black : white; }
  Bits& stones(Color c) { return c == Color::Black ? black : white; }
  Bits occupied() const { return black | white; }
};

// Zobrist key of the stones and the side to move (the engine's words).
uint64_t position_key(const Position& pos);
uint64_t stone_key(Color c, int point);
inline constexpr uint64_t kWhiteToMoveKey = 0x9e3779b97f4a7c15ull;

enum class MoveKind : uint8_t { Normal, Capture, Suicide, Occupied };

// What playing p for `mover` would do in `pos` (the side to move is ignored).
MoveKind classify_move(const Geometry& g, const Position& pos, Color mover, int p);

// The position after the side to move puts a stone on p (a move that
// captures nothing: the game goes on), the other side to move.
inline Position with_stone(const Position& pos, int p) {
  Position next = pos;
  next.stones(pos.to_move) |= bit(p);
  next.to_move = opponent(pos.to_move);
  return next;
}

// A chain with its liberties.
struct ChainLibs {
  Bits stones;
  Bits libs;
};
// Appends every chain of `stones` to out (empty = the board's empty points).
void list_chains(const Geometry& g, Bits stones, Bits empty, std::vector<ChainLibs>* out);
// True if some chain of `stones` has no liberty (a position no game reaches).
bool has_dead_chain(const Geometry& g, Bits stones, Bits empty);

// Diagram rows, top first: '.' or '+' empty, 'X' black, 'O' white; rows
// separated by '/' or newlines, spaces ignored.  All rows the same width.
Status parse_rows(const std::string& rows, Geometry* g, Position* pos);
}  // namespace sgfpat::solve
namespace sgfpat { class Board; }
namespace sgfpat::solve {
// The position of a rules-engine board (at most 9x9, no capture made yet:
// in atari-go the game ended at the first one).
Status from_board(const Board& board, Color to_move, Geometry* g, Position* pos);
// The position as rows joined by '\n' (X, O, .), with a trailing newline.
std::string to_rows(const Geometry& g, const Position& pos);

}  // namespace sgfpat::solve

// The rules engine: a square Go board of size 2..25 with chains, exact
// liberties, captures, suicide, simple ko or positional superko (a move may
// not recreate any earlier position of the board, KoRule::Positional), and
// area scoring.
//
// Points are addressed either as Point{x, y} or as a dense index
// (Board::index), which is what hot loops use.  The board knows nothing of
// whose turn it is: the caller says which color plays.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace sgfpat {

enum class MoveError : uint8_t { None = 0, OffBoard, Occupied, Suicide, Ko, Superko };
const char* move_error_name(MoveError e);  // "occupied point", "suicide", ...

// Which repetitions a move may not make.  Simple: the single stone just
// captured may not be taken back at once (MoveError::Ko).  Positional: no
// move may recreate a position (the stones, whoever is to move) the board
// had before, setups included; a simple ko retake is still reported as
// MoveError::Ko, any other repetition as MoveError::Superko.
enum class KoRule : uint8_t { Simple, Positional };

struct AreaScore {
  int black = 0;  // black stones + empty regions bordered only by black
  int white = 0;
  int neutral = 0;
};

class Board {
 public:
  static constexpr int kMaxStride = kMaxBoardSize + 2;
  static constexpr int kMaxIndex = kMaxStride * kMaxStride;

  explicit Board(int size = 19);

  int size() const { return size_; }
  // Dense index of an on-board point; neighbours are index +-1, +-stride().
  int index(Point p) const { return (p.y + 1) * stride_ + (p.x + 1); }
  Point point(int idx) const { return Point{int8_t(idx % stride_ - 1), int8_t(idx / stride_ - 1)}; }
  int stride() const { return stride_; }
  bool on_board(Point p) const { return p.x >= 0 && p.y >= 0 && p.x < size_ && p.y < size_; }

  Color at(Point p) const { return Color(color_[index(p)]); }
  Color at_index(int idx) const { return Color(color_[idx]); }  // OffBoard on the border

  // Why `c` may not play at `p` now (MoveError::None when it may).
  // allow_suicide: multi-stone or single-stone suicide is then legal.
  MoveError check(Point p, Color c, bool allow_suicide = false, KoRule ko = KoRule::Simple) const;
  bool is_legal(Point p, Color c, bool allow_suicide = false) const {
    return check(p, c, allow_suicide) == MoveError::None;
  }
  // Fast form of is_legal for an on-board index.
  bool is_legal_index(int idx, Color c, bool allow_suicide = false) const;

  // Plays `c` at `p`: removes opponent chains left without liberties, then
  // (if allowed) the mover's own chain.  On an error the board is unchanged.
  MoveError play(Point p, Color c, bool allow_suicide = false, KoRule ko = KoRule::Simple);
  // A pass: clears the ko point.
  void pass();
  // Setup (AB/AW/AE): puts `c` (Empty to clear) at `p` without captures.
  void setup(Point p, Color c);

  // Stones removed by the last play() (captures, or own stones on suicide).
  const std::vector<int>& last_removed() const { return removed_; }
  // The point the next player may not take back because of simple ko, or -1.
  int ko_index() const { return ko_; }
  // Stones captured so far *by* color c.
  int captures(Color c) const { return captures_[int(c)]; }

  // Exact liberty count and stone count of the chain at p (0 if empty).
  int liberties(Point p) const;
  int chain_size(Point p) const;
  // True if the chain at idx has exactly one liberty.
  bool in_atari_index(int idx) const;
  // Number of stones of color c on the board.
  int stone_count(Color c) const;
  // Writes up to `max` distinct liberties of the chain at the stone `idx`
  // into `out` and returns how many it wrote (fewer than `max` means all).
  int chain_liberties(int idx, int* out, int max) const;
  // The next stone of the chain at the stone `idx` (a circular list: walking
  // it from idx comes back to idx after every stone of the chain).
  int next_stone(int idx) const { return next_[idx]; }

  // Zobrist hash of the stones (absolute colors, not the side to move).
  uint64_t hash() const { return hash_; }
  // True if the last play() recreated a position seen earlier on this board
  // (positional superko).  Detection only: the move was still made.
  bool last_move_repeated_position() const { return repeated_; }
  // The hash the board would have after `c` plays the legal move at the
  // empty point `idx` (its captures, and with suicide allowed its own chain,
  // removed), without playing it.
  uint64_t hash_after(int idx, Color c) const;
  // True if the board had the position of hash `h` before (now included).
  bool seen_position(uint64_t h) const;

  // Area scoring: stones, plus the empty regions that touch one colour
  // only.  With `owner`, also who has each point (owner[y * size + x]: the
  // stone's colour, the bordering colour of a territory, Empty for a
  // neutral point).
  AreaScore area_score(std::vector<Color>* owner = nullptr) const;

 private:
  struct Chain {
    uint16_t stones = 0;
    uint16_t pseudo_libs = 0;  // liberties counted once per adjacent stone
    uint32_t lib_sum = 0;      // sum of liberty indices (with multiplicity)
    uint64_t lib_sum_sq = 0;   // sum of their squares: atari iff n*sq == sum^2
  };

  void place_stone(int idx, Color c);
  void remove_chain(int head, std::vector<int>* out);
  void merge_chains(int a, int b);
  void add_lib(int head, int lib);
  void remove_lib(int head, int lib);
  void rebuild_chains();
  bool remember_position();

  int size_;
  int stride_;
  int ko_ = -1;
  Color ko_color_ = Color::Empty;  // who may not play at ko_: the capturer's opponent
  uint64_t hash_ = 0;
  bool repeated_ = false;
  std::array<int, 3> captures_{};
  std::array<uint8_t, kMaxIndex> color_{};  // Color (OffBoard around the board)
  std::array<uint16_t, kMaxIndex> head_{};  // chain head of a stone
  std::array<uint16_t, kMaxIndex> next_{};  // circular list of a chain's stones
  std::array<Chain, kMaxIndex> chain_{};    // valid at chain heads
  std::vector<int> removed_;
  std::vector<uint64_t> seen_positions_;  // open-addressed set of hashes
  size_t seen_count_ = 0;
};

// Board-independent Zobrist word for (color, index); fixed seed.
uint64_t position_zobrist(Color c, int idx);

}  // namespace sgfpat

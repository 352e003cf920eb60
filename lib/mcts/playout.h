// The default policy of the search (playouts) and the small tactical
// judgements it and the tree's priors share: captures, escapes from atari,
// self-atari, own eyes, and the area score of a finished playout with the
// owner of every point.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "board/board.h"
#include "eval/evaluator.h"

namespace sgfpat::mcts {

// Small fast PRNG (xoshiro256**), seeded through splitmix64.
class Rng {
 public:
  explicit Rng(uint64_t seed = 1);
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n > 0.
  uint32_t below(uint32_t n) { return uint32_t(((next() >> 32) * uint64_t(n)) >> 32); }
  // Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

uint64_t splitmix64(uint64_t& state);

// An empty point whose on-board neighbours are all c's stones and whose
// diagonals hold at most one opponent stone (none on the edge).
bool is_own_eye(const Board& board, int idx, Color c);

// What a legal move of `c` at the empty `idx` would do, judged without
// playing it.
struct MoveCheck {
  int libs = 0;             // liberties of the mover's chain after it (counted up to 3)
  bool captures = false;    // removes an opponent chain (then libs counts its points too)
  int captured_stones = 0;  // stones of the opponent chains in atari it takes
  bool joins = false;       // touches a chain of the mover's
  bool saves = false;       // a chain of the mover's in atari touches it and the result has >= 2 liberties
  bool self_atari() const { return libs <= 1 && !captures; }
};
MoveCheck check_move(const Board& board, int idx, Color c);

// A factor (around 1) for the prior of a legal move of `c` at `idx` from
// the tactics around it: captures and escapes up, self-atari down, and, on
// boards of 9 and more, the first two lines down when nothing stands near.
double tactical_factor(const Board& board, int idx, Color c);

// Which color owns each point at the end of a playout; Empty = neutral.
using Owners = std::array<uint8_t, Board::kMaxIndex>;

// Twice Black's result by area (stones + empty regions bordered by one
// color) with komi: 2 Black wins, 1 draw, 0 White wins.  Fills `owners`
// when given (index order of `board`).
int score_area(const Board& board, double komi, Owners* owners = nullptr);

struct PlayoutOptions {
  // Captures, escapes and self-atari avoidance (michi/Pachi style).  Off:
  // uniform random moves that do not fill the mover's own eye.
  bool tactics = true;
  // Probability that a capture or an escape found near the last move is
  // played, and that a self-atari drawn at random is rejected.
  double tactic_probability = 0.9;
  // With tactics: probability that a move completing a 3x3 shape
  // (patterns3x3.h) next to the last move is played when there is one
  // (0: none).
  double pattern_probability = 0.95;
};

// The default policy over one board; keeps the empty points in a list with
// their positions so a move or a capture updates it in O(1) per point.
class Playout {
 public:
  // `weigher` (may be null) scores random candidates with a levels-1..2
  // tracker of `playout_scheme` (rejection sampling by the priors' small levels).
  Playout(PlayoutOptions options, const Evaluator* weigher, const KeyScheme* playout_scheme);
  Playout(Playout&&) noexcept;
  ~Playout();

  // Plays from `b` (modified) with `c` to move, after `last` (the index of
  // the previous move, -1 for none or a pass), to the end: two passes in a
  // row or 3*size*size moves.  Returns twice Black's result (score_area).
  // `first_mover` (may be null) gets, for every point still 0 in it, the
  // color that played there first.
  int run(Board& b, Color c, int last, double komi, Rng& rng, Owners* owners = nullptr,
          std::array<uint8_t, Board::kMaxIndex>* first_mover = nullptr);

 private:
  void add(int idx);
  void remove(int idx);
  void swap_slots(int a, int b);
  int tactical_move(const Board& b, Color c, int last, Rng& rng);
  int pattern_move(const Board& b, Color c, int last, Rng& rng);
  int random_move(const Board& b, Color c, Rng& rng);

  PlayoutOptions options_;
  const Evaluator* weigher_;
  const KeyScheme* playout_scheme_;
  std::vector<int16_t> empties_;
  std::array<int16_t, Board::kMaxIndex> pos_{};
  std::vector<int> candidates_;
  std::unique_ptr<PatternTracker> tracker_template_;
  std::unique_ptr<PatternTracker> tracker_;
  int tracker_size_ = 0;
  double wmax_ = 0;
};

// The share of `playouts` playouts (default policy, tactics on) from
// `board` with `to_move` that end with each point Black's and White's, in
// y * size + x order: the end of the game as the playouts settle it.
struct Ownership {
  std::vector<float> black, white;
};
Ownership playout_ownership(const Board& board, Color to_move, double komi, int64_t playouts, uint64_t seed);

// One playout from a copy of `board` with uniform weights and no tactics
// (tests, benches).  Returns twice Black's result.
int random_playout(const Board& board, Color to_move, double komi, Rng& rng);

}  // namespace sgfpat::mcts

// Monte Carlo tree search over lib/board, with move priors from a priors
// file (or uniform priors without one).
//
// One iteration: selection from the root by the action value, expansion of
// the leaf reached (every legal move of the player to move becomes a child,
// with its prior), one playout from the leaf's position to the end of the
// game with the default policy, and the update of visits n and Black wins v
// on the path (root and leaf included).
//
// Accounting (what tests assert): the root is expanded before the first
// iteration and every iteration passes through it, so root.n == iterations
// and, when the root has children, the children's n add up to root.n.  Any
// other node is expanded by the iteration that first reaches it, whose
// playout starts there: an expanded non-root node with children has
// n == 1 + sum of its children's n; a node never reached has n == 0.
//
// Threads share one tree: expansion is guarded per node (an atomic state
// leaf -> expanding -> expanded; the one thread that wins the transition
// expands, the others wait for it), n, v and the virtual loss are atomics,
// and a virtual loss (counted as visits lost by the mover) makes concurrent
// threads spread over different children.  With threads = 1 and a seed the
// search is reproducible.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "board/board.h"
#include "eval/evaluator.h"
#include "priors/sgfpat_priors.h"

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

struct Node {
  Point move = kPass;  // the move leading here (played by the parent's mover)
  float prior = 0;     // its prior for that mover
  std::atomic<int32_t> n{0};              // visits
  std::atomic<int32_t> black_wins_x2{0};  // Black wins counted twice (a drawn playout adds 1)
  std::atomic<int32_t> vloss{0};          // threads currently below this node (virtual losses)
  std::atomic<uint8_t> state{0};  // kLeaf, kExpanding, kExpanded
  int32_t num_children = 0;       // written before state becomes kExpanded
  std::unique_ptr<Node[]> children;

  static constexpr uint8_t kLeaf = 0, kExpanding = 1, kExpanded = 2;
  double black_wins() const { return black_wins_x2.load(std::memory_order_relaxed) / 2.0; }
};

// The action value of a child for `mover` (the player choosing among the
// children): with w the mover's wins (v for Black, n - v for White),
//   w/n + prior/(1+n)  when n > 0,  prior  when n == 0.
// The teaching material writes White's prior term as 1 - prior, which holds
// only when the prior is Black's winning chance.  Our priors are move
// probabilities for the player who moves, so White uses its own moves'
// priors as they are, exactly like Black.
// With priors that are move probabilities (about 1/legal moves when
// uniform), an unvisited child's value `prior` is far below any visited
// child's win rate, so the formula alone never tries a second move once one
// wins a playout.  `explore` (0 = the formula exactly) adds a UCT bonus
//   explore * sqrt(ln(parent_n + 1) / (1 + n))
// so every move is eventually tried; the prior still orders the unvisited
// moves and weighs in through prior/(1+n).
double action_value(Color mover, double n, double black_wins, double prior, double explore = 0,
                    double parent_n = 0);

// The child `mover` selects: the largest action value (virtual losses count
// as visits the mover lost), ties broken by the larger prior, then by order.
int select_child(const Node& parent, Color mover, int virtual_loss = 1, double explore = 0);

// An empty point whose on-board neighbours are all c's stones and whose
// diagonals hold at most one opponent stone (none on the edge).
bool is_own_eye(const Board& board, int idx, Color c);

struct MovePrior {
  Point point;
  double prior;
};
// Gives every legal move of `mover` (no pass) with its prior.
using PriorFn = std::function<void(const Board& board, Color mover, std::vector<MovePrior>* out)>;

struct SearchOptions {
  int64_t iterations = 10000;
  int threads = 1;
  uint64_t seed = 1;
  double komi = 7.5;
  int virtual_loss = 1;
  double explore = 0;            // see action_value (the tools default to 1)
  bool playout_priors = false;   // weight playout moves by levels 1..2 of the priors
  bool allow_suicide = false;
  // Leave out of the tree the moves that fill the mover's own eye (as the
  // playouts do); with none left the mover has no move (the GTP engine then
  // passes).  Off by default: the tree then holds every legal move.
  bool skip_own_eyes = false;
  PriorFn prior_fn;              // overrides the priors file when set (tests)
};

struct ChildStats {
  Point move = kPass;
  int64_t visits = 0;
  double black_wins = 0;
  double prior = 0;
  double mover_win_rate() const;  // for the root's mover; 0 when unvisited
  Color mover = Color::Black;
};

struct SearchResult {
  bool has_move = false;     // false: the player to move has no legal move
  Point best = kPass;        // the most visited root move
  int64_t iterations = 0;
  int64_t root_visits = 0;
  double seconds = 0;
  double playouts_per_second = 0;
  int64_t nodes = 0;         // nodes allocated in the tree
  std::vector<ChildStats> children;  // root moves in board order
};

class Search {
 public:
  // `priors` may be null (uniform priors); when given it must outlive this.
  Search(const sgfpat_priors::Priors* priors, EvalOptions eval_options = {}, SearchOptions options = {});
  ~Search();

  // Searches `board` (never modified: copied) for `to_move`.
  SearchResult run(const Board& board, Color to_move);
  // The tree of the last run (valid until the next run).
  const Node* root() const { return root_.get(); }

  const SearchOptions& options() const { return options_; }
  SearchOptions& options() { return options_; }

 private:
  struct Worker;
  void expand(Node* node, const Board& board, Color mover, const PatternTracker* tracker);
  void work(int thread_index);

  const sgfpat_priors::Priors* priors_;
  std::unique_ptr<Evaluator> evaluator_;
  SearchOptions options_;
  std::unique_ptr<Node> root_;
  Board root_board_;
  Color root_color_ = Color::Black;
  std::unique_ptr<PatternTracker> root_tracker_;
  std::atomic<int64_t> started_{0};
  std::atomic<int64_t> nodes_{0};
};

// The default policy: the player to move plays a random legal move that
// does not fill its own eye, or passes when it has none; two passes in a
// row or 3*size*size moves end the game, scored by area with komi.  This is
// one playout from a copy of `board` with uniform weights (tests, benches).
// Returns twice Black's result: 2 (Black wins), 1 (draw) or 0.
int random_playout(const Board& board, Color to_move, double komi, Rng& rng);

}  // namespace sgfpat::mcts

// Monte Carlo tree search over lib/board, with move priors from a priors
// file (or uniform priors without one).
//
// One iteration: selection from the root by the tree policy, expansion of
// the leaf reached (every legal move of the player to move becomes a child,
// with its prior), one playout from the leaf's position to the end of the
// game with the default policy (lib/mcts/playout.h), and the update of
// visits n, Black wins v and, with RAVE, the all-moves-as-first statistics
// of the siblings on the path.
//
// Tree policies (TreePolicy):
// - PuctRave (the engine's): value = q + c_puct * P * sqrt(N) / (1 + n),
//   with q the mover's win rate mixed with its AMAF win rate by
//   beta = m / (m + n + n m / rave_equiv) (m AMAF visits), and P the prior:
//   the priors' move probability (uniform without priors) times the
//   tactical factor of playout.h, renormalized.
// - Seed: the first engine's formula, w/n + prior/(1+n) plus a UCT bonus
//   (action_value below), priors as given.
//
// Accounting (what tests assert): every iteration passes through the root,
// so root.n == iterations run and, when the root has children, the
// children's n add up to root.n.  With expand_visits = 1 any other node is
// expanded by the iteration that first reaches it, whose playout starts
// there: an expanded non-root node with children then has n == 1 + sum of
// its children's n; a node never reached has n == 0.  With a tree reused
// from the previous move, the root keeps the visits it had.
//
// Memory: the tree holds at most max_tree_mb of nodes; once full, leaves
// are no longer expanded and iterations end their selection there.
//
// Threads share one tree: expansion is guarded per node (an atomic state
// leaf -> expanding -> expanded; the one thread that wins the transition
// expands, the others wait for it), the statistics and the virtual loss are
// atomics, and a virtual loss (counted as visits lost by the mover) makes
// concurrent threads spread over different children.  With threads = 1, a
// seed and no time limit the search is reproducible.
#pragma once
#include <atomic>
#include <chrono>
#include <string>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "board/board.h"
#include "eval/evaluator.h"
#include "mcts/playout.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat::mcts {

struct Node {
  Point move = kPass;  // the move leading here (played by the parent's mover)
  float prior = 0;     // its prior for that mover
  std::atomic<int32_t> n{0};       // visits
  std::atomic<int32_t> black_wins_x2{0};      // Black wins counted twice (a drawn playout adds 1)
  std::atomic<int32_t> vloss{0};   // threads currently below this node (virtual losses)
  std::atomic<int32_t> amaf_n{0};  // playouts below the parent where the parent's mover played `move` first
  std::atomic<int32_t> amaf_black_wins_x2{0}; // Black wins of those, counted twice
  std::atomic<uint8_t> state{0};   // kLeaf, kExpanding, kExpanded
  int32_t num_children = 0;        // written before state becomes kExpanded
  std::unique_ptr<Node[]> children;

  static constexpr uint8_t kLeaf = 0, kExpanding = 1, kExpanded = 2;
  double black_wins() const { return black_wins_x2.load(std::memory_order_relaxed) / 2.0; }
};

// The seed action value of a child for `mover` (the player choosing among
// the children): with w the mover's wins (v for Black, n - v for White),
//   w/n + prior/(1+n)  when n > 0,  prior  when n == 0,
// plus, when `explore` > 0, the UCT bonus explore * sqrt(ln(parent_n + 1) / (1 + n)).
// Our priors are move probabilities for the player who moves, so White uses
// its own moves' priors as they are, exactly like Black.
double action_value(Color mover, double n, double black_wins, double prior, double explore = 0,
                    double parent_n = 0);

// The child `mover` selects by the seed value (virtual losses count as
// visits the mover lost), ties broken by the larger prior, then by order.
int select_child(const Node& parent, Color mover, int virtual_loss = 1, double explore = 0);

enum class TreePolicy : uint8_t { PuctRave, Seed };
const char* tree_policy_name(TreePolicy p);  // "puct-rave", "seed"
bool parse_tree_policy(const std::string& name, TreePolicy* out);

// The PUCT-RAVE value of `child` for `mover` at a parent visited parent_n times.
double puct_rave_value(const Node& child, Color mover, double parent_n, double c_puct, double rave_equiv,
                       int virtual_loss = 1);
int select_child_puct_rave(const Node& parent, Color mover, double c_puct, double rave_equiv, int virtual_loss = 1);

struct MovePrior {
  Point point;
  double prior;
};
// Gives every legal move of `mover` (no pass) with its prior.
using PriorFn = std::function<void(const Board& board, Color mover, std::vector<MovePrior>* out)>;

struct SearchOptions {
  int64_t iterations = 10000;    // playouts per run (a cap when max_seconds is set too)
  double max_seconds = 0;        // wall-clock budget per run; 0 = none
  int threads = 1;
  uint64_t seed = 1;
  double komi = 7.5;
  int virtual_loss = 1;
  TreePolicy policy = TreePolicy::PuctRave;
  double c_puct = 1.0;           // PuctRave exploration weight
  double rave_equiv = 2000;      // PuctRave: visits at which AMAF and real values weigh alike; 0 = no RAVE
  bool prior_heuristics = true;  // multiply the priors by tactical_factor (PuctRave only)
  bool playout_tactics = true;   // captures, escapes, no self-atari in playouts
  double playout_patterns = 0.95; // with playout_tactics: PlayoutOptions::pattern_probability
  double explore = 0;            // Seed policy: see action_value (the tools default to 1)
  bool playout_priors = false;   // weight playout moves by levels 1..2 of the priors
  bool allow_suicide = false;
  // Leave out of the tree the moves that fill the mover's own eye (as the
  // playouts do); with none left the mover has no move (the GTP engine then
  // passes).  Off by default: the tree then holds every legal move.
  bool skip_own_eyes = false;
  // PuctRave: every expanded node with a move also holds a pass (two passes
  // in a row end the tree's game; the playout from there settles it).
  bool pass_in_tree = true;
  int expand_visits = 1;         // visits a leaf needs before it is expanded (the root always is)
  int64_t max_tree_mb = 0;       // memory bound of the tree in MiB; 0 = none (the tools default to 1024)
  bool reuse_tree = false;       // start from the subtree of the previous run when the board follows it
  bool early_stop = false;       // stop when no other root move can overtake the most visited one
  PriorFn prior_fn;              // overrides the priors file when set (tests)
};

struct ChildStats {
  Point move = kPass;
  int64_t visits = 0;
  double black_wins = 0;
  double prior = 0;
  int64_t amaf_visits = 0;
  double mover_win_rate() const;  // for the root's mover; 0 when unvisited
  Color mover = Color::Black;
};

struct SearchResult {
  bool has_move = false;     // false: the player to move has no legal move
  Point best = kPass;        // the most visited root move (kPass: the tree prefers to pass)
  int64_t iterations = 0;    // iterations run by this call
  int64_t root_visits = 0;   // visits of the root (reused ones included)
  int64_t reused_visits = 0; // visits the root had from the previous run
  double seconds = 0;
  double playouts_per_second = 0;
  int64_t nodes = 0;         // nodes in the tree
  bool tree_full = false;    // the memory bound stopped expansion
  double win_rate = 0.5;     // the mover's win rate at the root
  // For every point (y * size + x) the share of this run's playouts that
  // ended with it Black's (stone or territory), and White's.
  std::vector<float> black_owned, white_owned;
  std::vector<ChildStats> children;  // root moves in board order
};

class Search {
 public:
  // `priors` may be null (uniform priors); when given it must outlive this.
  Search(const sgfpat_priors::Priors* priors, EvalOptions eval_options = {}, SearchOptions options = {});
  ~Search();

  // Searches `board` (never modified: copied) for `to_move`; `last_move`
  // (the opponent's previous move, if known) guides the first playout move.
  SearchResult run(const Board& board, Color to_move, Point last_move = kPass);
  // The tree of the last run (valid until the next run).
  const Node* root() const { return root_.get(); }
  // Drops the tree (the next run starts afresh).
  void clear_tree();

  // Priors of every legal move of `mover` in `board` as the tree gives them
  // (heat maps, tests).
  std::vector<MovePrior> priors_of(const Board& board, Color mover) const;

  // Nodes a tree of max_tree_mb may hold (0: no bound).
  int64_t max_nodes() const;

  const SearchOptions& options() const { return options_; }
  SearchOptions& options() { return options_; }

 private:
  struct Worker;
  void compute_priors(const Board& board, Color mover, const PatternTracker* tracker, std::vector<MovePrior>* out) const;
  void expand(Node* node, const Board& board, Color mover, const PatternTracker* tracker);
  bool try_reuse(const Board& board, Color to_move);
  bool passes_in_tree() const { return options_.pass_in_tree && options_.policy == TreePolicy::PuctRave; }
  void work(int thread_index, Worker& w);
  bool should_stop(int64_t started);

  const sgfpat_priors::Priors* priors_;
  std::unique_ptr<Evaluator> evaluator_;
  SearchOptions options_;
  std::unique_ptr<Node> root_;
  Board root_board_;
  Color root_color_ = Color::Black;
  int root_last_ = -1;
  std::unique_ptr<PatternTracker> root_tracker_;
  std::atomic<int64_t> started_{0};
  std::atomic<int64_t> nodes_{0};
  std::atomic<int64_t> done_{0};
  std::atomic<bool> stop_{false};
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace sgfpat::mcts

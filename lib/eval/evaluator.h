// The move evaluator: for every legal move of a position, the largest
// pattern level known to the priors (dichotomic lookup) and a move
// probability derived from the counts.  evaluate() looks all the legal moves
// up together (Priors::largest_levels, lookup_many); score() looks up one.
#pragma once
#include <cstdint>
#include <vector>

#include "board/board.h"
#include "pattern/tracker.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat {

enum class Estimator {
  Raw,       // played / seen at the largest known level m
  Smoothed,  // p_i = (played_i + a p_{i-1}) / (seen_i + a), p_0 = base rate, up to m
};

struct EvalOptions {
  Estimator estimator = Estimator::Smoothed;
  double smoothing = 4.0;  // `a` of the smoothed estimator
};

struct MoveEval {
  Point point = kPass;
  int level = 0;       // largest level present in the priors (0: none)
  double score = 0;    // the estimator's value (a play rate)
  double prob = 0;     // score normalized over the legal moves
  sgfpat_priors::Counts counts;  // at `level`
};

class Evaluator {
 public:
  // `priors` must outlive the evaluator.
  Evaluator(const sgfpat_priors::Priors& priors, EvalOptions options = {});

  // The key scheme a PatternTracker must use to feed this evaluator.
  KeyScheme scheme() const { return scheme_; }
  const EvalOptions& options() const { return options_; }

  // Scores the candidate at `idx` for `mover` (tracker in step with the
  // board); prob is left 0.  Same level, score and counts as evaluate().
  MoveEval score(const PatternTracker& tracker, int idx, Color mover) const;

  // Every legal move of `mover` (no pass), probabilities summing to 1, in
  // board order.  `tracker` must be in step with `board`.  Thread-safe.
  void evaluate(const Board& board, const PatternTracker& tracker, Color mover, std::vector<MoveEval>* out,
                bool allow_suicide = false) const;
  // The same, building a tracker for the board first (slower).
  std::vector<MoveEval> evaluate(const Board& board, Color mover, bool allow_suicide = false) const;

 private:
  // The first level whose counts the estimator needs for a largest level m > 0.
  int first_level(int m) const { return options_.estimator == Estimator::Raw ? m : 1; }
  // Sets e->counts and e->score from e->level and `counts`, the counts of
  // levels first_level(e->level) .. e->level (absent ones zero).
  void estimate(MoveEval* e, const sgfpat_priors::Counts* counts) const;

  const sgfpat_priors::Priors& priors_;
  EvalOptions options_;
  KeyScheme scheme_;
  double base_rate_;
};

// A tracker in step with `board` (for one-off evaluations).
PatternTracker tracker_for(const Board& board, const KeyScheme& scheme);

}  // namespace sgfpat

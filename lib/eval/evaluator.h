// The move evaluator: for every legal move of a position, the largest
// pattern level known to the priors (dichotomic lookup) and a move
// probability derived from the counts, and (with a trained model, the
// default when the priors file has one) from the tactical features of the
// move.  evaluate() looks all the legal moves up together
// (Priors::largest_levels, lookup_many); score() looks up one.
#pragma once
#include <cstdint>
#include <vector>

#include "board/board.h"
#include "features/position_features.h"
#include "pattern/tracker.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat {

enum class Estimator {
  Raw,       // played / seen at the largest known level m
  Smoothed,  // p_i = (played_i + a p_{i-1}) / (seen_i + a), p_0 = base rate, up to m
  Model,     // the trained model of the priors file (smoothed p times the features' weights)
  Auto,      // Model when the priors file has one, else Smoothed
};

struct EvalOptions {
  Estimator estimator = Estimator::Auto;
  double smoothing = 4.0;  // `a` of the smoothed estimator (the model uses its own)
  uint32_t ablate = 0;     // Model: feature groups (bit g: sgfpat_priors::FeatureGroup g) left out
};

struct MoveEval {
  Point point = kPass;
  int level = 0;       // largest level present in the priors (0: none)
  double score = 0;    // the estimator's value (a play rate, or the model's strength)
  double rate = 0;     // the play rate estimate (score without the model's weights)
  double prob = 0;     // score normalized over the legal moves
  sgfpat_priors::Counts counts;  // at `level`
  uint8_t features[sgfpat_priors::kFeatureGroups] = {};  // Model only: level of each feature group
};

class Evaluator {
 public:
  // `priors` must outlive the evaluator.
  Evaluator(const sgfpat_priors::Priors& priors, EvalOptions options = {});

  // The key scheme a PatternTracker must use to feed this evaluator.
  KeyScheme scheme() const { return scheme_; }
  const EvalOptions& options() const { return options_; }
  // The estimator in use (Auto resolved).
  Estimator estimator() const { return estimator_; }

  // Scores the candidate at `idx` for `mover` (tracker in step with the
  // board); prob is left 0.  Same level, score and counts as evaluate()
  // with the Raw and Smoothed estimators (the model's features need the
  // board: use evaluate()).
  MoveEval score(const PatternTracker& tracker, int idx, Color mover) const;

  // Every legal move of `mover` (no pass), probabilities summing to 1, in
  // board order.  `tracker` must be in step with `board`; `recent` are the
  // moves that led to the position (the model's distance features; unknown
  // moves count as passes).  Thread-safe.
  void evaluate(const Board& board, const PatternTracker& tracker, Color mover, std::vector<MoveEval>* out,
                bool allow_suicide = false, RecentMoves recent = {}) const;
  // Model only: recomputes the scores and probabilities of evaluate()'s
  // moves with the feature groups of `skip` (bit g) left out (ablation).
  void reweigh(std::vector<MoveEval>* moves, uint32_t skip) const;
  // The same, building a tracker for the board first (slower).
  std::vector<MoveEval> evaluate(const Board& board, Color mover, bool allow_suicide = false,
                                 RecentMoves recent = {}) const;

 private:
  // The first level whose counts the estimator needs for a largest level m > 0.
  int first_level(int m) const { return estimator_ == Estimator::Raw ? m : 1; }
  // Sets e->counts and e->score from e->level and `counts`, the counts of
  // levels first_level(e->level) .. e->level (absent ones zero).
  void estimate(MoveEval* e, const sgfpat_priors::Counts* counts) const;

  const sgfpat_priors::Priors& priors_;
  EvalOptions options_;
  Estimator estimator_;
  const sgfpat_priors::ModelSection* model_ = nullptr;  // with Estimator::Model
  // exp(weight), 1 for the groups of options_.ablate: a product of these is
  // cheaper than an exp() per candidate.
  std::vector<double> gamma_;
  KeyScheme scheme_;
  double base_rate_;
};

// A tracker in step with `board` (for one-off evaluations).
PatternTracker tracker_for(const Board& board, const KeyScheme& scheme);

}  // namespace sgfpat

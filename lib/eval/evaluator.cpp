#include "eval/evaluator.h"

#include <algorithm>
#include <cmath>

namespace sgfpat {

Evaluator::Evaluator(const sgfpat_priors::Priors& priors, EvalOptions options)
    : priors_(priors), options_(options) {
  scheme_.seed = priors.seed();
  scheme_.levels = priors.levels();
  scheme_.symmetry = priors.symmetry();
  // A rate is at most 1, even from a file whose counts say otherwise
  // (damaged or forged): the scores and their sum stay finite.
  base_rate_ = priors.base_rate() > 0 ? std::min(1.0, priors.base_rate()) : 1e-3;
  estimator_ = options.estimator;
  if (estimator_ == Estimator::Auto) estimator_ = priors.model() ? Estimator::Model : Estimator::Smoothed;
  // Asked for a model the file does not have: the smoothed estimate is the
  // model with every weight 0.
  if (estimator_ == Estimator::Model) model_ = priors.model();
  if (model_) {
    gamma_.assign(sgfpat_priors::kModelWeights, 1.0);
    for (int g = 0; g < sgfpat_priors::kFeatureGroups; ++g)
      if (!(options_.ablate >> g & 1u))
        for (int v = 0; v < sgfpat_priors::kGroupLevels[g]; ++v) {
          const size_t i = size_t(sgfpat_priors::group_offset(g) + v);
          gamma_[i] = std::exp(model_->weights[i]);
        }
  }
}

void Evaluator::estimate(MoveEval* e, const sgfpat_priors::Counts* counts) const {
  if (e->level == 0) {
    e->score = e->rate = base_rate_;
    return;
  }
  const int first = first_level(e->level);
  e->counts = counts[e->level - first];
  if (estimator_ == Estimator::Raw) {
    e->score = e->rate = e->counts.seen ? double(std::min(e->counts.played, e->counts.seen)) / double(e->counts.seen)
                                        : base_rate_;
    return;
  }
  const double a = model_ ? model_->smoothing : options_.smoothing;
  e->score = e->rate = sgfpat_priors::smoothed_estimate(counts, e->level - first + 1, base_rate_, a);
}

MoveEval Evaluator::score(const PatternTracker& tracker, int idx, Color mover) const {
  uint64_t keys[kMaxLevels];
  const int top = std::min(priors_.levels(), tracker.scheme().levels);
  tracker.walk(idx, mover, [&](int level, uint64_t key) {
    keys[level - 1] = key;
    return true;
  }, top);
  MoveEval e;
  e.level = priors_.largest_level(keys, top);
  sgfpat_priors::Counts counts[kMaxLevels];
  if (e.level > 0)
    for (int level = first_level(e.level); level <= e.level; ++level)
      priors_.lookup(level, keys[level - 1], &counts[level - first_level(e.level)]);
  estimate(&e, counts);
  return e;
}

void Evaluator::evaluate(const Board& board, const PatternTracker& tracker, Color mover, std::vector<MoveEval>* out,
                         bool allow_suicide, RecentMoves recent) const {
  out->clear();
  const int top = std::min(priors_.levels(), tracker.scheme().levels);
  const size_t stride = size_t(std::max(top, 1));
  // Every candidate's keys first, so that the look-ups can be batched.
  std::vector<uint64_t> keys;
  keys.reserve(size_t(board.size()) * size_t(board.size()) * stride);
  for (int y = 0; y < board.size(); ++y)
    for (int x = 0; x < board.size(); ++x) {
      Point p{int8_t(x), int8_t(y)};
      int idx = board.index(p);
      if (!board.is_legal_index(idx, mover, allow_suicide)) continue;
      MoveEval e;
      e.point = p;
      out->push_back(e);
      keys.resize(keys.size() + stride);
      uint64_t* k = &keys[keys.size() - stride];
      tracker.walk(idx, mover, [&](int level, uint64_t key) {
        k[level - 1] = key;
        return true;
      }, top);
    }
  const size_t n = out->size();
  std::vector<int> levels(n);
  priors_.largest_levels(keys.data(), stride, top, n, levels.data());

  // The counts each estimate needs, candidate after candidate.
  std::vector<int> q_level;
  std::vector<uint64_t> q_key;
  std::vector<size_t> first_query(n + 1);
  for (size_t c = 0; c < n; ++c) {
    first_query[c] = q_level.size();
    if (levels[c] == 0) continue;
    for (int level = first_level(levels[c]); level <= levels[c]; ++level) {
      q_level.push_back(level);
      q_key.push_back(keys[c * stride + size_t(level) - 1]);
    }
  }
  first_query[n] = q_level.size();
  std::vector<sgfpat_priors::Counts> counts(q_level.size());
  // Absent counts (only in a file whose closure is broken) stay zero, as in score().
  priors_.lookup_many(q_level.data(), q_key.data(), q_level.size(), counts.data(), nullptr);

  for (size_t c = 0; c < n; ++c) {
    MoveEval& e = (*out)[c];
    e.level = levels[c];
    estimate(&e, counts.data() + first_query[c]);
  }
  if (model_) {
    sgfpat_priors::Tactics tactics;
    setup_tactics(board, mover, recent, &tactics);
    for (MoveEval& e : *out) {
      tactics.compute(feature_point(e.point, board.size()), e.features);
      sgfpat_priors::set_pattern_groups(e.rate, e.level, e.features);
    }
  }
  reweigh(out, options_.ablate);
}

void Evaluator::reweigh(std::vector<MoveEval>* moves, uint32_t skip) const {
  double total = 0;
  for (MoveEval& e : *moves) {
    if (!model_) {
      e.score = e.rate;
    } else if (skip == options_.ablate) {
      double s = e.rate;
      for (int g = 0, o = 0; g < sgfpat_priors::kFeatureGroups; o += sgfpat_priors::kGroupLevels[g++])
        s *= gamma_[size_t(o + e.features[g])];
      e.score = s;
    } else {
      e.score = e.rate * std::exp(sgfpat_priors::log_strength(*model_, e.features, skip));
    }
    total += e.score;
  }
  for (MoveEval& e : *moves) e.prob = total > 0 ? e.score / total : 1.0 / double(moves->size());
}

std::vector<MoveEval> Evaluator::evaluate(const Board& board, Color mover, bool allow_suicide,
                                          RecentMoves recent) const {
  PatternTracker tracker = tracker_for(board, scheme_);
  std::vector<MoveEval> out;
  evaluate(board, tracker, mover, &out, allow_suicide, recent);
  return out;
}

PatternTracker tracker_for(const Board& board, const KeyScheme& scheme) {
  PatternTracker tracker(scheme, board.size());
  for (int y = 0; y < board.size(); ++y)
    for (int x = 0; x < board.size(); ++x) {
      int idx = board.index(Point{int8_t(x), int8_t(y)});
      if (board.at_index(idx) != Color::Empty) tracker.set(idx, board.at_index(idx));
    }
  return tracker;
}

}  // namespace sgfpat

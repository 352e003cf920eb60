#include "eval/evaluator.h"

namespace sgfpat {

Evaluator::Evaluator(const sgfpat_priors::Priors& priors, EvalOptions options)
    : priors_(priors), options_(options) {
  scheme_.seed = priors.seed();
  scheme_.levels = priors.levels();
  scheme_.symmetry = priors.symmetry();
  base_rate_ = priors.base_rate() > 0 ? priors.base_rate() : 1e-3;
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
  if (e.level == 0) {
    e.score = base_rate_;
    return e;
  }
  priors_.lookup(e.level, keys[e.level - 1], &e.counts);
  if (options_.estimator == Estimator::Raw) {
    e.score = e.counts.seen ? double(e.counts.played) / double(e.counts.seen) : base_rate_;
    return e;
  }
  double p = base_rate_;
  const double a = options_.smoothing;
  for (int level = 1; level <= e.level; ++level) {
    sgfpat_priors::Counts c;
    if (level == e.level) c = e.counts;
    else priors_.lookup(level, keys[level - 1], &c);
    p = (double(c.played) + a * p) / (double(c.seen) + a);
  }
  e.score = p;
  return e;
}

void Evaluator::evaluate(const Board& board, const PatternTracker& tracker, Color mover, std::vector<MoveEval>* out,
                         bool allow_suicide) const {
  out->clear();
  double total = 0;
  for (int y = 0; y < board.size(); ++y)
    for (int x = 0; x < board.size(); ++x) {
      Point p{int8_t(x), int8_t(y)};
      int idx = board.index(p);
      if (!board.is_legal_index(idx, mover, allow_suicide)) continue;
      MoveEval e = score(tracker, idx, mover);
      e.point = p;
      total += e.score;
      out->push_back(e);
    }
  for (MoveEval& e : *out) e.prob = total > 0 ? e.score / total : 1.0 / double(out->size());
}

std::vector<MoveEval> Evaluator::evaluate(const Board& board, Color mover, bool allow_suicide) const {
  PatternTracker tracker = tracker_for(board, scheme_);
  std::vector<MoveEval> out;
  evaluate(board, tracker, mover, &out, allow_suicide);
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

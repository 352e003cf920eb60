#include "eval/accuracy.h"

#include <algorithm>
#include <cmath>

namespace sgfpat {

void PredictionStats::add(double g, double t, double prob) {
  ++positions;
  const int ks[4] = {1, 3, 5, 10};
  for (int i = 0; i < 4; ++i) top[size_t(i)] += std::clamp((ks[i] - g) / t, 0.0, 1.0);
  loglik += std::log(std::max(prob, 1e-300));
  // Spread the position uniformly over the tied ranks g+1 .. g+t.
  size_t last = size_t(g + t);
  if (at_rank.size() < last) at_rank.resize(last, 0.0);
  for (size_t r = size_t(g); r < last; ++r) at_rank[r] += 1.0 / t;
}

void PredictionStats::merge(const PredictionStats& o) {
  positions += o.positions;
  for (size_t i = 0; i < 4; ++i) top[i] += o.top[i];
  loglik += o.loglik;
  if (at_rank.size() < o.at_rank.size()) at_rank.resize(o.at_rank.size(), 0.0);
  for (size_t r = 0; r < o.at_rank.size(); ++r) at_rank[r] += o.at_rank[r];
}

const char* AccuracyReport::phase_name(int i) {
  static const char* names[] = {"1-30", "31-80", "81-150", "151+"};
  return names[i];
}

int AccuracyReport::phase_of(int n) { return n <= 30 ? 0 : n <= 80 ? 1 : n <= 150 ? 2 : 3; }

void AccuracyReport::add_position(const std::vector<MoveEval>& moves, Point played, int move_number) {
  const MoveEval* mine = nullptr;
  for (const MoveEval& e : moves)
    if (e.point == played) mine = &e;
  if (!mine) return;  // not a legal candidate: cannot be ranked
  double g = 0, t = 0;
  for (const MoveEval& e : moves) {
    if (e.prob > mine->prob) ++g;
    else if (e.prob == mine->prob) ++t;
    calibration.add(e.prob, &e == mine);
  }
  all.add(g, t, mine->prob);
  phases[size_t(phase_of(move_number))].add(g, t, mine->prob);
}

void Calibration::add(double prob, bool was_played) {
  const size_t b = size_t(bin_of(prob));
  ++candidates[b];
  predicted[b] += prob;
  played[b] += was_played ? 1 : 0;
}

void Calibration::merge(const Calibration& o) {
  for (size_t b = 0; b < 10; ++b) {
    candidates[b] += o.candidates[b];
    predicted[b] += o.predicted[b];
    played[b] += o.played[b];
  }
}

void AccuracyReport::merge(const AccuracyReport& o) {
  all.merge(o.all);
  calibration.merge(o.calibration);
  for (size_t i = 0; i < phases.size(); ++i) phases[i].merge(o.phases[i]);
  games += o.games;
  skipped_games += o.skipped_games;
  candidates += o.candidates;
  eval_seconds += o.eval_seconds;
  eval_cpu_seconds += o.eval_cpu_seconds;
}

}  // namespace sgfpat

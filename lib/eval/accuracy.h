// Move-prediction statistics: how the evaluator ranks the moves actually
// played.  Ties are broken at random in expectation: a played move tied
// with t moves (itself included) below g better ones is in the top k with
// probability clamp((k - g) / t, 0, 1).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eval/evaluator.h"

namespace sgfpat {

struct PredictionStats {
  uint64_t positions = 0;
  std::array<double, 4> top{};  // top-1, 3, 5, 10 hits (fractional)
  double loglik = 0;            // sum of log(prob of the played move)
  std::vector<double> at_rank;  // at_rank[r-1]: expected positions whose played move has rank r

  void add(double g, double t, double prob);
  void merge(const PredictionStats& o);
  double top_rate(int i) const { return positions ? top[size_t(i)] / double(positions) : 0; }
  double mean_loglik() const { return positions ? loglik / double(positions) : 0; }
};

// Predicted against observed probability: every candidate of every position
// falls in the bin of its predicted probability (bin i: [i/10, (i+1)/10)),
// which sums its predictions and counts it and whether it was played.
struct Calibration {
  std::array<uint64_t, 10> candidates{};
  std::array<double, 10> predicted{};  // sum of predicted probabilities
  std::array<uint64_t, 10> played{};

  static int bin_of(double prob) { return prob >= 1 ? 9 : prob <= 0 ? 0 : int(prob * 10); }
  void add(double prob, bool was_played);
  void merge(const Calibration& o);
};

struct AccuracyReport {
  PredictionStats all;
  Calibration calibration;
  std::array<PredictionStats, 4> phases;  // moves 1-30, 31-80, 81-150, 151+
  uint64_t games = 0, skipped_games = 0;
  uint64_t candidates = 0;
  double eval_seconds = 0;      // wall time in Evaluator::evaluate
  double eval_cpu_seconds = 0;  // the evaluating thread's CPU time in it (robust to a loaded machine)

  static const char* phase_name(int i);
  static int phase_of(int move_number);
  // Records one position: `moves` from Evaluator::evaluate, `played` the move made.
  void add_position(const std::vector<MoveEval>& moves, Point played, int move_number);
  void merge(const AccuracyReport& o);
};

}  // namespace sgfpat

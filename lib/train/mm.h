// Coulom's minorization-maximization (MM) for the generalized Bradley-Terry
// model ("Computing Elo Ratings of Move Patterns in the Game of Go", 2007):
// a candidate's strength is exp(log_rate) times the product of one gamma per
// feature group, and the played move wins against the other candidates with
// probability strength / sum of strengths.  Each group's gammas are updated
// in turn by gamma_i = (W_i + 1) / (sum_j C_ij / E_j + 2 / (gamma_i + 1)),
// the +1 and 2/(gamma+1) being Coulom's prior (one virtual win and one loss
// against a gamma of 1), which keeps unseen levels at weight 0.
#pragma once
#include <array>
#include <functional>
#include <vector>

#include "train/training_set.h"

namespace sgfpat {

struct MmOptions {
  int iterations = 20;       // sweeps over every group
  uint32_t frozen = 0;       // groups (bit g) whose weights stay 0
  double min_gain = 1e-6;    // stop when a sweep improves the mean log-likelihood less
};

struct MmResult {
  std::vector<double> weights;  // log gammas, sgfpat_priors::ModelSection::weights order
  std::vector<double> loglik;   // mean log-likelihood before each sweep, then after the last
  int iterations = 0;
};

// Fits the weights to `data`.  Deterministic.  `progress` (may be empty) is
// called after every sweep with its number and the mean log-likelihood.
MmResult train_mm(const TrainingSet& data, const MmOptions& options,
                  const std::function<void(int, double)>& progress = {});

// Mean log-likelihood of the played moves under `weights`.
double mean_loglik(const TrainingSet& data, const std::vector<double>& weights);

}  // namespace sgfpat

#include "train/mm.h"

#include <cmath>

#include "priors/sgfpat_priors.h"

namespace sgfpat {

namespace {
constexpr int G = TrainingSet::kGroups;

// Strength of every candidate under `weights`.
std::vector<double> strengths(const TrainingSet& data, const std::vector<double>& weights) {
  std::vector<double> s(data.candidates());
  for (size_t k = 0; k < s.size(); ++k) {
    double l = data.log_rate[k];
    for (int g = 0; g < G; ++g) l += weights[size_t(sgfpat_priors::group_offset(g) + data.levels[k * G + size_t(g)])];
    s[k] = std::exp(l);
  }
  return s;
}

double loglik_of(const TrainingSet& data, const std::vector<double>& s) {
  double ll = 0;
  for (size_t j = 0; j < data.positions(); ++j) {
    double e = 0;
    for (uint32_t k = data.first[j]; k < data.first[j + 1]; ++k) e += s[k];
    ll += std::log(s[data.played[j]] / e);
  }
  return data.positions() ? ll / double(data.positions()) : 0;
}
}  // namespace

double mean_loglik(const TrainingSet& data, const std::vector<double>& weights) {
  return loglik_of(data, strengths(data, weights));
}

MmResult train_mm(const TrainingSet& data, const MmOptions& options, const std::function<void(int, double)>& progress) {
  MmResult r;
  r.weights.assign(sgfpat_priors::kModelWeights, 0.0);
  std::vector<double> s = strengths(data, r.weights);
  std::vector<double> e(data.positions());
  r.loglik.push_back(loglik_of(data, s));
  for (int it = 0; it < options.iterations; ++it) {
    for (int g = 0; g < G; ++g) {
      if (options.frozen >> g & 1u) continue;
      const int off = sgfpat_priors::group_offset(g);
      const int n = sgfpat_priors::kGroupLevels[g];
      const size_t levels = static_cast<size_t>(n);
      std::vector<double> wins(levels, 0.0), denom(levels, 0.0), gamma(levels, 0.0);
      for (int v = 0; v < n; ++v) gamma[size_t(v)] = std::exp(r.weights[size_t(off + v)]);
      for (size_t j = 0; j < data.positions(); ++j) {
        double sum = 0;
        for (uint32_t k = data.first[j]; k < data.first[j + 1]; ++k) sum += s[k];
        const double inv = 1.0 / sum;
        for (uint32_t k = data.first[j]; k < data.first[j + 1]; ++k) {
          const uint8_t v = data.levels[size_t(k) * G + size_t(g)];
          denom[v] += s[k] * inv / gamma[v];
        }
        wins[data.levels[size_t(data.played[j]) * G + size_t(g)]] += 1;
      }
      std::vector<double> ratio(levels, 1.0);
      for (int v = 0; v < n; ++v) {
        const double old = gamma[size_t(v)];
        const double next = (wins[size_t(v)] + 1.0) / (denom[size_t(v)] + 2.0 / (old + 1.0));
        // Weights live in what readers accept; far from its bounds in practice.
        const double w = std::fmax(-sgfpat_priors::kMaxModelWeight,
                                   std::fmin(sgfpat_priors::kMaxModelWeight, std::log(next)));
        ratio[size_t(v)] = std::exp(w) / old;
        r.weights[size_t(off + v)] = w;
      }
      for (size_t k = 0; k < s.size(); ++k) s[k] *= ratio[data.levels[k * G + size_t(g)]];
    }
    // Recomputed from the weights so that rounding does not accumulate.
    s = strengths(data, r.weights);
    const double ll = loglik_of(data, s);
    r.loglik.push_back(ll);
    r.iterations = it + 1;
    if (progress) progress(it + 1, ll);
    if (ll - r.loglik[r.loglik.size() - 2] < options.min_gain) break;
  }
  return r;
}

}  // namespace sgfpat

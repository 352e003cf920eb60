// Positions to learn feature weights from: for every position, its legal
// candidates (feature levels and the log of their smoothed pattern rate)
// and which one was played.
#pragma once
#include <cstdint>
#include <vector>

#include "priors/sgfpat_priors.h"

namespace sgfpat {

struct TrainingSet {
  static constexpr int kGroups = sgfpat_priors::kFeatureGroups;
  // Candidate k: levels[k * kGroups + g] is its level in group g, log_rate[k]
  // the log of its smoothed pattern play rate (a fixed part of its strength).
  std::vector<uint8_t> levels;
  std::vector<float> log_rate;
  // Position j has candidates first[j] .. first[j+1]-1; played[j] is the
  // index of the one played.
  std::vector<uint32_t> first{0};
  std::vector<uint32_t> played;

  size_t positions() const { return played.size(); }
  size_t candidates() const { return log_rate.size(); }
  // Appends a candidate to the position being built.
  void add_candidate(const uint8_t* lv, double log_p) {
    levels.insert(levels.end(), lv, lv + kGroups);
    log_rate.push_back(float(log_p));
  }
  // Closes the position whose candidates were just added; `played_local` is
  // the played one's rank among them.
  void end_position(uint32_t played_local) {
    played.push_back(first.back() + played_local);
    first.push_back(uint32_t(log_rate.size()));
  }
  // Drops the candidates added since the last end_position().
  void drop_open_position() {
    levels.resize(size_t(first.back()) * kGroups);
    log_rate.resize(first.back());
  }
};

}  // namespace sgfpat

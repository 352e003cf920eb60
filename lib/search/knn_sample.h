// The test positions the k-NN predictor (knn_predictor.h) is measured on:
// an even sample of the positions of test games, and its measurement in
// scans of the stored games.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "search/knn_predictor.h"

namespace sgfpat {

struct KnnSample {
  std::vector<KnnCase> cases;  // in the games' order
  uint64_t games = 0;          // games replayed (readable and legal)
  uint64_t skipped_games = 0;  // records unreadable or illegal
};

// At most `positions` positions (not passes) of the first `max_games` (0:
// all) readable games of `inputs`, evenly spaced among all their positions,
// each with the whole board weighted (make_weights with no region).  Two
// readings of the inputs: the first counts the positions, the second keeps
// the sample (keeping every position of thousands of games would take
// gigabytes).  Errors only for what is not the inputs' fault.
Status sample_knn_cases(const std::vector<std::string>& inputs, uint64_t max_games, size_t positions,
                        KnnSample* out);

// knn_accuracy() over `cases` in batches of consecutive cases of one board
// size, at most `batch` each (each batch costs one scan of the database);
// progress(done, total) after each batch.
Status knn_accuracy_in_batches(PatternDb* db, const std::vector<KnnCase>& cases, const ScanOptions& options,
                               size_t batch, const std::function<void(size_t, size_t)>& progress,
                               AccuracyReport* report);

}  // namespace sgfpat

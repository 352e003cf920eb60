// The k-nearest-neighbours move predictor: the moves played next in the K
// stored positions nearest a position (nearest_scan.h), ranked by how often
// they were played; measured with the priors' statistics (eval/accuracy.h).
#pragma once
#include <vector>

#include "eval/accuracy.h"
#include "search/nearest_scan.h"

namespace sgfpat {

struct KnnCase {
  DistanceQuery query;
  Point played = kPass;  // the move actually played (not a pass)
  int move_number = 0;
};

// Predicts every case (scans of `batch` queries at a time, each over every
// stored game) and adds it to *report: a move's rank is its place by count
// (ties shared, as the priors' ties are); a move no neighbour played ranks
// after all those, among the other empty points.  The log-likelihood uses
// (count + 0.5) / (K + 0.5 * empty points).
Status knn_accuracy(PatternDb* db, const std::vector<KnnCase>& cases, const ScanOptions& options, size_t batch,
                    AccuracyReport* report);

}  // namespace sgfpat

#include "search/knn_predictor.h"

#include <cmath>

#include "search/continuations.h"
#include "search/symmetry.h"

namespace sgfpat {

Status knn_accuracy(PatternDb* db, const std::vector<KnnCase>& cases, const ScanOptions& options, size_t batch,
                    AccuracyReport* report) {
  for (size_t first = 0; first < cases.size(); first += batch) {
    const size_t last = std::min(cases.size(), first + batch);
    std::vector<DistanceQuery> queries;
    for (size_t i = first; i < last; ++i) queries.push_back(cases[i].query);
    std::vector<std::vector<PositionHit>> hits;
    ScanStats stats;
    Status st = scan_nearest(db, queries, options, &hits, &stats);
    if (!st.ok()) return st;
    for (size_t i = first; i < last; ++i) {
      const KnnCase& c = cases[i];
      const Board& board = c.query.board;
      const int n = board.size();
      const std::vector<Continuation> table = continuations(hits[i - first], board);
      // The played move as the table names it: the first of its images
      // under the position's own symmetries.
      int key = n * n;
      for (int s : board_stabilizer(board)) {
        const Point q = apply_symmetry(s, c.played, n);
        key = std::min(key, q.y * n + q.x);
      }
      int empty = 0;
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) empty += board.at(Point{int8_t(x), int8_t(y)}) == Color::Empty;
      uint64_t count = 0;
      bool found = false;
      for (const Continuation& t : table)
        if (!t.move.is_pass() && t.move.y * n + t.move.x == key) count = t.count, found = true;
      double better = 0, tied = 0;
      int listed = 0;
      for (const Continuation& t : table) {
        if (t.move.is_pass()) continue;
        ++listed;
        if (t.count > count) ++better;
        else if (found && t.count == count) ++tied;
      }
      if (!found) tied = std::max(1, empty - listed);
      const double prob = (double(count) + 0.5) / (double(options.k) + 0.5 * std::max(1, empty));
      // The report's per-position entry point wants evaluator output; the
      // rank statistics are what it keeps, so add them directly.
      report->all.add(better, tied, prob);
      report->phases[size_t(AccuracyReport::phase_of(c.move_number))].add(better, tied, prob);
    }
  }
  return Status::OK();
}

}  // namespace sgfpat

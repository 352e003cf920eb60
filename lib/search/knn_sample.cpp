#include "search/knn_sample.h"

#include <algorithm>

#include "board/replay.h"
#include "search/distance.h"
#include "sgf/game_stream.h"

namespace sgfpat {

namespace {
// Counts the positions met (not passes) and keeps those whose ordinal is
// next in `wanted` (sorted); with `wanted` null it only counts.
struct CaseCollector : ReplayObserver {
  std::vector<KnnCase>* cases = nullptr;
  const std::vector<size_t>* wanted = nullptr;
  std::vector<uint8_t> weight;
  size_t seen = 0;
  void before_move(const Board& board, Color mover, Point move, int number) override {
    if (move.is_pass()) return;
    const size_t ordinal = seen++;
    if (!wanted || cases->size() >= wanted->size() || (*wanted)[cases->size()] != ordinal) return;
    KnnCase c;
    c.query.board = board;
    c.query.to_move = mover;
    c.query.weight = weight;
    c.played = move;
    c.move_number = number;
    cases->push_back(std::move(c));
  }
};
}  // namespace

Status sample_knn_cases(const std::vector<std::string>& inputs, uint64_t max_games, size_t positions,
                        KnnSample* out) {
  *out = KnnSample{};
  std::vector<size_t> wanted;
  CaseCollector collector;
  collector.cases = &out->cases;
  for (int reading = 0; reading < 2; ++reading) {
    if (reading == 1) {
      const size_t want = std::min(collector.seen, positions);
      for (size_t i = 0; i < want; ++i) wanted.push_back(i * collector.seen / want);
      collector.wanted = &wanted;
      collector.seen = 0;
      out->games = out->skipped_games = 0;
    }
    GameStream stream(inputs);
    Game game;
    Board board;
    ReplayResult rr;
    Status st;
    while ((max_games == 0 || out->games < max_games) && stream.next(&game, &st)) {
      if (!st.ok() || !replay(game, &board, &rr).ok()) {
        ++out->skipped_games;
        continue;
      }
      st = make_weights(game.info.size, "", kPass, 0, &collector.weight);
      if (!st.ok()) return st;
      replay(game, &board, &rr, &collector);
      ++out->games;
    }
  }
  return Status::OK();
}

Status knn_accuracy_in_batches(PatternDb* db, const std::vector<KnnCase>& cases, const ScanOptions& options,
                               size_t batch, const std::function<void(size_t, size_t)>& progress,
                               AccuracyReport* report) {
  size_t done = 0;
  while (done < cases.size()) {
    size_t end = done;
    const int size = cases[done].query.board.size();
    while (end < cases.size() && end - done < batch && cases[end].query.board.size() == size) ++end;
    std::vector<KnnCase> one(cases.begin() + std::ptrdiff_t(done), cases.begin() + std::ptrdiff_t(end));
    Status st = knn_accuracy(db, one, options, one.size(), report);
    if (!st.ok()) return st;
    done = end;
    if (progress) progress(done, cases.size());
  }
  return Status::OK();
}

}  // namespace sgfpat

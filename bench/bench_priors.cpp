// Priors look-up benchmark: time to open a priors file, and dichotomic
// look-ups per second on one core.  A "candidate evaluation" here is the
// search of the largest level present for one legal move of a real position
// (the moves before every move of the test games).  The keys are computed
// beforehand, so only the look-ups are timed; one untimed pass first brings
// the file's pages into the mapping (a warm file).  Three ways are timed:
//   single:  largest_level() candidate after candidate
//   batched: largest_levels() over each position's legal moves at once, as
//            an engine evaluating a position would call it
//   linear:  largest_level_linear(), the upward scan, for comparison
//
//   bench_priors PRIORS_FILE SGF_INPUT [MAX_GAMES]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "board/replay.h"
#include "eval/evaluator.h"
#include "pattern/tracking_observer.h"
#include "priors/sgfpat_priors.h"
#include "sgf/game_stream.h"

using namespace sgfpat;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PRIORS_FILE SGF_INPUT [MAX_GAMES]\n", argv[0]);
    return 2;
  }
  const int max_games = argc > 3 ? std::atoi(argv[3]) : 200;
  auto t0 = Clock::now();
  sgfpat_priors::Priors priors;
  std::string error;
  if (!priors.open(argv[1], &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  double open_ms = 1000 * seconds_since(t0);
  uint64_t patterns = 0;
  for (int l = 1; l <= priors.levels(); ++l) patterns += priors.count(l);

  // Keys of every legal candidate of every position of the test games;
  // position p's candidates are [first[p], first[p + 1]).
  Evaluator ev(priors);
  const int L = priors.levels();
  std::vector<uint64_t> keys;
  std::vector<size_t> first;
  struct Obs : TrackingObserver {
    std::vector<uint64_t>* keys;
    std::vector<size_t>* first;
    int L;
    Obs(const KeyScheme& s, std::vector<uint64_t>* k, std::vector<size_t>* f, int l)
        : TrackingObserver(s), keys(k), first(f), L(l) {}
    void before_move(const Board& b, Color mover, Point move, int) override {
      if (move.is_pass()) return;
      first->push_back(keys->size() / size_t(L));
      for (int y = 0; y < b.size(); ++y)
        for (int x = 0; x < b.size(); ++x) {
          int idx = b.index(Point{int8_t(x), int8_t(y)});
          if (!b.is_legal_index(idx, mover)) continue;
          tracker.walk(idx, mover, [&](int, uint64_t k) { keys->push_back(k); return true; }, L);
        }
    }
  } obs(ev.scheme(), &keys, &first, L);
  GameStream stream({argv[2]});
  Game game;
  Status st;
  Board board;
  ReplayResult rr;
  int games = 0;
  while (games < max_games && stream.next(&game, &st)) {
    if (!st.ok()) continue;
    obs.start_game(game.info.size);
    if (replay(game, &board, &rr, &obs).ok()) ++games;
  }
  const size_t candidates = keys.size() / size_t(L);
  const size_t positions = first.size();
  first.push_back(candidates);

  std::vector<int> single(candidates), batched(candidates);
  for (size_t c = 0; c < candidates; ++c) single[c] = priors.largest_level(&keys[c * size_t(L)], L);  // warm-up

  t0 = Clock::now();
  for (size_t c = 0; c < candidates; ++c) single[c] = priors.largest_level(&keys[c * size_t(L)], L);
  const double s_single = seconds_since(t0);

  t0 = Clock::now();
  for (size_t p = 0; p < positions; ++p)
    priors.largest_levels(&keys[first[p] * size_t(L)], size_t(L), L, first[p + 1] - first[p], &batched[first[p]]);
  const double s_batched = seconds_since(t0);

  t0 = Clock::now();
  uint64_t linear_sum = 0;
  for (size_t c = 0; c < candidates; ++c) linear_sum += uint64_t(priors.largest_level_linear(&keys[c * size_t(L)], L));
  const double s_linear = seconds_since(t0);

  uint64_t level_sum = 0;
  for (int m : single) level_sum += uint64_t(m);
  const bool same_batched = single == batched, same_linear = level_sum == linear_sum;
  auto rate = [&](double s) { return double(candidates) / s / 1e6; };
  std::printf("priors: %llu patterns, %d levels, opened in %.2f ms\n", (unsigned long long)patterns, L, open_ms);
  std::printf("candidates: %zu legal moves of %zu positions of %d games (keys precomputed; mean level %.2f)\n",
              candidates, positions, games, double(level_sum) / double(candidates));
  std::printf("dichotomic single:  %.3f s = %.2f M candidates/s\n", s_single, rate(s_single));
  std::printf("dichotomic batched: %.3f s = %.2f M candidates/s (one batch per position; same levels: %s)\n",
              s_batched, rate(s_batched), same_batched ? "yes" : "NO");
  std::printf("linear single:      %.3f s = %.2f M candidates/s (same levels: %s)\n", s_linear, rate(s_linear),
              same_linear ? "yes" : "NO");
  return same_batched && same_linear ? 0 : 1;
}

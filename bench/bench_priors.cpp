// Priors look-up benchmark: time to open a priors file, and dichotomic
// look-ups per second on one core over the candidates of real positions
// (keys precomputed, so only the look-ups are timed).
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
  double open_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  uint64_t patterns = 0;
  for (int l = 1; l <= priors.levels(); ++l) patterns += priors.count(l);

  // Keys of every candidate of every position of the test games.
  Evaluator ev(priors);
  const int L = priors.levels();
  std::vector<uint64_t> keys;
  struct Obs : TrackingObserver {
    std::vector<uint64_t>* keys;
    int L;
    Obs(const KeyScheme& s, std::vector<uint64_t>* k, int l) : TrackingObserver(s), keys(k), L(l) {}
    void before_move(const Board& b, Color mover, Point move, int) override {
      if (move.is_pass()) return;
      for (int y = 0; y < b.size(); ++y)
        for (int x = 0; x < b.size(); ++x) {
          int idx = b.index(Point{int8_t(x), int8_t(y)});
          if (!b.is_legal_index(idx, mover)) continue;
          tracker.walk(idx, mover, [&](int, uint64_t k) { keys->push_back(k); return true; }, L);
        }
    }
  } obs(ev.scheme(), &keys, L);
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
  t0 = Clock::now();
  uint64_t level_sum = 0;
  for (size_t c = 0; c < candidates; ++c) level_sum += uint64_t(priors.largest_level(&keys[c * size_t(L)], L));
  double s = std::chrono::duration<double>(Clock::now() - t0).count();
  t0 = Clock::now();
  uint64_t linear_sum = 0;
  for (size_t c = 0; c < candidates; ++c) linear_sum += uint64_t(priors.largest_level_linear(&keys[c * size_t(L)], L));
  double s_lin = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("priors: %llu patterns, %d levels, opened in %.2f ms\n", (unsigned long long)patterns, L, open_ms);
  std::printf("dichotomic: %zu candidates of %d games in %.3f s = %.2f M candidates/s (mean level %.2f)\n",
              candidates, games, s, double(candidates) / s / 1e6, double(level_sum) / double(candidates));
  std::printf("linear:     %.3f s = %.2f M candidates/s (same levels: %s)\n", s_lin,
              double(candidates) / s_lin / 1e6, level_sum == linear_sum ? "yes" : "NO");
  return level_sum == linear_sum ? 0 : 1;
}

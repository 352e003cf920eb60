#include "eval/accuracy_run.h"

#include <chrono>

#include "board/replay.h"
#include "core/cpu_time.h"
#include "pattern/tracking_observer.h"
#include "sgf/game_stream.h"

namespace sgfpat {

namespace {
using Clock = std::chrono::steady_clock;

// Evaluates every position of a game just before its move is played.
struct Predictor : TrackingObserver {
  const Evaluator* evaluator;
  AccuracyReport* report;
  std::vector<Ablation>* ablations;
  bool allow_suicide = false;
  RecentMoves recent;
  std::vector<MoveEval> moves, reweighed;
  Predictor(const Evaluator* e, AccuracyReport* r, std::vector<Ablation>* a)
      : TrackingObserver(e->scheme()), evaluator(e), report(r), ablations(a) {}
  void start(int size, bool suicide) {
    start_game(size);
    allow_suicide = suicide;
    recent = RecentMoves{};
  }
  void before_move(const Board& board, Color mover, Point move, int number) override {
    if (move.is_pass()) {
      recent.push(move);
      return;
    }
    auto t0 = Clock::now();
    const double c0 = thread_cpu_seconds();
    evaluator->evaluate(board, tracker, mover, &moves, allow_suicide, recent);
    report->eval_cpu_seconds += thread_cpu_seconds() - c0;
    report->eval_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    report->candidates += moves.size();
    report->add_position(moves, move, number);
    for (Ablation& ab : *ablations) {
      reweighed = moves;
      evaluator->reweigh(&reweighed, ab.skip | evaluator->options().ablate);
      ab.report.add_position(reweighed, move, number);
    }
    recent.push(move);
  }
};
}  // namespace

Status parse_ablations(const Evaluator& evaluator, const std::vector<std::string>& names,
                       std::vector<Ablation>* out) {
  for (const std::string& name : names) {
    if (evaluator.estimator() != Estimator::Model)
      return Status::InvalidArgument("ablation needs the model estimator (a priors file made by sgfpat train)");
    if (name == "each") {
      for (int g = 0; g < sgfpat_priors::kFeatureGroups; ++g)
        out->push_back(Ablation{sgfpat_priors::feature_group_name(g), 1u << g, {}});
      continue;
    }
    const int g = sgfpat_priors::feature_group_by_name(name);
    if (g < 0) return Status::InvalidArgument("unknown feature group '" + name + "'");
    out->push_back(Ablation{name, 1u << g, {}});
  }
  return Status::OK();
}

Status measure_accuracy(const Evaluator& evaluator, const AccuracyRun& run, std::vector<Ablation>* ablations,
                        AccuracyReport* report, uint64_t* input_errors) {
  Predictor predictor(&evaluator, report, ablations);
  GameStream stream(run.inputs);
  Game game;
  Board board;
  ReplayResult rr;
  Status st;
  auto skipped = [&](const std::string& why) {
    if (run.on_skipped) run.on_skipped(why);
  };
  while ((run.max_games == 0 || report->games < run.max_games) && stream.next(&game, &st)) {
    if (!st.ok()) {
      if (stream.input_error() && !stream.game_lost()) ++*input_errors;
      else ++report->skipped_games;
      skipped(st.message());
      continue;
    }
    // Check legality first so that a rejected record contributes nothing.
    if (Status legal = replay(game, &board, &rr); !legal.ok()) {
      ++report->skipped_games;
      skipped(game.origin.describe() + ": illegal record: " + legal.message());
      continue;
    }
    predictor.start(game.info.size, game.info.suicide_allowed());
    replay(game, &board, &rr, &predictor);
    ++report->games;
    if (run.on_game) run.on_game(*report);
  }
  return Status::OK();
}

}  // namespace sgfpat

// sgfpat accuracy: how well the priors predict the moves of test games.
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "board/replay.h"
#include "commands.h"
#include "eval/accuracy.h"
#include "pattern/tracking_observer.h"
#include "priors_flags.h"
#include "progress.h"
#include "sgf/game_stream.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;

struct AccuracyArgs {
  PriorsFlags priors;
  std::vector<std::string> inputs;
  std::string csv;
  uint64_t max_games = 0;
  bool json = false;
};

// Evaluates every position of a game just before its move is played.
struct Predictor : TrackingObserver {
  const Evaluator* evaluator;
  AccuracyReport* report;
  bool allow_suicide = false;
  std::vector<MoveEval> moves;
  Predictor(const Evaluator* e, AccuracyReport* r) : TrackingObserver(e->scheme()), evaluator(e), report(r) {}
  void before_move(const Board& board, Color mover, Point move, int number) override {
    if (move.is_pass()) return;
    auto t0 = Clock::now();
    evaluator->evaluate(board, tracker, mover, &moves, allow_suicide);
    report->eval_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    report->candidates += moves.size();
    report->add_position(moves, move, number);
  }
};

nlohmann::json stats_json(const PredictionStats& s) {
  return {{"positions", s.positions}, {"top1", s.top_rate(0)}, {"top3", s.top_rate(1)},
          {"top5", s.top_rate(2)},    {"top10", s.top_rate(3)}, {"loglik", s.mean_loglik()}};
}

int run_accuracy(const AccuracyArgs& a) {
  sgfpat_priors::Priors priors;
  Status st = a.priors.open(&priors);
  if (!st.ok()) {
    return fail("sgfpat accuracy: ", st);
  }
  Evaluator evaluator(priors, a.priors.options());
  AccuracyReport report;
  Predictor predictor(&evaluator, &report);
  GameStream stream(a.inputs);
  Game game;
  Board board;
  ReplayResult rr;
  ProgressLine progress;
  auto t0 = Clock::now();
  while ((a.max_games == 0 || report.games < a.max_games) && stream.next(&game, &st)) {
    if (!st.ok()) {
      ++report.skipped_games;
      continue;
    }
    // Check legality first so that a rejected record contributes nothing.
    if (!replay(game, &board, &rr).ok()) {
      ++report.skipped_games;
      continue;
    }
    predictor.start_game(game.info.size);
    predictor.allow_suicide = game.info.suicide_allowed();
    replay(game, &board, &rr, &predictor);
    ++report.games;
    progress.update("accuracy: " + with_commas(report.games) + " games, top-1 " +
                    std::to_string(100 * report.all.top_rate(0)).substr(0, 5) + "%");
  }
  progress.finish();
  double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  double cps = report.eval_seconds > 0 ? double(report.candidates) / report.eval_seconds : 0;
  if (!a.csv.empty()) {
    std::ofstream csv(a.csv);
    csv << "rank,cumulative_accuracy\n";
    double cum = 0;
    for (size_t r = 0; r < report.all.at_rank.size(); ++r) {
      cum += report.all.at_rank[r];
      csv << (r + 1) << "," << (report.all.positions ? cum / double(report.all.positions) : 0) << "\n";
    }
    if (!csv) {
      std::cerr << "sgfpat accuracy: cannot write " << a.csv << "\n";
      return kFailure;
    }
  }
  if (a.json) {
    nlohmann::json j = stats_json(report.all);
    j["games"] = report.games;
    j["skipped_games"] = report.skipped_games;
    j["candidates"] = report.candidates;
    j["candidates_per_s"] = cps;
    j["estimator"] = a.priors.estimator;
    j["seconds"] = elapsed;
    nlohmann::json phases = nlohmann::json::object();
    for (int i = 0; i < 4; ++i) phases[AccuracyReport::phase_name(i)] = stats_json(report.phases[size_t(i)]);
    j["phases"] = phases;
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  auto row = [](const std::string& name, const PredictionStats& s) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-8s %10llu  %6.2f%% %6.2f%% %6.2f%% %6.2f%%  %8.3f\n", name.c_str(),
                  (unsigned long long)s.positions, 100 * s.top_rate(0), 100 * s.top_rate(1), 100 * s.top_rate(2),
                  100 * s.top_rate(3), s.mean_loglik());
    return std::string(line);
  };
  std::cout << "Move prediction (" << a.priors.estimator << " estimator) on " << with_commas(report.games)
            << " games";
  if (report.skipped_games) std::cout << " (" << report.skipped_games << " unreadable or illegal skipped)";
  std::cout << "\n  moves     positions   top-1   top-3   top-5  top-10   loglik\n" << row("all", report.all);
  for (int i = 0; i < 4; ++i) std::cout << row(AccuracyReport::phase_name(i), report.phases[size_t(i)]);
  std::cout << "  evaluation speed: " << with_commas(uint64_t(cps)) << " candidates/s ("
            << with_commas(report.candidates) << " candidates in " << report.eval_seconds << " s)\n";
  return kOk;
}
}  // namespace

Runner register_accuracy(CLI::App& app) {
  auto a = std::make_shared<AccuracyArgs>();
  auto* cmd = app.add_subcommand("accuracy",
                                 "Replay test games (not ingested) and rank each played move among the legal moves");
  a->priors.add_to(cmd);
  cmd->add_option("inputs", a->inputs, "SGF inputs of test games")->required();
  cmd->add_option("--csv", a->csv, "Write the cumulative accuracy by rank to this CSV file");
  cmd->add_option("--max-games", a->max_games, "Stop after this many games (0: all)");
  cmd->add_flag("--json", a->json,
                "One JSON object: positions, top1, top3, top5, top10, loglik, candidates_per_s, phases");
  return [a]() { return run_accuracy(*a); };
}

}  // namespace sgfpat::cli

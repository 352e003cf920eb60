// sgfpat accuracy: how well the priors predict the moves of test games.
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "eval/accuracy_run.h"
#include "exit_codes.h"
#include "io/atomic_file.h"
#include "json_text.h"
#include "priors_flags.h"
#include "progress.h"
#include "search/knn_sample.h"
#include "store/pattern_db.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;


struct AccuracyArgs {
  PriorsFlags priors;
  std::vector<std::string> inputs;
  std::string csv;
  uint64_t max_games = 0;
  std::vector<std::string> ablate;
  bool json = false;
  int knn = 0;  // > 0: the k-NN predictor over --db instead of the priors
  std::string db;
  size_t knn_positions = 200;
  int threads = 2;
};

nlohmann::json calibration_json(const Calibration& c) {
  nlohmann::json arr = nlohmann::json::array();
  for (size_t b = 0; b < 10; ++b) {
    const double n = double(c.candidates[b]);
    arr.push_back({{"bin", std::to_string(b * 10) + "-" + std::to_string(b * 10 + 10) + "%"},
                   {"candidates", c.candidates[b]},
                   {"predicted", n > 0 ? c.predicted[b] / n : 0},
                   {"observed", n > 0 ? double(c.played[b]) / n : 0}});
  }
  return arr;
}

nlohmann::json stats_json(const PredictionStats& s) {
  return {{"positions", s.positions}, {"top1", s.top_rate(0)}, {"top3", s.top_rate(1)},
          {"top5", s.top_rate(2)},    {"top10", s.top_rate(3)}, {"loglik", s.mean_loglik()}};
}

// What a priors run adds to its report: the estimator's name and the ablations.
struct PriorsRun {
  std::string estimator;
  std::vector<Ablation> ablations;
  uint64_t input_errors = 0;  // inputs that could not be read at all
};

int priors_report(const AccuracyArgs& a, AccuracyReport* out, PriorsRun* run);
int print_report(const AccuracyArgs& a, const AccuracyReport& report, const PriorsRun& run, double elapsed);

// The k-NN predictor on an even sample of the test games' positions: each
// scan of the stored games serves a batch of them.
Status knn_report(const AccuracyArgs& a, AccuracyReport* report) {
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(a.db, &db);
  if (!st.ok()) return st;
  KnnSample sample;
  st = sample_knn_cases(a.inputs, a.max_games, a.knn_positions, &sample);
  if (!st.ok()) return st;
  *report = AccuracyReport{};
  report->games = sample.games;
  report->skipped_games = sample.skipped_games;
  ProgressLine progress;
  ScanOptions so;
  so.k = a.knn;
  so.threads = a.threads;
  st = knn_accuracy_in_batches(db.get(), sample.cases, so, 64, [&](size_t done, size_t total) {
    progress.update("accuracy --knn: " + with_commas(done) + " / " + with_commas(total) + " positions");
  }, report);
  if (!st.ok()) return st;
  progress.finish();
  return Status::OK();
}

int run_accuracy(const AccuracyArgs& a) {
  AccuracyReport report;
  PriorsRun run;
  auto t0 = Clock::now();
  if (a.knn > 0 || !a.db.empty()) {
    if (a.knn <= 0 || a.db.empty() || !a.priors.path.empty()) {
      std::cerr << "sgfpat accuracy: the k-NN predictor needs --knn K and --db D, and no --priors\n";
      return kUsage;
    }
    Status st = knn_report(a, &report);
    if (!st.ok()) return fail("sgfpat accuracy: ", st);
    report.eval_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    run.estimator = "k-NN, K=" + std::to_string(a.knn);
  } else {
    const int code = priors_report(a, &report, &run);
    if (code != kOk) return code;
  }
  return print_report(a, report, run, std::chrono::duration<double>(Clock::now() - t0).count());
}

int priors_report(const AccuracyArgs& a, AccuracyReport* out, PriorsRun* run) {
  AccuracyReport& report = *out;
  if (a.priors.path.empty()) {
    std::cerr << "sgfpat accuracy: give --priors FILE (or --knn K --db D)\n";
    return kUsage;
  }
  std::vector<Ablation>& ablations = run->ablations;
  sgfpat_priors::Priors priors;
  Status st = a.priors.open(&priors);
  if (!st.ok()) {
    return fail("sgfpat accuracy: ", st);
  }
  Evaluator evaluator(priors, a.priors.options());
  st = parse_ablations(evaluator, a.ablate, &ablations);
  if (!st.ok()) return fail("sgfpat accuracy: --ablate: ", st);
  run->estimator = a.priors.estimator_name(evaluator);
  ProgressLine progress;
  // Like ingest: every skipped record and unreadable input is named (the
  // first few), and an unreadable input or a run without games exits 3.
  uint64_t shown = 0, input_errors = 0;
  AccuracyRun measure;
  measure.inputs = a.inputs;
  measure.max_games = a.max_games;
  measure.on_skipped = [&](const std::string& why) {
    if (shown++ < 20) {
      progress.finish();
      std::cerr << "sgfpat accuracy: skipped " << why << "\n";
    }
  };
  measure.on_game = [&](const AccuracyReport& r) {
    progress.update("accuracy: " + with_commas(r.games) + " games, top-1 " +
                    std::to_string(100 * r.all.top_rate(0)).substr(0, 5) + "%");
  };
  st = measure_accuracy(evaluator, measure, &ablations, &report, &input_errors);
  if (!st.ok()) return fail("sgfpat accuracy: ", st);
  progress.finish();
  if (shown > 20) std::cerr << "sgfpat accuracy: ... " << (shown - 20) << " more skipped, not shown\n";
  run->input_errors = input_errors;
  return kOk;
}

int print_report(const AccuracyArgs& a, const AccuracyReport& report, const PriorsRun& run, double elapsed) {
  const std::string& estimator = run.estimator;
  const std::vector<Ablation>& ablations = run.ablations;
  const uint64_t input_errors = run.input_errors;
  // An unreadable input or a run without games exits 3, after the report.
  const int exit_code = input_errors > 0 || report.games == 0 ? kBadInput : kOk;
  if (report.games == 0) std::cerr << "sgfpat accuracy: no readable game in the inputs\n";
  double cps = report.eval_seconds > 0 ? double(report.candidates) / report.eval_seconds : 0;
  double cpu_cps = report.eval_cpu_seconds > 0 ? double(report.candidates) / report.eval_cpu_seconds : 0;
  if (!a.csv.empty()) {
    // Written whole or not at all (io/atomic_file.h): a failed write leaves
    // the old file, and a path inside a database directory is refused.
    std::string text = "rank,cumulative_accuracy\n";
    double cum = 0;
    for (size_t r = 0; r < report.all.at_rank.size(); ++r) {
      cum += report.all.at_rank[r];
      std::ostringstream line;
      line << (r + 1) << "," << (report.all.positions ? cum / double(report.all.positions) : 0) << "\n";
      text += line.str();
    }
    AtomicFile csv;
    Status st = csv.open(a.csv);
    if (st.ok()) {
      csv.write(text.data(), text.size());
      st = csv.commit();
    }
    if (!st.ok()) return fail("sgfpat accuracy: --csv: ", st);
  }
  if (a.json) {
    nlohmann::json j = stats_json(report.all);
    j["games"] = report.games;
    j["skipped_games"] = report.skipped_games;
    j["input_errors"] = input_errors;
    j["candidates"] = report.candidates;
    j["candidates_per_s"] = cps;
    j["candidates_per_cpu_s"] = cpu_cps;
    j["estimator"] = a.knn > 0 ? "knn" : estimator;
    if (a.knn > 0) j["k"] = a.knn;
    j["calibration"] = calibration_json(report.calibration);
    if (!ablations.empty()) {
      nlohmann::json ab = nlohmann::json::object();
      for (const Ablation& x : ablations) {
        nlohmann::json one = stats_json(x.report.all);
        one["top1_change"] = x.report.all.top_rate(0) - report.all.top_rate(0);
        one["loglik_change"] = x.report.all.mean_loglik() - report.all.mean_loglik();
        ab[x.name] = one;
      }
      j["ablation"] = ab;
    }
    j["seconds"] = elapsed;
    nlohmann::json phases = nlohmann::json::object();
    for (int i = 0; i < 4; ++i) phases[AccuracyReport::phase_name(i)] = stats_json(report.phases[size_t(i)]);
    j["phases"] = phases;
    std::cout << json_text(j, 2) << "\n";
    return exit_code;
  }
  auto row = [](const std::string& name, const PredictionStats& s) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-8s %10llu  %6.2f%% %6.2f%% %6.2f%% %6.2f%%  %8.3f\n", name.c_str(),
                  (unsigned long long)s.positions, 100 * s.top_rate(0), 100 * s.top_rate(1), 100 * s.top_rate(2),
                  100 * s.top_rate(3), s.mean_loglik());
    return std::string(line);
  };
  std::cout << "Move prediction (" << (a.knn > 0 ? estimator : estimator + " estimator") << ") on " << with_commas(report.games)
            << " games";
  if (report.skipped_games) std::cout << " (" << report.skipped_games << " unreadable or illegal skipped)";
  std::cout << "\n  moves     positions   top-1   top-3   top-5  top-10   loglik\n" << row("all", report.all);
  for (int i = 0; i < 4; ++i) std::cout << row(AccuracyReport::phase_name(i), report.phases[size_t(i)]);
  if (a.knn > 0) {
    std::cout << "  " << report.all.positions << " positions sampled evenly; " << elapsed << " s\n";
    return exit_code;
  }
  for (const Ablation& x : ablations) std::cout << row("-" + x.name, x.report.all);
  std::cout << "  calibration: predicted  observed  candidates\n";
  for (size_t b = 0; b < 10; ++b) {
    const Calibration& c = report.calibration;
    if (c.candidates[b] == 0) continue;
    std::printf("  %3zu-%3zu%%   %7.4f   %7.4f   %llu\n", b * 10, b * 10 + 10, c.predicted[b] / double(c.candidates[b]),
                double(c.played[b]) / double(c.candidates[b]), (unsigned long long)c.candidates[b]);
  }
  std::fflush(stdout);
  std::cout << "  evaluation speed: " << with_commas(uint64_t(cps)) << " candidates/s ("
            << with_commas(report.candidates) << " candidates in " << report.eval_seconds << " s; "
            << with_commas(uint64_t(cpu_cps)) << " per CPU second)\n";
  if (input_errors) std::cout << "  unreadable inputs: " << input_errors << " (see above)\n";
  return exit_code;
}
}  // namespace

Runner register_accuracy(CLI::App& app) {
  auto a = std::make_shared<AccuracyArgs>();
  auto* cmd = app.add_subcommand("accuracy",
                                 "Replay test games (not ingested) and rank each played move among the legal moves");
  a->priors.add_to(cmd, /*required=*/false);  // --knn measures without priors
  cmd->add_option("inputs", a->inputs, "SGF inputs of test games")->required();
  cmd->add_option("--csv", a->csv, "Write the cumulative accuracy by rank to this CSV file");
  cmd->add_option("--max-games", a->max_games, "Stop after this many games (0: all)");
  cmd->add_option("--knn", a->knn,
                  "Measure the k-NN predictor instead (the move most played next among the K stored positions "
                  "nearest each test position, `similar`'s distance); needs --db");
  cmd->add_option("--db", a->db, "With --knn: the pattern database whose stored games are searched");
  cmd->add_option("--knn-positions", a->knn_positions,
                  "With --knn: test positions, sampled evenly (each batch of 64 costs one scan of the database)")
      ->capture_default_str();
  cmd->add_option("--threads,-t", a->threads, "With --knn: scanning threads")->capture_default_str();
  cmd->add_option("--ablate", a->ablate,
                  "Also score without this feature group (repeatable; 'each': every group in turn): "
                  "pattern, level, capture, extension, atari, self-atari, liberties, dist-prev, dist-prev2, edge, ko");
  cmd->add_flag("--json", a->json,
                "One JSON object: positions, top1, top3, top5, top10, loglik, candidates_per_s, phases,\n"
                "calibration (predicted vs observed play rate by decile of predicted probability), ablation");
  return [a]() { return run_accuracy(*a); };
}

}  // namespace sgfpat::cli

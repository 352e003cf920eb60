// sgfpat train: learn the feature weights of the move model from a sample
// of the database's games and write them into a priors file (version 3).
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "exit_codes.h"
#include "flag_checks.h"
#include "json_text.h"
#include "priors/model_writer.h"
#include "priors/priors_file.h"
#include "process_stats.h"
#include "progress.h"
#include "store/pattern_db.h"
#include "train/game_sample.h"
#include "train/mm.h"
#include "tuning.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;

struct TrainArgs {
  std::string db;
  std::string priors;
  std::string out;
  SampleOptions sample;
  int iterations = MmOptions{}.iterations;
  std::vector<std::string> freeze;
  bool json = false;
};

double peak_rss_mb() { return double(peak_rss_bytes()) / (1024.0 * 1024.0); }

int run_train(const TrainArgs& a) {
  MmOptions mm;
  mm.iterations = a.iterations;
  for (const std::string& f : a.freeze) {
    int g = sgfpat_priors::feature_group_by_name(f);
    if (g < 0) {
      std::cerr << "sgfpat train: unknown feature group '" << f << "'\n";
      return kUsage;
    }
    mm.frozen |= 1u << g;
  }
  sgfpat_priors::Priors priors;
  if (Status st = open_priors(a.priors, /*verify=*/false, &priors); !st.ok()) return fail("sgfpat train: ", st);
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(a.db, &db);
  if (!st.ok()) return fail("sgfpat train: ", st);
  auto t0 = Clock::now();
  TrainingSet data;
  SampleSummary sum;
  ProgressLine progress;
  st = sample_training_set(*db, priors, a.sample, &data, &sum, [&](const SampleSummary& s) {
    progress.update("train: sampled " + with_commas(s.games) + "/" + with_commas(a.sample.games) + " games, " +
                    with_commas(s.positions) + " positions");
  });
  progress.finish();
  if (!st.ok()) return fail("sgfpat train: ", st);
  if (data.positions() == 0) {
    std::cerr << "sgfpat train: no position to learn from (" << sum.stored_games << " stored games)\n";
    return kFailure;
  }
  const double sample_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!a.json)
    std::cerr << "train: " << with_commas(sum.games) << " games, " << with_commas(sum.positions) << " positions, "
              << with_commas(sum.candidates) << " candidates in " << sample_seconds << " s\n";
  auto t1 = Clock::now();
  MmResult r = train_mm(data, mm, [&](int it, double ll) {
    if (!a.json) std::cerr << "train: sweep " << it << ": mean log-likelihood " << ll << "\n";
  });
  const double mm_seconds = std::chrono::duration<double>(Clock::now() - t1).count();

  sgfpat_priors::ModelSection model = empty_model();
  model.smoothing = a.sample.smoothing;
  model.train_games = sum.games;
  model.train_positions = sum.positions;
  model.train_seed = a.sample.seed;
  for (size_t i = 0; i < r.weights.size(); ++i) model.weights[i] = r.weights[i];
  st = write_priors_with_model(a.priors, model, a.out);
  if (!st.ok()) return fail("sgfpat train: ", st);
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  if (a.json) {
    nlohmann::json j;
    j["games"] = sum.games;
    j["skipped_games"] = sum.skipped_games;
    j["stored_games"] = sum.stored_games;
    j["positions"] = sum.positions;
    j["candidates"] = sum.candidates;
    j["seed"] = a.sample.seed;
    j["iterations"] = r.iterations;
    j["loglik"] = r.loglik;
    j["sample_seconds"] = sample_seconds;
    j["mm_seconds"] = mm_seconds;
    j["seconds"] = total;
    j["peak_rss_mb"] = peak_rss_mb();
    nlohmann::json w = nlohmann::json::object();
    for (int g = 0; g < sgfpat_priors::kFeatureGroups; ++g) {
      const int o = sgfpat_priors::group_offset(g);
      w[sgfpat_priors::feature_group_name(g)] =
          std::vector<double>(r.weights.begin() + o, r.weights.begin() + o + sgfpat_priors::kGroupLevels[g]);
    }
    j["weights"] = w;
    j["output"] = a.out;
    std::cout << json_text(j, 2) << "\n";
    return kOk;
  }
  std::cout << "Trained on " << with_commas(sum.games) << " games (seed " << a.sample.seed << ", "
            << with_commas(sum.positions) << " positions): mean log-likelihood " << r.loglik.front() << " -> "
            << r.loglik.back() << " in " << r.iterations << " sweeps\n"
            << "Weights (log gamma) of the tactical groups, level 0 first:\n";
  for (int g = sgfpat_priors::kCapture; g < sgfpat_priors::kFeatureGroups; ++g) {
    std::printf("  %-10s", sgfpat_priors::feature_group_name(g));
    for (int v = 0; v < sgfpat_priors::kGroupLevels[g]; ++v)
      std::printf(" %+.2f", r.weights[size_t(sgfpat_priors::group_offset(g) + v)]);
    std::printf("\n");
  }
  std::fflush(stdout);
  std::cout << "Wrote " << a.out << " in " << total << " s (sampling " << sample_seconds << " s, MM " << mm_seconds
            << " s), peak memory " << int(peak_rss_mb()) << " MB\n";
  return kOk;
}
}  // namespace

Runner register_train(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  auto* cmd = app.add_subcommand(
      "train",
      "Learn the move model's feature weights (Coulom's MM) from a sample of the database's games\n"
      "and write a priors file (format 3) with them; eval, accuracy and the engine then use it.\n"
      "Patterns are scored leave-one-out: a sampled game's own counts are taken off first.");
  cmd->add_option("--db", a->db, "Pattern database the priors were exported from")->required();
  cmd->add_option("--priors,-p", a->priors, "Priors file exported from --db (version 2 or 3)")->required();
  cmd->add_option("--output,-o", a->out, "Priors file to write (may be --priors)")->required();
  cmd->add_option("--games,-n", a->sample.games, "Games to sample from the database")->capture_default_str();
  cmd->add_option("--seed", a->sample.seed, "Which games: the same seed gives the same model")->capture_default_str();
  cmd->add_option("--smoothing,-a", a->sample.smoothing, "`a` of the smoothed pattern rate the weights go with")
      ->capture_default_str()
      ->check(at_least(0));
  tuning(cmd, cmd->add_option("--iterations", a->iterations, "Most MM sweeps over every feature group")
                  ->capture_default_str()
                  ->check(more_than(0)));
  tuning(cmd, cmd->add_option("--freeze", a->freeze,
                              "Feature group to leave at weight 0 (repeatable): pattern, level, capture, extension, "
                              "atari, self-atari, liberties, dist-prev, dist-prev2, edge, ko"));
  cmd->add_flag("--json", a->json, "Summary, log-likelihoods and weights as JSON");
  return [a]() { return run_train(*a); };
}

}  // namespace sgfpat::cli

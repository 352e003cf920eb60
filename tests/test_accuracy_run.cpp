// The accuracy measurement moved out of `sgfpat accuracy` (eval/accuracy_run.h)
// and the k-NN predictor's sample (search/knn_sample.h): every position of
// the test games measured once, skipped records and unreadable inputs
// counted apart, ablations parsed and scored, the k-NN sample even.
#include <doctest/doctest.h>

#include <cstring>

#include "board/replay.h"
#include "eval/accuracy_run.h"
#include "priors/model_writer.h"
#include "priors/priors_file.h"
#include "priors/priors_writer.h"
#include "search/knn_sample.h"
#include "sgf/game_stream.h"
#include "store/pattern_db.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {
const std::string k9x9 = std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-9x9.sgf";

// The 20 GNU Go 9x9 games ingested, their priors, and the priors with a model.
struct Fixture {
  TempDir dir{"sgfpat-accuracy-run"};
  std::string db_path = dir / "db";
  std::string priors_path = dir / "p.priors";
  std::string model_path = dir / "m.priors";
  std::unique_ptr<PatternDb> db;
  Fixture() {
    testutil::ingest_ok(db_path, {"--levels", "6", "--min-played", "2", "--memory-mb", "64"}, {k9x9}, dir.path());
    REQUIRE(PatternDb::OpenReader(db_path, &db).ok());
    PriorsExportSummary summary;
    REQUIRE(write_priors(*db, PriorsExportOptions{}, priors_path, &summary).ok());
    // A model whose weights favour captures and the second line: enough to
    // make the ablations differ from the model.
    sgfpat_priors::ModelSection model = empty_model();
    model.smoothing = 4;
    model.weights[sgfpat_priors::group_offset(sgfpat_priors::kCapture) + 1] = 2.0;
    model.weights[sgfpat_priors::group_offset(sgfpat_priors::kEdge) + 1] = 0.7;
    model.weights[sgfpat_priors::group_offset(sgfpat_priors::kDistPrev) + 1] = 1.5;
    REQUIRE(write_priors_with_model(priors_path, model, model_path).ok());
  }
};
Fixture& fixture() {
  static Fixture f;
  return f;
}

// The positions (moves that are not passes) of the legal games of `inputs`.
uint64_t positions_of(const std::vector<std::string>& inputs, uint64_t* games) {
  GameStream stream(inputs);
  Game game;
  Status st;
  Board board;
  ReplayResult rr;
  uint64_t n = 0;
  *games = 0;
  while (stream.next(&game, &st)) {
    if (!st.ok() || !replay(game, &board, &rr).ok()) continue;
    ++*games;
    for (const Action& a : game.actions) n += a.kind == Action::Kind::Play && !a.point.is_pass();
  }
  return n;
}
}  // namespace

TEST_CASE("parse_ablations: group names and 'each'; none without a model; unknown names refused") {
  Fixture& f = fixture();
  sgfpat_priors::Priors plain, with_model;
  REQUIRE(open_priors(f.priors_path, false, &plain).ok());
  REQUIRE(open_priors(f.model_path, false, &with_model).ok());
  std::vector<Ablation> out;
  CHECK(parse_ablations(Evaluator(plain), {}, &out).ok());
  CHECK(out.empty());
  CHECK(parse_ablations(Evaluator(plain), {"capture"}, &out).is_invalid_argument());
  Evaluator model(with_model);
  REQUIRE(parse_ablations(model, {"capture", "edge"}, &out).ok());
  REQUIRE(out.size() == 2);
  CHECK(out[0].name == "capture");
  CHECK(out[0].skip == 1u << sgfpat_priors::kCapture);
  CHECK(out[1].skip == 1u << sgfpat_priors::kEdge);
  out.clear();
  REQUIRE(parse_ablations(model, {"each"}, &out).ok());
  CHECK(out.size() == size_t(sgfpat_priors::kFeatureGroups));
  Status bad = parse_ablations(model, {"capture", "nonsense"}, &out);
  CHECK(bad.is_invalid_argument());
  CHECK(bad.message().find("'nonsense'") != std::string::npos);
}

TEST_CASE("measure_accuracy: every position once; skipped records and unreadable inputs apart; ablations") {
  Fixture& f = fixture();
  sgfpat_priors::Priors priors;
  REQUIRE(open_priors(f.model_path, false, &priors).ok());
  Evaluator evaluator(priors);
  REQUIRE(evaluator.estimator() == Estimator::Model);
  // An illegal record (a stone on an occupied point) and a missing input.
  testutil::write_file(f.dir / "bad.sgf", "(;GM[1]SZ[9];B[ee];W[ee])");
  AccuracyRun run;
  run.inputs = {k9x9, f.dir / "bad.sgf", f.dir / "missing.sgf"};
  std::vector<std::string> skipped;
  uint64_t games_seen = 0;
  run.on_skipped = [&](const std::string& why) { skipped.push_back(why); };
  run.on_game = [&](const AccuracyReport& r) { CHECK(r.games == ++games_seen); };
  std::vector<Ablation> ablations;
  REQUIRE(parse_ablations(evaluator, {"capture", "edge", "dist-prev"}, &ablations).ok());
  AccuracyReport report;
  uint64_t input_errors = 0;
  REQUIRE(measure_accuracy(evaluator, run, &ablations, &report, &input_errors).ok());
  uint64_t games = 0;
  const uint64_t positions = positions_of({k9x9}, &games);
  CHECK(report.games == games);
  CHECK(games_seen == games);
  CHECK(report.all.positions == positions);
  CHECK(report.skipped_games == 1);
  CHECK(input_errors == 1);
  REQUIRE(skipped.size() == 2);
  CHECK(skipped[0].find("illegal record") != std::string::npos);
  CHECK(skipped[1].find("missing.sgf") != std::string::npos);
  CHECK(report.candidates > report.all.positions);
  for (const Ablation& ab : ablations) {
    INFO(ab.name);
    CHECK(ab.report.all.positions == positions);
    CHECK(ab.report.all.loglik != report.all.loglik);  // the group's weights mattered
  }
  // With every group left out, the model is the smoothed estimate.
  run.on_game = nullptr;
  std::vector<Ablation> all{Ablation{"all", (1u << sgfpat_priors::kFeatureGroups) - 1, {}}};
  AccuracyReport again;
  run.inputs = {k9x9};
  REQUIRE(measure_accuracy(evaluator, run, &all, &again, &input_errors).ok());
  AccuracyReport smoothed;
  std::vector<Ablation> none;
  REQUIRE(measure_accuracy(Evaluator(priors, EvalOptions{Estimator::Smoothed}), run, &none, &smoothed, &input_errors)
              .ok());
  CHECK(all[0].report.all.loglik == doctest::Approx(smoothed.all.loglik).epsilon(1e-9));
  CHECK(all[0].report.all.top_rate(0) == doctest::Approx(smoothed.all.top_rate(0)));
  // max_games stops after that many replayed games.
  run.max_games = 3;
  AccuracyReport three;
  REQUIRE(measure_accuracy(evaluator, run, &none, &three, &input_errors).ok());
  CHECK(three.games == 3);
}

TEST_CASE("sample_knn_cases: an even sample of the positions; all of them when fewer; batches by board size") {
  Fixture& f = fixture();
  uint64_t games = 0;
  const uint64_t positions = positions_of({k9x9}, &games);
  REQUIRE(positions > 100);
  KnnSample sample;
  REQUIRE(sample_knn_cases({k9x9}, 0, 50, &sample).ok());
  CHECK(sample.games == games);
  CHECK(sample.skipped_games == 0);
  REQUIRE(sample.cases.size() == 50);
  for (const KnnCase& c : sample.cases) {
    CHECK_FALSE(c.played.is_pass());
    CHECK(c.query.board.size() == 9);
    CHECK(c.query.weight.size() > 0);
  }
  // Even: the first position of the first game is the first case, and the
  // cases come from many games (move numbers start over).
  CHECK(sample.cases[0].move_number == 1);
  int restarts = 0;
  for (size_t i = 1; i < sample.cases.size(); ++i) restarts += sample.cases[i].move_number < sample.cases[i - 1].move_number;
  CHECK(restarts >= int(games) / 2);
  KnnSample all;
  REQUIRE(sample_knn_cases({k9x9}, 0, 1000000, &all).ok());
  CHECK(all.cases.size() == positions);
  KnnSample two;
  REQUIRE(sample_knn_cases({k9x9}, 2, 1000000, &two).ok());
  CHECK(two.games == 2);

  // Measured in batches of at most 16: one progress call per batch, every case counted.
  ScanOptions so;
  so.k = 3;
  so.threads = 1;
  std::vector<size_t> done;
  AccuracyReport report;
  REQUIRE(knn_accuracy_in_batches(f.db.get(), sample.cases, so, 16,
                                  [&](size_t d, size_t total) {
                                    CHECK(total == 50);
                                    done.push_back(d);
                                  },
                                  &report)
              .ok());
  CHECK(done == std::vector<size_t>{16, 32, 48, 50});
  CHECK(report.all.positions == 50);
  // The games are in the database: the played move is often among the neighbours'.
  CHECK(report.all.top_rate(3) > 0.3);
}

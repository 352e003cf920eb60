// Learning the model: MM recovers weights planted in synthetic data;
// sampling stored games is reproducible for a seed and leave-one-out; the
// version-3 priors file carries the model through a round trip, refuses
// corruption, and version-2 files still open (without a model).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include "eval/evaluator.h"
#include "priors/model_writer.h"
#include "priors/priors_writer.h"
#include "priors/sgfpat_features.h"
#include "test_util.h"
#include "train/game_sample.h"
#include "train/mm.h"

using namespace sgfpat;
using namespace sgfpat_priors;
using testutil::TempDir;

TEST_CASE("MM recovers feature weights planted in synthetic positions") {
  // 6,000 positions of 30 candidates with random capture and edge levels
  // and a random pattern rate; the played move drawn from the model with
  // capture level 1 at log 3, level 4 at log 0.25, edge 0 at log 0.5.
  std::mt19937_64 rng(7);
  std::vector<double> planted(kModelWeights, 0.0);
  planted[size_t(group_offset(kCapture) + 1)] = std::log(3.0);
  planted[size_t(group_offset(kCapture) + 4)] = std::log(0.25);
  planted[size_t(group_offset(kEdge) + 0)] = std::log(0.5);
  TrainingSet data;
  std::uniform_real_distribution<double> u(0, 1);
  for (int j = 0; j < 6000; ++j) {
    std::vector<double> strength;
    for (int c = 0; c < 30; ++c) {
      uint8_t lv[kFeatureGroups] = {};
      const double r = u(rng);
      lv[kCapture] = r < 0.15 ? 1 : r < 0.3 ? 4 : 0;
      lv[kEdge] = uint8_t(rng() % 5);
      const double log_p = std::log(0.01 + 0.2 * u(rng));
      lv[kPatternBin] = uint8_t(pattern_bin(std::exp(log_p)));
      data.add_candidate(lv, log_p);
      double l = log_p;
      for (int g = 0; g < kFeatureGroups; ++g) l += planted[size_t(group_offset(g) + lv[g])];
      strength.push_back(std::exp(l));
    }
    std::discrete_distribution<int> pick(strength.begin(), strength.end());
    data.end_position(uint32_t(pick(rng)));
  }
  MmOptions o;
  o.iterations = 40;
  o.frozen = 1u << kPatternBin;  // the bins would absorb nothing here: keep the test about the planted groups
  MmResult r = train_mm(data, o);
  REQUIRE(r.loglik.size() >= 2);
  CHECK(r.loglik.back() > r.loglik.front());
  // Weights are defined up to a constant per group: compare to level 0 (capture)
  // and to the mean of levels 1..4 (edge).
  const double* w = r.weights.data();
  const double cap0 = w[group_offset(kCapture)];
  CHECK(w[group_offset(kCapture) + 1] - cap0 == doctest::Approx(std::log(3.0)).epsilon(0.1));
  CHECK(w[group_offset(kCapture) + 4] - cap0 == doctest::Approx(std::log(0.25)).epsilon(0.15));
  double edge_rest = 0;
  for (int v = 1; v < 5; ++v) edge_rest += w[group_offset(kEdge) + v] / 4;
  CHECK(w[group_offset(kEdge)] - edge_rest == doctest::Approx(std::log(0.5)).epsilon(0.15));
  // A group that plays no role stays near 0.
  for (int v = 0; v < kGroupLevels[kAtari]; ++v) CHECK(std::fabs(w[group_offset(kAtari) + v]) < 0.05);
  CHECK(mean_loglik(data, r.weights) == doctest::Approx(r.loglik.back()).epsilon(1e-9));
}

namespace {
// A database of the 12 GNU Go 19x19 sample games and the 20 9x9 ones, and its priors.
struct Fixture {
  TempDir dir{"sgfpat-train"};
  std::string db_path = dir / "db";
  std::string priors_path = dir / "p.priors";
  Fixture() {
    testutil::ingest_ok(db_path, {"--levels", "6", "--min-played", "2", "--memory-mb", "64"},
                        {std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-19x19.sgf",
                         std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-9x9.sgf"},
                        dir.path());
    REQUIRE(PatternDb::OpenReader(db_path, &db).ok());
    PriorsExportSummary summary;
    REQUIRE(write_priors(*db, PriorsExportOptions{}, priors_path, &summary).ok());
    std::string error;
    REQUIRE(priors.open(priors_path, &error));
  }
  std::unique_ptr<PatternDb> db;
  Priors priors;
};
Fixture& fixture() {
  static Fixture f;
  return f;
}

std::string file_bytes(const std::string& path) { return testutil::read_file(path); }
// Why a file of these bytes is refused at open or by verify() ("" if not).
std::string refusal(const std::string& bytes) {
  TempDir dir("sgfpat-refusal");
  testutil::write_file(dir / "x.priors", bytes);
  Priors p;
  std::string error;
  if (p.open(dir / "x.priors", &error) && !p.verify(&error)) return error;
  return error;
}
// Rewrites the header checksum after an edit of the header.
void reseal(std::string* bytes) {
  Header h;
  std::memcpy(&h, bytes->data(), sizeof h);
  h.header_checksum = 0;
  h.header_checksum = checksum64(&h, sizeof h);
  std::memcpy(bytes->data(), &h, sizeof h);
}
}  // namespace

TEST_CASE("sampling stored games: the same seed gives the same positions, another seed others") {
  Fixture& f = fixture();
  SampleOptions o;
  o.games = 5;
  TrainingSet a, b, c;
  SampleSummary sa, sb, sc;
  REQUIRE(sample_training_set(*f.db, f.priors, o, &a, &sa).ok());
  REQUIRE(sample_training_set(*f.db, f.priors, o, &b, &sb).ok());
  o.seed = 2;
  REQUIRE(sample_training_set(*f.db, f.priors, o, &c, &sc).ok());
  CHECK(sa.stored_games == 32);
  CHECK(sa.games == 5);
  CHECK(sa.positions > 100);
  CHECK(a.levels == b.levels);
  CHECK(a.log_rate == b.log_rate);
  CHECK(a.played == b.played);
  CHECK(a.levels != c.levels);
  // Every played move is one of its position's candidates.
  for (size_t j = 0; j < a.positions(); ++j) {
    CHECK(a.played[j] >= a.first[j]);
    CHECK(a.played[j] < a.first[j + 1]);
  }
}

TEST_CASE("sampling is leave-one-out: a database of one game knows none of its patterns") {
  TempDir dir("sgfpat-loo");
  // The first 9x9 game alone, every pattern it plays kept (min-played 1).
  std::string all = testutil::read_file(std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-9x9.sgf");
  size_t second = all.find("(;", 1);
  testutil::write_file(dir / "one.sgf", all.substr(0, second));
  testutil::ingest_ok(dir / "db", {"--levels", "6", "--min-played", "1", "--memory-mb", "64"}, {dir / "one.sgf"},
                      dir.path());
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(dir / "db", &db).ok());
  PriorsExportSummary summary;
  REQUIRE(write_priors(*db, PriorsExportOptions{}, dir / "p.priors", &summary).ok());
  Priors priors;
  std::string error;
  REQUIRE(priors.open(dir / "p.priors", &error));
  TrainingSet data;
  SampleSummary s;
  REQUIRE(sample_training_set(*db, priors, SampleOptions{}, &data, &s).ok());
  REQUIRE(s.games == 1);
  REQUIRE(data.candidates() > 1000);
  // Without its own counts nothing is known: every candidate gets level 0 and the base rate.
  size_t known = 0;
  for (size_t k = 0; k < data.candidates(); ++k) known += data.levels[k * kFeatureGroups + kLevel] != 0;
  CHECK(known == 0);
  // ...whereas the file itself knows them all.
  CHECK(priors.count(1) > 0);
}

TEST_CASE("priors file v3: the model goes through a round trip, and eval uses it by default") {
  Fixture& f = fixture();
  TrainingSet data;
  SampleSummary s;
  SampleOptions o;
  o.games = 32;
  REQUIRE(sample_training_set(*f.db, f.priors, o, &data, &s).ok());
  MmOptions mm;
  mm.iterations = 3;
  MmResult r = train_mm(data, mm);
  ModelSection model = empty_model();
  model.smoothing = 4;
  model.train_games = s.games;
  model.train_positions = s.positions;
  model.train_seed = 1;
  for (size_t i = 0; i < r.weights.size(); ++i) model.weights[i] = r.weights[i];
  TempDir dir("sgfpat-v3");
  const std::string out = dir / "m.priors";
  REQUIRE(write_priors_with_model(f.priors_path, model, out).ok());
  Priors p;
  std::string error;
  REQUIRE(p.open(out, &error));
  CHECK(p.verify(&error));
  REQUIRE(p.model() != nullptr);
  CHECK(p.header().version == 3);
  CHECK(std::memcmp(p.model()->weights, model.weights, sizeof model.weights) == 0);
  CHECK(p.model()->train_positions == s.positions);
  // The tables are the same as the source file's.
  CHECK(p.count(1) == f.priors.count(1));
  CHECK(p.count(6) == f.priors.count(6));
  // Training again over the new file replaces the model rather than adding one.
  model.weights[0] = 0.5;
  REQUIRE(write_priors_with_model(out, model, out).ok());
  Priors p2;
  REQUIRE(p2.open(out, &error));
  CHECK(p2.header().file_bytes == p.header().file_bytes);
  CHECK(p2.model()->weights[0] == 0.5);

  // Evaluation: the model by default, the old estimators on request.
  Board board(9);
  Evaluator by_default(p2);
  CHECK(by_default.estimator() == Estimator::Model);
  Evaluator smoothed(p2, EvalOptions{Estimator::Smoothed});
  CHECK(smoothed.estimator() == Estimator::Smoothed);
  Evaluator without(f.priors);
  CHECK(without.estimator() == Estimator::Smoothed);
  auto moves = by_default.evaluate(board, Color::Black);
  REQUIRE(moves.size() == 81);
  double total = 0;
  for (const MoveEval& e : moves) total += e.prob;
  CHECK(total == doctest::Approx(1.0));
  // With every group left out the model is the smoothed estimate.
  Evaluator ablated(p2, EvalOptions{Estimator::Model, 4.0, (1u << kFeatureGroups) - 1});
  auto plain = smoothed.evaluate(board, Color::Black);
  auto abl = ablated.evaluate(board, Color::Black);
  for (size_t i = 0; i < plain.size(); ++i) CHECK(abl[i].prob == doctest::Approx(plain[i].prob).epsilon(1e-12));
}

TEST_CASE("priors file v3: a damaged model is refused; version 2 opens without one") {
  Fixture& f = fixture();
  TempDir dir("sgfpat-v3bad");
  const std::string out = dir / "m.priors";
  ModelSection model = empty_model();
  model.smoothing = 4;
  model.weights[3] = 1.25;
  REQUIRE(write_priors_with_model(f.priors_path, model, out).ok());
  const std::string good = file_bytes(out);
  Header h;
  std::memcpy(&h, good.data(), sizeof h);
  REQUIRE(h.model_bytes == sizeof(ModelSection));
  CHECK(refusal(good).empty());

  std::string bad = good;
  bad[h.model_offset] ^= 1;  // magic
  CHECK(refusal(bad).find("model section has a bad magic") != std::string::npos);
  bad = good;
  double huge = 1e300;
  std::memcpy(&bad[h.model_offset + offsetof(ModelSection, weights) + 8], &huge, 8);
  CHECK(refusal(bad).find("weight out of range") != std::string::npos);
  // Past what training writes (kMaxModelWeight): a model of weights 99 was
  // read, every strength e^1000 = inf and every probability NaN.
  for (double w : {30.5, -31.0, 99.0}) {
    INFO(w);
    bad = good;
    std::memcpy(&bad[h.model_offset + offsetof(ModelSection, weights) + 8], &w, 8);
    CHECK(refusal(bad).find("weight out of range") != std::string::npos);
  }
  bad = good;
  bad[h.model_offset + offsetof(ModelSection, weights) + 3] ^= 0x10;  // a plausible weight: only the checksum sees it
  CHECK(refusal(bad).find("checksum") != std::string::npos);
  bad = good;
  uint32_t fs = 2;
  std::memcpy(&bad[h.model_offset + offsetof(ModelSection, feature_set)], &fs, 4);
  CHECK(refusal(bad).find("feature set 2") != std::string::npos);
  bad = good.substr(0, good.size() - 8);
  CHECK(refusal(bad).find("truncated") != std::string::npos);
  // A model said to lie past the end of the file, header checksum redone.
  bad = good;
  Header forged = h;
  forged.model_offset = h.file_bytes - 8;
  std::memcpy(bad.data(), &forged, sizeof forged);
  reseal(&bad);
  CHECK(refusal(bad).find("model section out of bounds") != std::string::npos);

  // Exported without a model, a file stays version 2 (older readers load it)
  // and opens without a model; so does a version-3 file without one.
  std::string v2 = file_bytes(f.priors_path);
  Header h2;
  std::memcpy(&h2, v2.data(), sizeof h2);
  CHECK(h2.version == 2);
  CHECK(h2.model_offset == 0);
  CHECK(h2.model_bytes == 0);
  for (uint32_t version : {2u, 3u}) {
    h2.version = version;
    std::memcpy(v2.data(), &h2, sizeof h2);
    reseal(&v2);
    testutil::write_file(dir / "v.priors", v2);
    Priors p;
    std::string error;
    REQUIRE(p.open(dir / "v.priors", &error));
    CHECK(p.model() == nullptr);
    CHECK(p.verify(&error));
  }
  // Version 4 is from the future.
  h2.version = 4;
  std::memcpy(v2.data(), &h2, sizeof h2);
  reseal(&v2);
  CHECK(refusal(v2).find("version 4") != std::string::npos);
}

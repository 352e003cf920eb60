// The accuracy measurement of a priors file: replay test games (not
// ingested) and rank each played move among the legal moves by the
// evaluator's probabilities (eval/accuracy.h's statistics), with the model
// also scored without some of its feature groups (ablations).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "eval/accuracy.h"
#include "eval/evaluator.h"

namespace sgfpat {

// The model without the feature groups of `skip` (bit g: group g), and how
// it predicted.
struct Ablation {
  std::string name;  // the group's name (sgfpat_priors::feature_group_name)
  uint32_t skip = 0;
  AccuracyReport report;
};

// The ablations `names` asks for: feature group names, or "each" for every
// group in turn, in the order given.  InvalidArgument when the evaluator
// has no model to ablate (names not empty) or for a name that is no group.
Status parse_ablations(const Evaluator& evaluator, const std::vector<std::string>& names,
                       std::vector<Ablation>* out);

struct AccuracyRun {
  std::vector<std::string> inputs;  // SGF inputs of the test games
  uint64_t max_games = 0;           // stop after this many replayed games (0: all)
  // Called for every record or input skipped, with why (the origin named).
  std::function<void(const std::string& why)> on_skipped;
  // Called after each game replayed.
  std::function<void(const AccuracyReport&)> on_game;
};

// Replays the games of run.inputs with `evaluator`: every position (not a
// pass) is evaluated just before its move is played and added to *report
// (games, candidates, evaluation time too) and, reweighed, to each of
// *ablations.  A record that cannot be read or replayed counts in
// report->skipped_games; an input that cannot be read at all in
// *input_errors.  Errors in the inputs are reported, never returned: the
// status is that of the measurement itself.
Status measure_accuracy(const Evaluator& evaluator, const AccuracyRun& run, std::vector<Ablation>* ablations,
                        AccuracyReport* report, uint64_t* input_errors);

}  // namespace sgfpat

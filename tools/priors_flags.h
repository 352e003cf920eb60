// Flags shared by the commands that read a priors file.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "core/status.h"
#include "eval/evaluator.h"
#include "priors/priors_file.h"

namespace sgfpat::cli {

struct PriorsFlags {
  std::string path;
  std::string estimator = "auto";
  double smoothing = EvalOptions{}.smoothing;
  bool verify = false;

  void add_to(CLI::App* cmd, bool required = true);
  EvalOptions options() const;
  // The estimator in use: "model", "smoothed" or "raw" (auto resolved).
  std::string estimator_name(const Evaluator& e) const;
  // Opens (and with --verify, checks) the priors file.
  Status open(sgfpat_priors::Priors* priors) const;
};

}  // namespace sgfpat::cli

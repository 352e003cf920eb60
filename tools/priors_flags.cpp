#include "priors_flags.h"

#include "eval/eval_json.h"
#include "flag_checks.h"

namespace sgfpat::cli {

void PriorsFlags::add_to(CLI::App* cmd, bool required) {
  auto* opt = cmd->add_option("--priors,-p", path, "Priors file written by `sgfpat export`");
  if (required) opt->required();
  cmd->add_option("--estimator", estimator,
                  "auto: the trained model when the file has one (sgfpat train), else smoothed;\n"
                  "model: smoothed rate times the learned feature weights; raw: played/seen at the\n"
                  "largest known level; smoothed: backs off toward smaller levels")
      ->check(CLI::IsMember({"auto", "model", "raw", "smoothed"}))
      ->capture_default_str();
  cmd->add_option("--smoothing,-a", smoothing, "Strength `a` of the smoothed estimator's back-off")
      ->capture_default_str()
      ->check(at_least(0));
  cmd->add_flag("--verify", verify, "Check the whole file's checksum before use");
}

EvalOptions PriorsFlags::options() const {
  EvalOptions o;
  o.estimator = estimator == "raw"        ? Estimator::Raw
                : estimator == "smoothed" ? Estimator::Smoothed
                : estimator == "model"    ? Estimator::Model
                                          : Estimator::Auto;
  o.smoothing = smoothing;
  return o;
}

std::string PriorsFlags::estimator_name(const Evaluator& e) const { return sgfpat::estimator_name(e.estimator()); }

Status PriorsFlags::open(sgfpat_priors::Priors* priors) const {
  Status st = open_priors(path, verify, priors);
  if (!st.ok()) return st;
  if (estimator == "model" && !priors->model())
    return Status::InvalidArgument(path + ": has no trained model (run sgfpat train, or use --estimator smoothed)");
  return Status::OK();
}

}  // namespace sgfpat::cli

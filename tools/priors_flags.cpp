#include "priors_flags.h"

#include <filesystem>

namespace sgfpat::cli {

void PriorsFlags::add_to(CLI::App* cmd, bool required) {
  auto* opt = cmd->add_option("--priors,-p", path, "Priors file written by `sgfpat export`");
  if (required) opt->required();
  cmd->add_option("--estimator", estimator,
                  "raw: played/seen at the largest known level; smoothed: backs off toward smaller levels")
      ->check(CLI::IsMember({"raw", "smoothed"}))
      ->capture_default_str();
  cmd->add_option("--smoothing,-a", smoothing, "Strength `a` of the smoothed estimator's back-off")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--verify", verify, "Check the whole file's checksum before use");
}

EvalOptions PriorsFlags::options() const {
  EvalOptions o;
  o.estimator = estimator == "raw" ? Estimator::Raw : Estimator::Smoothed;
  o.smoothing = smoothing;
  return o;
}

Status PriorsFlags::open(sgfpat_priors::Priors* priors) const {
  std::string error;
  if (!priors->open(path, &error)) {
    // The priors header reports text only: a file that is there but does not
    // open is not a (whole) priors file.
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) ? Status::Corruption(error) : Status::NotFound(error);
  }
  if (verify && !priors->verify(&error)) return Status::Corruption(path + ": " + error);
  return Status::OK();
}

}  // namespace sgfpat::cli

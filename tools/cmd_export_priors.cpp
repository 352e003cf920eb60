// `sgfpat export --format priors`: the binary priors file engines load.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd_export.h"
#include "commands.h"
#include "json_text.h"
#include "progress.h"

namespace sgfpat::cli {

int export_priors(PatternDb& db, const std::string& out_path, const PriorsExportOptions& options, bool json,
                  const PendingSummary& pending) {
  if (out_path == "-") {
    std::cerr << "sgfpat export: a priors file needs a real output path (-o FILE), not stdout\n";
    return kUsage;
  }
  auto t0 = std::chrono::steady_clock::now();
  PriorsExportSummary summary;
  Status st = write_priors(db, options, out_path, &summary);
  if (!st.ok()) {
    return fail("sgfpat export: ", st);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t total = 0;
  for (uint64_t n : summary.patterns_per_level) total += n;
  if (json) {
    nlohmann::json j = {{"output", out_path},
                        {"format", "priors"},
                        {"bytes", summary.bytes},
                        {"patterns", total},
                        {"patterns_per_level", summary.patterns_per_level},
                        {"max_probe_per_level", summary.max_probe_per_level},
                        {"min_played", summary.min_played},
                        {"min_seen", options.min_seen},
                        {"seconds", seconds}};
    add_pending_json(pending, &j);
    std::cout << json_text(j, 2) << "\n";
  } else {
    std::cerr << "sgfpat export: wrote " << out_path << ": " << with_commas(total) << " patterns over "
              << summary.patterns_per_level.size() << " levels (min played " << summary.min_played << ", min seen "
              << options.min_seen << "), " << bytes_text(summary.bytes) << ", " << seconds << " s\n";
  }
  return kOk;
}

}  // namespace sgfpat::cli

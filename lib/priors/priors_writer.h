// Writes a priors file (format: priors/sgfpat_priors.h) from the current
// counts of a pattern database.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct PriorsExportOptions {
  int min_played = 0;     // 0: the database's own threshold (never lower)
  uint64_t min_seen = 0;
  int levels = 0;         // 0: every level of the scheme
};

struct PriorsExportSummary {
  std::vector<uint64_t> patterns_per_level;
  std::vector<uint32_t> max_probe_per_level;  // most buckets a look-up of a present key reads
  uint64_t bytes = 0;
  int min_played = 0;
};

// Writes `path` atomically (a temporary file renamed at the end).
// Thresholds on played and seen keep presence closed under smaller levels,
// because a smaller pattern is played and seen at least as often.
Status write_priors(PatternDb& db, const PriorsExportOptions& options, const std::string& path,
                    PriorsExportSummary* summary);

}  // namespace sgfpat

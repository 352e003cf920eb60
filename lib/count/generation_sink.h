// Where a count's parts go when it makes a new generation of the
// database (count/count_driver.h): each part's patterns played at least
// min_played times are written as sorted table files (the others were the
// sketch's over-estimates), the base by the part that has it.
#pragma once
#include <chrono>
#include <cstdint>
#include <vector>

#include "count/count_driver.h"
#include "store/count_summary.h"
#include "store/pattern_db.h"

namespace sgfpat {

class GenerationSink : public PartSink {
 public:
  // Into generation `gen` (from db.begin_generation()), none of whose
  // patterns is written yet.  The parts' tallies are added to *summary:
  // kept_keys (patterns counted, reported or pruned), pruned,
  // patterns_per_level (sized to the levels), and the positions and
  // candidates of the part that has the base.
  GenerationSink(PatternDb& db, uint32_t gen, CountSummary* summary);
  // Counting in parts: each part written also counts in summary->parts,
  // and is recorded in `db` (count/parts_progress.h) with *summary, whose
  // seconds_pass2 is then `pass2_before` and the time since `start`: a
  // count killed after it goes on from the next part.
  void record_parts(double pass2_before, std::chrono::steady_clock::time_point start);

  Status take(const Part& part, ResidentTable* table, const PartCounted& counted) override;
  // Writing the parts' counts took this long (in take()).
  double write_seconds() const { return write_seconds_; }

 private:
  PatternDb& db_;
  uint32_t gen_;
  CountSummary* summary_;
  bool record_ = false;
  double pass2_before_ = 0;
  std::chrono::steady_clock::time_point start_;
  double write_seconds_ = 0;
};

// Writes the patterns of `table` of levels >= from_level played at least
// `min_played` times to generation `gen` (one sorted table file a level,
// the levels written side by side).  Says how many were dropped (played
// fewer times) and how many are written per level (index level-1; 0
// below from_level).
// Precondition: `gen` came from db.begin_generation() and none of these
// patterns was written to it.
Status write_resident_counts(PatternDb& db, uint32_t gen, const ResidentTable& table, unsigned min_played,
                             uint64_t* pruned, std::vector<uint64_t>* per_level, int from_level = 1);

}  // namespace sgfpat

// The count-min sketch of played patterns, kept beside the counts so that
// a later ingest can tell which patterns its new games may push over
// min_played without replaying the counted games (count/incremental.h).
//
// One file per generation in the database folder, named by the generation
// and recorded with it at the switch (PatternDb::commit_generation), so a
// count killed while writing one leaves the recorded file untouched.  The
// file is a header (magic, threshold, size, the played items it holds and
// was sized for) and the raw cells, with a checksum: a damaged or
// truncated file is reported, never read as an empty sketch.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"
#include "count/sketch.h"

namespace sgfpat {

struct PlayedSketch {
  std::unique_ptr<CountMinSketch> sketch;
  uint64_t items = 0;      // played (level, pattern) items added so far
  uint64_t sized_for = 0;  // items the sketch was sized for
  // Past twice the items it was sized for, false "kept" answers grow fast:
  // the next count rebuilds it from scratch.
  bool too_full() const { return items > 2 * sized_for; }
};

// The file name of the sketch of generation `gen`.
std::string played_sketch_name(uint32_t gen);
// Writes `s` to `path` durably (a temporary file, synced, renamed).
Status save_played_sketch(const PlayedSketch& s, int threshold, const std::string& path);
// Reads the sketch at `path`, which must have been made for `threshold`.
Status load_played_sketch(const std::string& path, int threshold, PlayedSketch* out);

}  // namespace sgfpat

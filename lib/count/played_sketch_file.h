// The count-min sketch of played patterns of a count, kept beside its
// counts so that a count in parts killed after some parts goes on from the
// next with the same kept set (count/key_parts.h).
//
// One file per generation in the database folder, named by the generation
// and recorded with it at the switch (PatternDb::commit_generation), so a
// count killed while writing one leaves the recorded file untouched.  The
// file is a header (magic "SGFPSK" and the format's version as two digits,
// core/format_version.h: kPlayedSketchFormat; threshold, size, the played items it holds and
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
  uint64_t sized_for = 0;  // items the sketch's size is meant for (sketch_items_for())
  // Past twice the items it is meant for, false "kept" answers grow fast:
  // a count that may use `max_bytes` for a sketch rebuilds it from scratch
  // when that gives a bigger one.
  bool too_full(size_t max_bytes) const {
    return items > 2 * sized_for && double(max_bytes) > 1.5 * double(sketch->bytes());
  }
};

// An empty sketch of about `bytes`, sized for what that size is meant for.
PlayedSketch new_played_sketch(size_t bytes, int threshold);

// The size of a sketch for `items` played items, within `max_bytes`, and
// the items a sketch of `bytes` is meant for: about two cells per row for
// each item keeps false "kept" answers rare.
size_t sketch_bytes_for(uint64_t items, int threshold, size_t max_bytes);
uint64_t sketch_items_for(size_t bytes, int threshold);

// The file name of the sketch of generation `gen`.
std::string played_sketch_name(uint32_t gen);
// Writes `s` to `path` durably (a temporary file, synced, renamed).
Status save_played_sketch(const PlayedSketch& s, int threshold, const std::string& path);
// Reads the sketch at `path`, which must have been made for `threshold`.
Status load_played_sketch(const std::string& path, int threshold, PlayedSketch* out);

}  // namespace sgfpat

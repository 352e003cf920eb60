// The one counting driver: count these games into this kept set, a part at
// a time, and hand each part's sums to a sink.
//
// A part is a resident table (count/resident_table.h) of some of the kept
// patterns.  A move's patterns of levels >= kSplitLevel belong to the part
// of their level-kSplitLevel pattern (a bucket of its hashed key,
// count/part_range.h); the smaller levels (the "base": 45 + 104k patterns
// at levels 1-2 for all 616k Tygem games) are in every part's table.  The
// walks of pass 2 go up a candidate's levels, so in a part's table a walk
// stops at a split-level pattern of another part, and every pattern of the
// part is reached with all its smaller levels (they share its split-level
// pattern): the counts of a part are exactly those a single table of the
// whole kept set would have.  Level 3 has the most patterns of all levels
// (6M of 29.6M kept at 616k games), so parts cut that fine stay balanced.
// A count that fits its budget (count/count_budget.h) is one part, the
// whole kept set ("resident"); one that does not is several, each over its
// own replay of the games; a shard's count step is the parts of one shard
// (or of some of its buckets).
//
// Where the parts come from (a PartSource): pass 1's lists in memory (one
// part, count/part_sources.h ListedKeys), or a kept file on disk read back
// a run of buckets at a time (KeptFileParts).  Where the sums go (a
// PartSink): a new generation of the database (count/generation_sink.h),
// with a record of each part written so that a killed count goes on from
// the next; a counts file (a shard's count step, shard/count_step.cpp).
// (A night, count/night.h, counts its few games through its own table of
// the patterns they touch.)
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/status.h"
#include "count/game_feed.h"
#include "count/part_range.h"
#include "count/resident_table.h"
#include "pattern/key_scheme.h"

namespace sgfpat {

struct Part {
  int number = 1;  // counted as the number-th part of the count (from 1; a resumed count goes on numbering)
  // Its buckets of the split level (part_bucket()); 0..kPartBuckets - 1
  // for the whole kept set.
  int first = 0, last = kPartBuckets - 1;
  // The split-level keys it counts: buckets first..last, maybe from a
  // point inside the first (a count resumed there).
  PartRange range;
  // The whole kept set: its table is not restricted to a range.
  bool whole() const { return range.lo == 0 && range.hi == ~uint64_t(0); }
  // The part that also counts for the base: the base is in every part's
  // table (the walks go through it), and the part whose range starts at 0
  // hands it on.
  bool has_base() const { return range.lo == 0; }
};

// The kept set of a count, as parts.
class PartSource {
 public:
  virtual ~PartSource() = default;
  virtual const std::vector<Part>& parts() const = 0;
  // Builds the table of parts()[i]: its patterns and their smaller levels,
  // the extended ones marked, counts zero.  Called once a part, in order,
  // each table freed before the next is asked for.
  virtual Status table(size_t i, std::unique_ptr<ResidentTable>* out) = 0;
};

// What counting a part over the games found.
struct PartCounted {
  uint64_t positions = 0, candidates = 0;  // of the games, counted once a part
  double seconds = 0;                      // counting the games (not begin() or take())
};

// Where the sums of each part go.
class PartSink {
 public:
  virtual ~PartSink() = default;
  // Before the part's games are counted into its table.
  virtual Status begin(const Part&, ResidentTable*) { return Status::OK(); }
  // The part's table holds its patterns' counts over the games: written,
  // added, ...  The table is freed after.
  virtual Status take(const Part& part, ResidentTable* table, const PartCounted& counted) = 0;
};

// The games a count goes through.
struct CountRun {
  const KeyScheme* scheme = nullptr;
  GameSource games;  // by opening (games_by_opening()): consecutive games share their first positions
  uint64_t total = 0;
  int threads = 1;
  // Games done of the part being counted (from the calling thread).
  std::function<void(const Part&, uint64_t games)> progress;
  // The i-th of n parts (from 0) begins.
  std::function<void(size_t i, size_t n)> on_part;
};

// Counts the games of `run` into every part of `source` in turn, and hands
// each part's table to `sink`.  A part that is not whole is counted with
// its table restricted to its range, and only the rings of the pattern
// hasher up to the level above the split level kept up to date (most walks
// end at a split-level pattern of another part: ~10% faster).
Status count_parts(const CountRun& run, PartSource* source, PartSink* sink);

}  // namespace sgfpat

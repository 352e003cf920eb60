// How far a count in parts got, recorded in the database after each part
// (PatternDb::save_count_progress), so that the same count, run again after
// a kill or a crash, goes on from the next part instead of starting over:
// a part of a big corpus is a replay of every game (half an hour at
// millions of games), and the parts already written stay in the generation
// being built.
//
// The record is typed and encoded here only: a format byte, then the
// fields in a fixed order, the count's summary so far as
// encode_summary()'s bytes.  It lives only as long as one count, so it has
// no tagged fields to grow by: a record of an unknown format (or any that
// does not decode) is not resumed, which costs time, never exactness.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/format_version.h"
#include "core/status.h"
#include "store/count_summary.h"
#include "store/pattern_db.h"

namespace sgfpat {

// The format byte written (core/format_version.h: kCountProgressFormat).
inline constexpr uint8_t kPartsProgressFormat = uint8_t(kCountProgressFormat.current);
// The first form, without the split level (3 then), still read: counts of
// millions of games interrupted under it go on.
inline constexpr uint8_t kPartsProgressFormat1 = uint8_t(kCountProgressFormat.oldest);
static_assert(kPartsProgressFormat == 2 && kPartsProgressFormat1 == 1, "decode_parts_progress() reads these two");

struct PartsProgress {
  uint32_t gen = 0;     // the generation being written
  uint64_t games = 0;   // stored games it counts ...
  uint64_t moves = 0;   // ... and their moves: the stored set it was made for
  uint32_t split_level = 0;  // kSplitLevel of the run: what its ranges cut
  uint64_t next = 0;    // the first key of the next part's range (part_hash() of a split-level key)
  bool done = false;    // every range counted: only the commit is left
  double width = 0;     // the last part's range, in keys (> 0; earlier formats: the next range's)
  // The summary so far: pass 1's fields, and the parts' (parts, kept_keys
  // = counted, pruned, patterns_per_level, positions, candidates,
  // seconds_listing, seconds_pass2; part_relists of older versions).
  CountSummary summary;

  // The share of the key space counted (0 to 1).
  double counted_share() const { return done ? 1.0 : double(next) / 18446744073709551616.0; }
  friend bool operator==(const PartsProgress&, const PartsProgress&) = default;
};

std::string encode_parts_progress(const PartsProgress& p);
// Corruption for bytes that are not a whole record, NotSupported for
// another format; *p is then unspecified.
Status decode_parts_progress(std::string_view bytes, PartsProgress* p);

// The record of `db` (PatternDb::count_progress()), when there is one that
// the next count of `db` can go on from: made for the generation after the
// current one, the stored games as they are, and this build's split level.
// *usable is false otherwise (none, damaged or stale: the next count starts
// afresh, which is always exact).  Errors are the database's.
Status usable_parts_progress(PatternDb& db, PartsProgress* p, bool* usable);

}  // namespace sgfpat

// One version number per stored format, and one check of it.
//
// Every file or record sgfpat writes and later reads back carries its
// format's version.  The numbers live here, together, so that a reader of
// docs/formats.md and a reader of the code see one list; each format's
// reader calls check_format_version() at open, which is the one place that
// accepts (oldest..current) or refuses (NotSupported, naming the format, the
// version found and the versions this program reads).  A reader that
// accepts an older version upgrades it right after the check.
#pragma once
#include <cstdint>
#include <string>

#include "core/status.h"

namespace sgfpat {

struct FormatVersion {
  const char* name;  // for people: "pattern database", "priors file", ...
  uint32_t current;  // what this program writes
  uint32_t oldest;   // the oldest it still reads (and upgrades)
};

// The formats and their versions.  A change to a format's bytes raises its
// `current`; `oldest` rises when the reading of an old version is dropped.
//
// The pattern database's version (meta "scheme", `format=`; checked in
// PatternDb's open) covers everything inside the database: its families and
// meta keys, the count keys and values (store/count_entry.h), the position
// index entries (search/position_index.h), the stored game records and the
// count summary.  A change to any of them raises it too, so that a program
// that cannot read the change refuses the database at open instead of
// meeting the change record by record.  The records with no version of
// their own need none for that reason; two carry a version byte as well
// (their first byte since they were first written), checked against their
// entries here:
//  - a stored game record: checked as each record is decoded (a database
//    holds millions; none is read at open).  In a database whose version
//    this program reads, another record version is damage: Corruption
//    naming both versions.
//  - the count summary: one per database, read at open: NotSupported.
inline constexpr FormatVersion kDatabaseFormat{"pattern database", 1, 1};
inline constexpr FormatVersion kGameRecordFormat{"stored game record", 1, 1};
inline constexpr FormatVersion kCountSummaryFormat{"count summary", 1, 1};
inline constexpr FormatVersion kPriorsFormat{"priors file", 3, 2};
inline constexpr FormatVersion kRetroTableFormat{"retrograde table database", 1, 1};
// Counting's files (docs/counting.md).  Record files are the kept file of a
// count in parts and the shards' kept and counts lists
// (count/record_file.h: the version is the magic's last byte, a digit).
inline constexpr FormatVersion kRecordFileFormat{"record file", 2, 2};
// What a kept file was listed for, beside it (count/key_parts.cpp).
inline constexpr FormatVersion kKeptListingFormat{"kept file listing", 1, 1};
// The sketch of played patterns saved with each generation and by the
// shard steps (count/played_sketch_file.h: the magic's last two bytes).
inline constexpr FormatVersion kPlayedSketchFormat{"sketch of played patterns", 1, 1};
// How far a count in parts got (count/parts_progress.h: its first byte);
// version 1 lacks the split level.
inline constexpr FormatVersion kCountProgressFormat{"count progress record", 2, 1};
// How far a catch-up got (count/catchup_progress.h: its first byte).
inline constexpr FormatVersion kCatchupProgressFormat{"catch-up progress record", 1, 1};
// The plan of a sharded count (shard/shard_plan.h: the magic's last byte).
inline constexpr FormatVersion kShardPlanFormat{"shard plan", 1, 1};
// `sgfpat serve --games-dir`: one append-only file per game (lib/serve/game_log.h).
inline constexpr FormatVersion kServedGameFormat{"served game record", 1, 1};

// OK when `found` is between format.oldest and format.current; otherwise
// NotSupported: "<where>: <name> format version <found>, this sgfpat reads
// <oldest> to <current>".
inline Status check_format_version(const FormatVersion& format, uint32_t found, const std::string& where) {
  if (found >= format.oldest && found <= format.current) return Status::OK();
  std::string reads = format.oldest == format.current
                          ? "version " + std::to_string(format.current)
                          : "versions " + std::to_string(format.oldest) + " to " + std::to_string(format.current);
  return Status::NotSupported(where + ": " + format.name + " format version " + std::to_string(found) +
                              ", this sgfpat reads " + reads);
}

}  // namespace sgfpat

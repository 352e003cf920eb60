// What a count of the stored games found, as the database records it with
// each generation of counts (meta key "summary"), in the manner of
// LevelDB's VersionEdit: a typed record with its own encode/decode, so no
// layer parses another's text.
//
// Encoding: a format byte (kSummaryFormat, the version in
// core/format_version.h's kCountSummaryFormat), then (tag varint, value)
// pairs in any order: unsigned numbers as varints, real numbers as the
// fixed64 of their IEEE bits, the per-level list as a count and varints.  A
// reader refuses unknown tags (the record would mean more than it
// understands) and other format versions (NotSupported).
// Databases written before this format hold a JSON object there; decoding
// reads that too, so that readers open them as before, and a writer's open
// rewrites it in this form (PatternDb's format step).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/format_version.h"
#include "core/status.h"

namespace sgfpat {

enum class CountMode : uint8_t {
  kNone = 0,      // not recorded
  kResident = 1,  // every kept pattern in memory at once
  kDraining = 2,  // per-thread tables drained into the database when full
  kIncremental = 3,  // earlier versions' nights, which caught up every time (now kNight)
  kSharded = 4,      // counted in shards and combined (shard/shard_steps.h)
  kParts = 5,        // the kept set in parts, each resident over its own replay (count/key_parts.h)
  kNight = 6,        // a night: the new games added to the kept patterns' counts (count/night.h)
};
// "resident", "draining", "incremental", "sharded", "parts", "" for kNone.
const char* count_mode_name(CountMode mode);

struct CountSummary {
  uint64_t games = 0;
  uint64_t positions = 0;   // positions whose move was counted (non-pass)
  uint64_t candidates = 0;  // legal candidate points over those positions
  std::vector<uint64_t> patterns_per_level;  // reported (played >= min_played), index level-1
  double sketch_fill = 0;
  uint64_t sketch_bytes = 0;
  uint64_t drains = 0;  // draining mode: table drains into the database; resident: 0
  uint64_t pruned = 0;  // counted but played < min_played (sketch over-estimates)
  CountMode mode = CountMode::kNone;
  uint64_t kept_keys = 0;  // resident: patterns counted (reported + pruned); parts: counted over all parts; draining: listed by pass 1 (0: the lists outgrew the budget)
  double seconds_pass1 = 0, seconds_pass2 = 0, seconds_commit = 0;
  uint64_t new_games = 0;      // games this count added (all of them in a full count)
  uint64_t joined_patterns = 0;  // night: patterns that joined the pending set
  uint64_t replayed_games = 0;   // night: games replayed to decide their levels above
  double seconds_crossing = 0;   // night: seconds of that step
  uint64_t parts = 0;  // parts mode: how many
  double seconds_listing = 0;  // parts mode: the listing replays (within seconds_pass2)
  uint64_t part_relists = 0;   // parts mode: ranges listed again smaller (their lists or table did not fit)
  uint64_t resumed_parts = 0;  // parts mode: parts written by an interrupted run of this count (count/parts_progress.h)
  uint64_t nights = 0;  // nights counted into this generation since its count (count/night.h)
  uint64_t catchups = 0;  // catch-ups committed into this generation since its count (count/catchup.h)
  uint64_t pending_patterns = 0;  // the pending set's size after the last night (0 after a count or catch-up)
  uint64_t frontier_entries = 0;  // the frontier index's entries after the last night (0: not recorded)
  // The last night (count/night.h; 0: no night since the count): the bits a
  // key of the kept set's filter, and the patterns the filter let through
  // that the kept set lacks.
  uint64_t kept_filter_bits = 0;
  uint64_t filter_dropped = 0;
  uint64_t frontier_passes = 0;  // the last night: replays of the counted games that built the frontier index (0: none)
  uint64_t crossing_parts = 0;   // the last night: parts its crossing step took (0: none)

  friend bool operator==(const CountSummary&, const CountSummary&) = default;
};

inline constexpr uint8_t kSummaryFormat = uint8_t(kCountSummaryFormat.current);

std::string encode_summary(const CountSummary& summary);
// Reads encode_summary()'s form or the JSON object of earlier versions.
// Empty input is an empty summary (never counted).  Anything else that does
// not decode is an error; *summary is then unspecified.
Status decode_summary(std::string_view bytes, CountSummary* summary);
// True for the JSON object of earlier versions (which decode_summary()
// reads), false for encode_summary()'s form and for no summary.
bool is_legacy_summary(std::string_view bytes);

}  // namespace sgfpat

// Counting a corpus in shards: the plan every step reads, and where each
// step keeps its output in the work folder (on a file system all machines
// share).
//
// A game belongs to shard shard_of(fingerprint, shards): every shard reads
// every input and stores only its own games, so a game found twice (in
// one input or in two) is stored once, by one shard, and counted once.
//
// Work folder layout (see shard/shard_steps.h for the steps):
//   plan                      the plan (encode_plan())
//   shard-<i>/db              the shard's games: an ordinary sgfpat database
//   shard-<i>/played.sketch   sketch of the shard's played patterns
//   shard-<i>/kept.records    its played patterns the summed sketch may keep
//   shard-<i>/counts.records  exact counts of the kept set over its games
//   shard-<i>/counts-<p>-of-<q>.records
//                             or those counts in q parts, one a task
//   played.sketch             the shards' sketches summed
//   kept.records              the union of the shards' kept lists
// Every file is written to a temporary name and renamed when whole.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "ingest/game_filter.h"
#include "store/game_record.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct ShardPlan {
  int shards = 1;
  DbSettings settings;
  GameFilter filter;
  std::string min_rank;      // the text of filter.min_rank, as given
  uint64_t sketch_bytes = 0;  // every shard's sketch has this size, so they can be summed
  std::vector<std::string> inputs;  // as given: every shard reads all of them, in this order
};
// Same shards, settings, filter, sketch size and inputs.
bool same_plan(const ShardPlan& a, const ShardPlan& b);

// The shard of a game: its fingerprint's first 8 bytes, as a number,
// scaled to [0, shards).
int shard_of(const Fingerprint& fp, int shards);

// Plan file: magic "SGFPPLN" and the format's version as a digit (core/format_version.h:
// kShardPlanFormat; "SGFPPLN1"), then varints: shards, levels, symmetry (0/1),
// min_played, sketch_bytes, skip_handicap (0/1), has_min_rank (0/1),
// min_rank value + 1000, number of sizes and each size; length-prefixed
// min_rank text; number of inputs and each input length-prefixed; then the
// fixed64 checksum (bytes_checksum()) of everything before it.
std::string encode_plan(const ShardPlan& plan);
Status decode_plan(std::string_view bytes, ShardPlan* plan);
// A 64-bit checksum of bytes (not cryptographic; catches damage).
uint64_t bytes_checksum(std::string_view bytes);

// Paths in the work folder `work`.
struct ShardPaths {
  std::string work;
  std::string plan() const { return work + "/plan"; }
  std::string shard_dir(int i) const { return work + "/shard-" + std::to_string(i); }
  std::string shard_db(int i) const { return shard_dir(i) + "/db"; }
  std::string shard_sketch(int i) const { return shard_dir(i) + "/played.sketch"; }
  std::string shard_kept(int i) const { return shard_dir(i) + "/kept.records"; }
  std::string shard_counts(int i) const { return shard_dir(i) + "/counts.records"; }
  // Part p of q of the shard's counts, when its count is split into tasks.
  std::string shard_counts_part(int i, int p, int q) const {
    return shard_dir(i) + "/counts-" + std::to_string(p) + "-of-" + std::to_string(q) + ".records";
  }
  std::string sketch() const { return work + "/played.sketch"; }
  std::string kept() const { return work + "/kept.records"; }
};

// The counts files of shard i: counts.records, or all q parts of a count
// split into tasks, part 1 first (it holds the games' figures).  NotFound
// when there are none or a part is missing; InvalidArgument when parts of
// two splits are there.
Status shard_counts_files(const ShardPaths& paths, int shard, std::vector<std::string>* out);
// The shard's counts files of splits other than into `parts` tasks (what
// a count into `parts` tasks makes stale).
std::vector<std::string> stale_counts_files(const ShardPaths& paths, int shard, int parts);

// Writes the plan to the work folder (created if missing).  A folder that
// already holds the same plan is fine (a rerun); another plan is refused
// (InvalidArgument): its shards would not fit together.
Status write_plan(const std::string& work, const ShardPlan& plan);
// NotFound when there is none; Corruption when damaged.
Status read_plan(const std::string& work, ShardPlan* plan);

}  // namespace sgfpat

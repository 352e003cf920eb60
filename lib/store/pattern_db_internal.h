// What the files of PatternDb share and nothing else uses.
//
// PatternDb is one class whose definitions are split by job, as RocksDB
// splits DBImpl (db_impl_open.cc, db_impl_write.cc, ...):
//   pattern_db_open.cpp       Open() in named steps, creation and the
//                             recovery of a killed one, the format version,
//                             open-time checks, closing
//   pattern_db_options.cpp    RocksDB tuning: a writer's memory budget, readers
//   pattern_db_games.cpp      stored games and pending games
//   pattern_db_positions.cpp  the position index
//   pattern_db_counts.cpp     count generations, reads of counts, commit
//   pattern_db_progress.cpp   the progress of a count in parts
//   pattern_db_night.cpp      nights: the frontier index, pending patterns,
//                             the night's one atomic commit
//   pattern_db_tables.cpp     bulk writes and deletions: table files taken
//                             in, ranges deleted outside the log, sizes
//   pattern_db_repair.cpp     RepairFiles() and its RocksDB workaround
#pragma once
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <string>

#include "core/status.h"
#include "store/column_families.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Keys of the meta family (what each holds: store/pattern_db.h).
namespace meta {
inline constexpr const char* kScheme = "scheme";
inline constexpr const char* kGames = "games";
inline constexpr const char* kMoves = "moves";
inline constexpr const char* kGeneration = "generation";
inline constexpr const char* kSummary = "summary";
inline constexpr const char* kSketch = "sketch";
inline constexpr const char* kPositionIndex = "position_index";
inline constexpr const char* kCountProgress = "count_progress";  // save_count_progress()'s record
inline constexpr const char* kPositionEntries = "position_entries";  // entries written into the index
inline constexpr const char* kFrontier = "frontier";  // the generation the frontier index was built for
inline constexpr const char* kCatchupProgress = "catchup_progress";  // save_catchup_progress()'s record
}  // namespace meta

// A copy of meta "scheme" in the games family, under a key no fingerprint
// can be (16 bytes each): a database whose meta table file is lost keeps
// the key scheme with its games, and `sgfpat repair` reads it back.
inline constexpr const char* kSchemeCopyKey = "scheme";

// Meta numbers are decimal text.
inline std::string u64_string(uint64_t v) { return std::to_string(v); }
// A meta value written by u64_string(); Corruption naming `name` otherwise.
inline Status parse_meta_u64(const std::string& path, const char* name, const std::string& text, uint64_t* out) {
  auto [ptr, err] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (text.empty() || err != std::errc() || ptr != text.data() + text.size())
    return Status::Corruption("database " + path + ": stored " + name + " '" + text + "' is not a number");
  return Status::OK();
}

// The way out of damage, for messages.
inline std::string repair_hint(const std::string& path) {
  return "run `sgfpat repair --db " + path + "` to recover what is readable, or restore a backup";
}

// RocksDB's options for a database opened with `options`
// (pattern_db_options.cpp): the database's, and each family's by Family.
// What depends on the database's state (creating it, its diary) is the
// open's to set.
struct TunedOptions {
  rocksdb::DBOptions db;
  std::array<rocksdb::ColumnFamilyOptions, kFamilyCount> family;
};
TunedOptions tuned_options(const OpenOptions& options);

// Compacts a family written as overlapping sorted runs (table files taken
// in) into one sorted run, unless it is one file already: a seek then
// probes one run, and files hidden by a range deletion go (RocksDB's
// DeleteFilesInRange leaves level 0, where such runs lie, alone).
// pattern_db_tables.cpp.
Status compact_into_one_run(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf, const std::string& what);

}  // namespace sgfpat

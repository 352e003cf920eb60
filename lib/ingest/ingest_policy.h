// The decisions of an ingest run that do not depend on how it is driven:
// how a memory budget is split between RocksDB and counting, and whether
// the stored counts must be recomputed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sgfpat {

struct InputFile;

struct MemorySplit {
  size_t db_bytes = 0;     // RocksDB write buffers and block cache
  size_t count_bytes = 0;  // counting: sketch and tables
  // While games are imported counting has not started: half of its share
  // gathers the position index entries of new games (written as one table
  // file when full, the memory freed before counting).
  size_t position_run_bytes = 0;
  bool tight = false;      // budget below kRecommendedBytes: the rest of the run may need more
};

// The budget is the whole process's: RocksDB gets an eighth (capped: its
// buffers gain little past a few hundred MB), counting what is left after
// kFixedBytes, the peak measured beyond the two (code, stacks, game batches,
// RocksDB's flushes and compactions of partial counts: ~200 MB in a
// draining run on 100k tygem games), or half the budget if that is less.
inline constexpr size_t kIngestFixedBytes = size_t(192) << 20;
inline constexpr size_t kIngestRecommendedBytes = size_t(512) << 20;
MemorySplit split_memory(size_t budget_bytes);
// Gives a database opened for an ingest step its shares of `m`: RocksDB's
// buffers and the run of position index entries.
struct OpenOptions;
void give_db_memory(const MemorySplit& m, OpenOptions* open);

// Pass 1 of the count beside the import (count/sketch_alongside.h), for a
// database that holds no game yet: its sketch must be made before the
// games are read, so it is sized from the inputs' bytes on disk (a guess:
// too large costs memory within the sketch's share, too small more false
// "kept" answers, never a wrong count).  Returns that size, or 0 when the
// inputs look too small for it to matter (or cannot be sized) and not
// `always`: count after the import.
size_t sketch_alongside_bytes(const std::vector<InputFile>& inputs, const MemorySplit& m, int levels,
                              int min_played, bool always = false);
// During such an import, the room for the run of position index entries:
// the counting share less the sketch and the lists (and the lists'
// reserve), within [32 MB, m.position_run_bytes].
size_t position_run_room(const MemorySplit& m, size_t sketch_bytes, size_t list_bytes);

// What the database says about its counts when an ingest has stored its games.
struct CountState {
  bool recount_requested = false;  // --recount
  uint32_t generation = 0;         // 0: never counted
  uint64_t counted_games = 0;      // games covered by the current counts
  uint64_t stored_games = 0;       // games stored now
  uint64_t pending_games = 0;      // stored games marked as not counted yet
};

// True when the counts must be recomputed: asked for, never made, or made
// over a different set of stored games; never for an empty database.
bool counts_stale(const CountState& state);

enum class CountPlan {
  kUpToDate,     // nothing to count
  kIncremental,  // count the pending games alone: a night (count/night.h)
  kFull,         // count every stored game (count/recount.h)
};
// How stale counts are brought up to date: the pending games alone when the
// counts are exactly those of the other stored games and have their sketch;
// else everything.  *reason says why, in words.
CountPlan plan_count(const CountState& state, std::string* reason);

}  // namespace sgfpat

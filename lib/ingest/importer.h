// Stores new games in a PatternDb: filters, checks every record with the
// rules engine, and skips games already stored (by content fingerprint).
// Games are written in atomic batches, so an interrupted import leaves
// whole games only, and running it again stores exactly what is missing
// (their position index entries are written in larger runs: an interrupted
// import leaves the index recorded incomplete, rebuilt by the next ingest).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/status.h"
#include "ingest/game_filter.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct ImportStats {
  uint64_t games_read = 0;  // records met, broken ones included
  uint64_t ingested = 0;    // new games stored
  uint64_t duplicates = 0;  // already stored (this run or before)
  uint64_t filtered = 0;
  uint64_t rejected = 0;
  uint64_t elsewhere = 0;   // left to another shard (keep_only())
  uint64_t moves_ingested = 0;
  std::map<std::string, uint64_t> rejected_by_reason;  // "parse error", "suicide", ...
  std::map<std::string, uint64_t> filtered_by_reason;
};

// What add() did with a game.
enum class AddOutcome : uint8_t {
  Stored,     // new: stored (with the next batch)
  Duplicate,  // already stored, this run or before
  Filtered,   // left out by the filter (size, handicap, rank)
  Rejected,   // an illegal record
  Elsewhere,  // another shard's game (keep_only())
};

class Importer {
 public:
  Importer(PatternDb* db, GameFilter filter, std::string min_rank_text = "", size_t batch_games = 1000);

  // Offers one parsed game.  A rejected or filtered game is not an error of
  // the run: it is counted, *outcome says which, and *problem says why
  // ("skipped: handicap", "illegal record: move 12 (B Q16): suicide"; empty
  // when stored or a duplicate).  A non-ok Status means the database failed.
  Status add(const Game& game, AddOutcome* outcome, std::string* problem);
  // Stores only the games whose fingerprint `mine` accepts (a shard's
  // games, shard/shard_plan.h); the others are counted as elsewhere, before
  // their replay, so a shard pays the parse of every game but the replay of
  // its own only.  Filtered games are still counted as filtered.
  void keep_only(std::function<bool(const Fingerprint&)> mine) { mine_ = std::move(mine); }
  // Hands the records of every batch, once stored, to `stored` (in the
  // order they were offered); its error fails the import.
  void on_stored(std::function<Status(std::vector<std::string>&&)> stored) { stored_ = std::move(stored); }
  // Counts a record that could not even be parsed.
  void count_unreadable(const std::string& reason);
  // Writes the last partial batch, and the position index entries the
  // database gathers (PatternDb::flush_position_index()).
  Status finish();

  const ImportStats& stats() const { return stats_; }

 private:
  struct FpHash {
    size_t operator()(const Fingerprint& f) const;
  };
  Status write_batch();

  PatternDb* db_;
  GameFilter filter_;
  std::function<bool(const Fingerprint&)> mine_;
  std::function<Status(std::vector<std::string>&&)> stored_;
  std::string min_rank_text_;
  size_t batch_games_;
  ImportStats stats_;
  std::vector<std::pair<Fingerprint, std::string>> batch_;
  std::unordered_set<Fingerprint, FpHash> in_batch_;
  PositionEntries batch_positions_;  // the batch's position index entries
  uint64_t batch_moves_ = 0;
};

}  // namespace sgfpat

// Checking a pattern database and repairing one that RocksDB cannot open or
// whose content disagrees with itself (`sgfpat repair`).
//
// The stored games are the database's only primary data; the counts are
// derived from them.  A repair therefore (1) reads every intact record of
// the write-ahead logs (store/salvage.h), (2) lets RocksDB rebuild its
// MANIFEST from the table and log files that are still readable (the files
// it cannot read are set aside in DB/lost/), (3) stores again every game
// of the logs and of the set-aside tables' readable blocks that step 2 did
// not keep, (4) keeps every stored game whose record decodes and replays
// and removes the others, (5) rebuilds the position index and recounts
// every pattern from the surviving games, so that the counts are exact for
// them, writes everything into table files and (6) checks that the new
// counts agree with their recorded summary.  What was lost is the games
// that did not survive, reported by number against the newest total the
// files or the logs recorded; counts are never lost, only recounted.  A
// repair killed at any point is taken up by the next one (what RocksDB set
// aside in DB/lost/ is read again).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"

namespace sgfpat {

// What a read-only check of a database found.
struct DbCheck {
  uint64_t games_recorded = 0;  // the stored-game total the database records
  uint64_t games_found = 0;     // game records found
  uint64_t games_damaged = 0;   // records that do not decode or replay
  uint64_t moves_found = 0;     // moves of the sound games
  uint64_t games_counted = 0;   // games the current counts cover (its summary)
  uint64_t games_pending = 0;   // stored games not counted yet
  uint32_t generation = 0;
  std::vector<uint64_t> patterns_per_level;  // reported patterns, from the summary
  // The first problem found (empty when the database is sound): the
  // damaged record, or the disagreement between totals, summary and counts.
  std::string problem;
};

// Opens `path` read-only and checks everything: every stored game decodes
// and replays, the recorded totals match the games found, the counted and
// pending games add up to the stored ones, and every level of the current
// counts holds the patterns its summary reports.  A database that cannot be
// opened is the Status of the open (Corruption, NotFound, Busy, ...); one
// that opens but disagrees with itself is OK with check->problem set.
Status check_database(const std::string& path, DbCheck* check);

struct RepairOptions {
  // A copy of the whole database directory is made here before anything is
  // changed ("" for "<db>.before-repair", numbered if that exists).
  std::string backup_dir;
  bool backup = true;  // false: no copy (the files RocksDB cannot read are still kept in DB/lost/)
  int threads = 2;
  size_t memory_budget = size_t(1) << 30;  // for the recount
  // Steps as they start ("repairing the files", "recounting", ...).
  std::function<void(const std::string&)> progress;
};

struct RepairReport {
  bool was_sound = false;      // nothing to repair: nothing was changed
  std::string found;           // what was wrong (the open error or the check's problem)
  std::string backup_dir;      // where the copy is ("" if none)
  std::vector<std::string> set_aside;  // files RocksDB could not read, now in DB/lost/
  uint64_t games_recorded = 0;         // the stored-game total the repaired files record
  uint64_t games_counted_before = 0;   // games the last count found covered
  uint64_t games_found = 0;            // game records in the repaired files
  // Games read from the write-ahead logs or from table files set aside that
  // RocksDB's repair had not kept, stored again.
  uint64_t games_taken_back = 0;
  std::vector<std::string> salvage_damage;  // damaged stretches of logs and set-aside tables, by file
  std::vector<std::string> damaged_games;  // records removed: "fingerprint: error"
  uint64_t games_kept = 0;
  uint64_t moves_kept = 0;
  uint32_t generation_before = 0, generation_after = 0;
  std::vector<uint64_t> patterns_before, patterns_after;  // reported patterns per level
  // Games lost: the recorded (or last counted) total that is not there any
  // more.  A lower bound: games stored after the last record that survived
  // cannot be known.
  uint64_t games_lost() const;
};

// Checks `path` (check_database); when it is sound, returns OK with
// report->was_sound and changes nothing.  Otherwise copies it (unless
// !options.backup; NoSpace, before anything is changed, when the copy does
// not fit), repairs it as described above and fills `report`.  Codes: Busy
// (another process has it open), NotFound (no database there), NoSpace,
// Corruption (what survived cannot be made a database: its key scheme is
// lost, or the recount disagrees with itself), IOError.
Status repair_database(const std::string& path, const RepairOptions& options, RepairReport* report);

}  // namespace sgfpat

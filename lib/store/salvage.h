// Reading what damaged files of a database still hold, without RocksDB's
// recovery: the games and meta values of its write-ahead logs, record by
// record, and the games of a table file, block by block.
//
// `sgfpat repair` reads them before RocksDB's RepairDB touches anything:
// RepairDB (7.8) drops every logged write of a column family that has no
// table file yet (the games of a database never flushed) and sets a table
// file with one damaged block aside whole.  A record is a game only when
// its key is the fingerprint of the game its value decodes to, so nothing
// else is ever taken for one.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "store/game_record.h"

namespace sgfpat {

struct Salvaged {
  std::map<Fingerprint, std::string> games;  // records that decode to the game of their key
  // The newest write of each key of the meta family (the default column
  // family, id 0) found in the logs: its value, or nullopt when the newest
  // was a deletion.
  std::map<std::string, std::optional<std::string>> meta;
  std::vector<std::string> damage;  // "FILE: what (at byte N)", one per damaged stretch
  uint64_t log_records = 0;         // write batches read whole from logs
  uint64_t tables_read = 0;         // table files of games opened
};

// Reads every *.log file among `paths` (in the order of their numbers:
// later writes win) and adds what they hold to `out`.  A damaged record
// (checksum, length, a fragment out of place, a batch that does not parse)
// is skipped and noted in out->damage; reading goes on at the next record
// whose header and checksum hold (RocksDB's reader drops the rest of the
// 32 KiB block).  IOError when a file cannot be read.
Status salvage_logs(const std::vector<std::string>& paths, Salvaged* out);

// Reads every table file among `paths` whose column family is "games" and
// adds its records to out->games; past a damaged block it goes on at the
// next block it can find (a table whose footer or index is damaged yields
// nothing and is noted in out->damage).  Tables of other families are
// passed over.
Status salvage_game_tables(const std::vector<std::string>& paths, Salvaged* out);

// True when `record` decodes to a game whose fingerprint is `fp`.
bool is_game_record(const Fingerprint& fp, std::string_view record);

}  // namespace sgfpat

// The retrograde tables in RocksDB: one record per position in the table,
// key = width, height (one byte each) and the base-3 position number (8
// bytes big-endian), value = the cell byte of retrograde.h.  A table is
// complete when its summary record (key width, height, "meta") is there;
// it is written last.  The record under the key "format" holds the
// database's format version (4 bytes big-endian, core/format_version.h's
// kRetroTableFormat); a database without it is of version 1, written
// before the record was.
#pragma once
#include <memory>
#include <string>

#include "core/status.h"
#include "solve/retrograde.h"

namespace rocksdb {
class DB;
}

namespace sgfpat::solve {

struct TableSummary {
  uint64_t positions = 0;
  uint64_t wins = 0;
};

// Writes every position of `table` into the database at dir (created if
// missing), then its summary; NotSupported, nothing written, when the
// database is of a format version this sgfpat does not write.
Status write_table(const std::string& dir, const RetroTable& table, TableSummary* summary);

class TableReader {
 public:
  TableReader();
  ~TableReader();
  // Opens the database read-only; NotSupported for a format version this
  // sgfpat does not read.
  Status open(const std::string& dir);
  // The summary of the width x height table; error if it is not complete.
  Status summary(int width, int height, TableSummary* out) const;
  // Looks up pos (side to move by stone counts, see RetroTable); *found is
  // false if the table does not hold it.
  Status lookup(const Geometry& g, const Position& pos, bool* found, TableValue* v) const;

 private:
  std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace sgfpat::solve

// Sorted table files written outside RocksDB's write path and taken in
// whole: how the store writes what it knows in full at once (the counts of
// a generation, a run of the position index), side by side on the cores.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
}  // namespace rocksdb

namespace sgfpat {

// Puts one entry into the table file being written; returns its error.
using TablePut = std::function<Status(std::string_view key, std::string_view value)>;
// Fills one table file: puts its entries in strictly increasing key order,
// and returns the first error.
using TableFill = std::function<Status(const TablePut&)>;

// Writes one table file of family `cf` per fill, named `name`.<i> in `dir`
// (the database's folder: taking a file in is then a rename), running up to
// `threads` fills at once (the caller's thread among them) in the order
// given; then takes in every file that got entries.  The fills' key ranges
// must not overlap.  `what` names the files in errors.  `seqno_in_file`:
// the sequence number a file is given goes into its header too, and the
// files are taken in one by one (none after a failure); else it goes into
// the MANIFEST only, and the files are taken in at once: all or none.  The
// first error of a fill, of a write or of an ingestion is returned, and no
// file is left behind (those a killed call left, `name`.*, are removed
// first).  Nothing throws.
Status take_in_tables(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const std::string& dir,
                      const std::string& name, const std::string& what, bool seqno_in_file,
                      const std::vector<TableFill>& fills, int threads);

// One entry of a table file that edits a family: a value put, a value merged
// with what the family holds (its merge operator), or a key deleted.
enum class TableOp : uint8_t { kPut, kMerge, kDelete };
using TableEdit = std::function<Status(TableOp op, std::string_view key, std::string_view value)>;
// Fills one table file of edits in strictly increasing key order; returns
// the first error.
using TableEditFill = std::function<Status(const TableEdit&)>;
struct FamilyEdits {
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  TableEditFill fill;
};

// Writes one table file per entry of `edits` (each a different family),
// named `name`.<i> in `dir`, then takes them all in with one MANIFEST
// record: every family's edits or none, across a crash too.  The sequence
// numbers are in the MANIFEST only (RocksDB's repair refuses files that
// carry one in their header): after a repair, which recounts, their order
// is lost.  Files without entries are skipped.  Errors as take_in_tables(); no file is left behind.
Status take_in_together(rocksdb::DB* db, const std::string& dir, const std::string& name, const std::string& what,
                        const std::vector<FamilyEdits>& edits);

}  // namespace sgfpat

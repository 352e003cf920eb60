// The retrograde table of a board size, ready to query: taken from the
// table database when it holds it complete, else built (retrograde.h) and
// written there first (table_store.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "solve/table_store.h"

namespace sgfpat::solve {

struct TableBuildEvents {
  std::function<void()> building;                       // before a build starts
  std::function<void(uint64_t, uint64_t)> progress;     // (done, total) cells, now and then during it
  std::function<void(const Status&)> built;             // after it, with its outcome (written too)
};

// The summary of the width x height table of the database at `dir`; when
// the database is missing or does not hold that table complete, the table
// is built and written first (*built true).  The database at `dir` then
// holds it complete: TableReader::open(dir) can look positions up.  A
// database of a format version this sgfpat does not read (NotSupported) or
// with a damaged summary (Corruption) is an error, nothing built.
Status ensure_table(const std::string& dir, int width, int height, const TableBuildEvents& events,
                    TableSummary* summary, bool* built);

}  // namespace sgfpat::solve

#include "solve/table_build.h"

namespace sgfpat::solve {

Status ensure_table(const std::string& dir, int width, int height, const TableBuildEvents& events,
                    TableSummary* summary, bool* built) {
  *built = false;
  {
    // Built when the database or the table is missing; a database of
    // another format version or a damaged summary is no reason to build.
    TableReader probe;
    Status st = probe.open(dir);
    if (st.is_not_supported()) return st;
    if (st.ok()) {
      st = probe.summary(width, height, summary);
      if (st.ok() || !st.is_not_found()) return st;
    }
  }
  if (events.building) events.building();
  RetroTable table;
  Status st = RetroTable::build(width, height, &table, events.progress);
  if (st.ok()) st = write_table(dir, table, summary);
  if (events.built) events.built(st);
  if (!st.ok()) return st;
  *built = true;
  return Status::OK();
}

}  // namespace sgfpat::solve

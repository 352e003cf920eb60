#include "solve/table_build.h"

namespace sgfpat::solve {

Status ensure_table(const std::string& dir, int width, int height, const TableBuildEvents& events,
                    TableSummary* summary, bool* built) {
  *built = false;
  {
    TableReader probe;
    if (probe.open(dir).ok() && probe.summary(width, height, summary).ok()) return Status::OK();
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

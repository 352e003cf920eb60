// PatternDb's records of how far a count in parts of the next generation
// (count/parts_progress.h encodes it) or a catch-up (count/catchup_progress.h)
// got, kept in the meta family, synced, so that the same run after a kill
// goes on from there.  begin_generation(), commit_generation() and
// set_game_totals() delete the count's; commit_night() the catch-up's.
#include <rocksdb/db.h>

#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

Status PatternDb::save_count_progress(std::string_view record) {
  if (secondary_) return read_only();
  // The parts it records must be durable first: their table files are
  // (taken in synced), and the count progress is synced itself.
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return from_rocks(db_->Put(wo, cf(Family::kMeta), meta::kCountProgress, rocksdb::Slice(record.data(), record.size())),
                    "recording the count's progress");
}

Status PatternDb::count_progress(std::string* record) {
  record->clear();
  auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kCountProgress, record);
  if (s.IsNotFound()) return Status::OK();
  return from_rocks(s, "reading the count progress");
}

Status PatternDb::save_catchup_progress(std::string_view record) {
  if (secondary_) return read_only();
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return from_rocks(
      db_->Put(wo, cf(Family::kMeta), meta::kCatchupProgress, rocksdb::Slice(record.data(), record.size())),
      "recording the catch-up's progress");
}

Status PatternDb::catchup_progress(std::string* record) {
  record->clear();
  auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kMeta), meta::kCatchupProgress, record);
  if (s.IsNotFound()) return Status::OK();
  return from_rocks(s, "reading the catch-up's progress");
}

}  // namespace sgfpat

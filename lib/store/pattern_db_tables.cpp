// PatternDb's bulk writes and deletions and its sizes: sorted table files
// taken in whole, ranges deleted outside the write-ahead log and flushed at
// once, the entries of a family's table files, the bytes on disk.
#include <rocksdb/db.h>

#include <algorithm>
#include <rocksdb/table_properties.h>

#include <filesystem>

#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

Status PatternDb::read_only() const {
  return Status::NotSupported("database " + path_ + " is open for reading only");
}

Status PatternDb::take_in_tables(rocksdb::ColumnFamilyHandle* cf, const std::string& name, const std::string& what,
                                 bool seqno_in_file, const std::vector<TableFill>& fills) {
  return sgfpat::take_in_tables(db_.get(), cf, path_, name, what, seqno_in_file, fills, write_threads_);
}

Status PatternDb::delete_range_now(rocksdb::ColumnFamilyHandle* cf, const std::string& begin, const std::string& end,
                                   const std::string& what) {
  // Out of the write-ahead log and into a table file at once: left in a log
  // that another family keeps alive, RocksDB's RepairDB made a second table
  // of it with the same sequence number as the flushed one, and refused the
  // pair.
  // A range with nothing to read needs no deletion: its tombstone would lie
  // in level 0 under every file taken in after it (and the position index's
  // closing compaction would rewrite the whole index for it).
  {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf));
    it->Seek(begin);
    if (!it->status().ok()) return from_rocks(it->status(), what);
    if (!it->Valid() || it->key().compare(rocksdb::Slice(end)) >= 0) return Status::OK();
  }
  rocksdb::WriteOptions unlogged;
  unlogged.disableWAL = true;
  auto s = db_->DeleteRange(unlogged, cf, begin, end);
  if (s.ok()) s = db_->Flush(rocksdb::FlushOptions(), cf);
  return from_rocks(s, what);
}

Status compact_into_one_run(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf, const std::string& what) {
  rocksdb::ColumnFamilyMetaData md;
  db.GetColumnFamilyMetaData(cf, &md);
  if (md.file_count <= 1) return Status::OK();
  return from_rocks(db.CompactRange(rocksdb::CompactRangeOptions(), cf, nullptr, nullptr), what);
}

Status PatternDb::flush_to_tables() {
  if (secondary_) return read_only();
  std::vector<rocksdb::ColumnFamilyHandle*> all;
  for (auto* h : cf_)
    if (h) all.push_back(h);
  rocksdb::FlushOptions fo;
  fo.allow_write_stall = true;
  // A log is deleted once every family with writes in it is flushed: after
  // this none holds anything the table files lack.
  auto s = db_->Flush(fo, all);
  return from_rocks(s, "writing database " + path_ + " into its table files");
}

Status PatternDb::check_entries(rocksdb::ColumnFamilyHandle* cf, uint64_t want, const std::string& what,
                                const std::function<std::string(uint64_t have)>& says, const rocksdb::Range* range,
                                bool values_only) {
  if (want == 0) return Status::OK();
  rocksdb::TablePropertiesCollection tables;
  const rocksdb::Status s =
      range ? db_->GetPropertiesOfTablesInRange(cf, range, 1, &tables) : db_->GetPropertiesOfAllTables(cf, &tables);
  if (!s.ok())
    return Status::Corruption("database " + path_ + ": cannot read the properties of " + what + " table files (" +
                              repair_hint(path_) + ")");
  uint64_t have = 0;
  for (const auto& [file, props] : tables)
    have += props->num_entries - (values_only ? std::min(props->num_entries, props->num_merge_operands) : 0);
  uint64_t in_memory = 0;
  if (db_->GetIntProperty(cf, "rocksdb.num-entries-active-mem-table", &in_memory)) have += in_memory;
  if (db_->GetIntProperty(cf, "rocksdb.num-entries-imm-mem-tables", &in_memory)) have += in_memory;
  if (have < want)
    return Status::Corruption("database " + path_ + ": " + says(have) + ": table files are missing or damaged (" +
                              repair_hint(path_) + ")");
  return Status::OK();
}

uint64_t PatternDb::disk_bytes() const {
  uint64_t total = 0;
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator(path_, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

}  // namespace sgfpat

// PatternDb::RepairFiles(): RocksDB's repair of a database's files, then
// what the repaired files must no longer claim (a complete position index,
// a count in parts to resume) and what they must hold again (the key
// scheme, from the logs or its copy beside the games).
#include <rocksdb/db.h>

#include <algorithm>

#include "store/count_entry.h"
#include "store/db_directory.h"
#include "store/diary_logger.h"
#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

Status PatternDb::RepairFiles(const std::string& path, const std::map<std::string, std::string>& restore) {
  rocksdb::DBOptions opts;
  opts.paranoid_checks = true;
  // Every family of an sgfpat database, with the merge operator of the
  // counts (log records of them are turned into table files).
  rocksdb::ColumnFamilyOptions plain, counts;
  counts.merge_operator = counts_merge_operator();
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const FamilyName& f : kFamilies)
    cfs.push_back({std::string(f.name), f.family == Family::kCounts ? counts : plain});
  opts.info_log = open_diary_logger(path);
  // No normal open first (it once replayed and flushed the logs, because
  // RepairDB drops the logged writes of a family that has no table file
  // yet): the caller reads the logs itself (store/salvage.h), and a normal
  // open of a MANIFEST cut at a record's end recovers an older state and
  // deletes every table file written after it as obsolete.
  auto s = rocksdb::RepairDB(path, opts, cfs, plain);
  if (!s.ok() && s.IsIOError() && !s.IsNoSpace() && locked_by_another_process(path))
    return Status::Busy("database " + path + " is in use by another process (" + s.ToString() + ")");
  if (!s.ok()) return from_rocks(s, "repairing the files of database " + path);
  // A family whose every table file was set aside is gone from the rebuilt
  // MANIFEST: it is made again, empty, so that the database is sgfpat's.
  opts.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::Open(opts, path, cfs, &handles, &raw);
  if (!s.ok()) return from_rocks(s, "opening database " + path + " after repairing its files");
  rocksdb::ColumnFamilyHandle *meta_cf = nullptr, *games_cf = nullptr;
  for (auto* h : handles) {
    if (family_named(h->GetName()) == Family::kMeta) meta_cf = h;
    if (family_named(h->GetName()) == Family::kGames) games_cf = h;
  }
  // The index's table files were taken in with sequence numbers that only
  // the old MANIFEST knew: read back at 0, they may be hidden by a range
  // deletion of an earlier reset.  Recorded incomplete, the index is built
  // again (by repair itself, or the next ingest if repair stops first).
  std::string state;
  rocksdb::Status m = meta_cf ? raw->Get(rocksdb::ReadOptions(), meta_cf, meta::kPositionIndex, &state)
                              : rocksdb::Status::Corruption("RocksDB returned no meta family");
  if (m.ok() && state != "off") {
    rocksdb::WriteOptions wo;
    wo.sync = true;
    m = raw->Delete(wo, meta_cf, meta::kPositionIndex);
  } else if (m.IsNotFound()) {
    m = rocksdb::Status::OK();
  }
  for (const auto& [key, value] : restore) {
    if (!m.ok()) break;
    std::string have;
    m = raw->Get(rocksdb::ReadOptions(), meta_cf, key, &have);
    if (m.IsNotFound()) {
      rocksdb::WriteOptions wo;
      wo.sync = true;
      m = raw->Put(wo, meta_cf, key, value);
    }
  }
  if (m.ok()) {
    // The key scheme lost with the meta table file: its copy beside the
    // games (the logs' copy, if any, was restored above).
    std::string scheme, copy;
    m = raw->Get(rocksdb::ReadOptions(), meta_cf, meta::kScheme, &scheme);
    if (m.IsNotFound() && games_cf) {
      m = raw->Get(rocksdb::ReadOptions(), games_cf, kSchemeCopyKey, &copy);
      if (m.ok()) {
        rocksdb::WriteOptions wo;
        wo.sync = true;
        m = raw->Put(wo, meta_cf, meta::kScheme, copy);
      } else if (m.IsNotFound()) {
        m = rocksdb::Status::OK();  // lost: Open() says so
      }
    }
  }
  if (m.ok()) {
    // Table files of a count in parts may have been set aside: its record
    // of progress would resume over them.
    rocksdb::WriteOptions wo;
    wo.sync = true;
    m = raw->Delete(wo, meta_cf, meta::kCountProgress);
  }
  for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
  if (!m.ok()) {
    raw->Close();
    delete raw;
    return from_rocks(m, "marking the position index of " + path + " for a rebuild and clearing its count progress");
  }
  s = raw->Close();
  delete raw;
  return from_rocks(s, "closing database " + path + " after repairing its files");
}

}  // namespace sgfpat

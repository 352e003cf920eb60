// PatternDb's RocksDB tuning: strict recovery, each family's compression,
// memtable and compaction for what it holds, and a writer's memory budget
// split between write buffers and one block cache; readers keep RocksDB's
// defaults except where a secondary instance needs otherwise.
#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/table.h>

#include <algorithm>

#include "store/count_entry.h"
#include "store/pattern_db_internal.h"

namespace sgfpat {

TunedOptions tuned_options(const OpenOptions& options) {
  TunedOptions t;
  rocksdb::DBOptions& opts = t.db;
  opts.IncreaseParallelism(2);
  // A damaged write-ahead log is an error, not a place to stop replaying
  // quietly (that drops the stored games logged after it); only a record
  // cut at the very end, as a crash leaves one, is passed over.
  opts.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  opts.paranoid_checks = true;
  if (options.secondary) opts.max_open_files = -1;  // required by secondary instances
  rocksdb::ColumnFamilyOptions& meta_opts = t.family[size_t(Family::kMeta)];
  rocksdb::ColumnFamilyOptions& games_opts = t.family[size_t(Family::kGames)];
  rocksdb::ColumnFamilyOptions& counts_opts = t.family[size_t(Family::kCounts)];
  rocksdb::ColumnFamilyOptions& positions_opts = t.family[size_t(Family::kPositions)];
  counts_opts.merge_operator = counts_merge_operator();
  counts_opts.compression = rocksdb::kLZ4Compression;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  games_opts.compression = rocksdb::kZSTD;
  // Random hashes do not compress: compressing them would only slow the
  // flushes an import waits for.
  positions_opts.compression = rocksdb::kNoCompression;
  // Index keys are hashes: every run lands all over the key space.  Runs
  // come as whole sorted table files (write_position_run()); universal
  // compaction merges whole sorted runs now and then instead of rewriting
  // the overlapping level below at every one, as levelled compaction does
  // with keys that overlap everything.  (Only deletions still go through
  // the memtable, a vector one: O(1) inserts, sorted once at flush.)
  positions_opts.memtable_factory = std::make_shared<rocksdb::VectorRepFactory>();
  positions_opts.compaction_style = rocksdb::kCompactionStyleUniversal;
  // A large import writes several runs of similar size (4-8 at 616k
  // games), which at the default trigger of 4 were merged into one at
  // once: 4 GB rewritten, 40 CPU s beside the count.  A look-up checks
  // each run's filter first, so a dozen runs cost it little; later
  // ingests' small runs are merged among themselves.
  // A run is written as one file per write thread (disjoint key ranges):
  // the trigger counts files, not runs.
  // The write stalls' limits go with it (RocksDB raises them to the
  // trigger at least): a merge must not wait until writes are stopped.
  const int files_per_run = std::max(1, options.write_threads);
  positions_opts.level0_file_num_compaction_trigger = 12 * files_per_run;
  positions_opts.level0_slowdown_writes_trigger = 20 * files_per_run;
  positions_opts.level0_stop_writes_trigger = 36 * files_per_run;
  opts.allow_concurrent_memtable_write = false;  // the vector memtable does not support it
  if (options.memory_bytes > 0) {
    // Half for the memtables of all column families together, half for a
    // cache that also holds the index and filter blocks: both would
    // otherwise grow with the number of table files, not with the budget.
    const size_t half = options.memory_bytes / 2;
    opts.db_write_buffer_size = std::max<size_t>(4 << 20, half);
    // A log file is deleted only when every family with writes in it has
    // flushed; the small families (meta, pending) would otherwise pin every
    // log of an import, hundreds of MB.  Past this size RocksDB flushes them.
    opts.max_total_wal_size = std::max<size_t>(16 << 20, half / 2);
    for (auto* cf : {&counts_opts, &games_opts, &meta_opts, &positions_opts}) {
      cf->write_buffer_size = std::max<size_t>(1 << 20, half / 4);
      cf->max_write_buffer_number = 2;
    }
    table.block_cache = rocksdb::NewLRUCache(std::max<size_t>(1 << 20, half));
    table.cache_index_and_filter_blocks = true;
    rocksdb::BlockBasedTableOptions games_table;
    games_table.block_cache = table.block_cache;
    games_table.cache_index_and_filter_blocks = true;
    games_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(games_table));
    meta_opts.table_factory = games_opts.table_factory;
  }
  {
    // An exact lookup reads one block per sorted run; with a flat index a
    // fresh reader would first load each run's whole index (megabytes for
    // the tens of millions of positions of a large corpus): a two-level
    // index loads only its small top level and one partition.
    rocksdb::BlockBasedTableOptions positions_table;
    positions_table.block_cache = table.block_cache;
    positions_table.cache_index_and_filter_blocks = table.block_cache != nullptr;
    positions_table.index_type = rocksdb::BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
    positions_table.metadata_block_size = 4096;
    positions_table.block_size = 16 << 10;
    positions_table.pin_top_level_index_and_filter = true;
    positions_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(positions_table));
  }
  counts_opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  // The pending games: fingerprints like the games', values empty.
  t.family[size_t(Family::kPending)] = games_opts;
  // The frontier index: as many entries as stored moves, keyed by hashes,
  // written as whole sorted runs (its build) and by nights' small files:
  // the position index's options.  The pending patterns: few.
  t.family[size_t(Family::kFrontier)] = positions_opts;
  t.family[size_t(Family::kPendingPatterns)] = games_opts;
  return t;
}

}  // namespace sgfpat

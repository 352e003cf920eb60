// PatternDb's position index: entries gathered in memory into a run,
// written as sorted table files the positions family takes in whole, the
// stored count of the games it covers, its build, its clearing, and its
// reading (look-ups by prefix and a cursor over all of it).
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <atomic>

#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

namespace {
// The fills, each counting into `written` the entries it puts.
std::vector<TableFill> counted(const std::vector<TableFill>& fills, std::atomic<uint64_t>* written) {
  std::vector<TableFill> out;
  for (const TableFill& fill : fills)
    out.push_back([fill, written](const TablePut& put) {
      return fill([&](std::string_view key, std::string_view value) {
        Status s = put(key, value);
        if (s.ok()) written->fetch_add(1, std::memory_order_relaxed);
        return s;
      });
    });
  return out;
}
}  // namespace

Status PatternDb::reset_position_index() { return clear_position_index(false); }

Status PatternDb::turn_position_index_off() {
  Status st = clear_position_index(true);
  // What DeleteFilesInRange left (files that straddle the range's ends,
  // memtable entries) goes with the range tombstone at compaction.
  if (st.ok() && has(Family::kPositions))
    db_->CompactRange(rocksdb::CompactRangeOptions(), cf(Family::kPositions), nullptr, nullptr);
  return st;
}

Status PatternDb::clear_position_index(bool off) {
  if (secondary_) return read_only();
  rocksdb::WriteOptions wo;
  wo.sync = true;
  rocksdb::WriteBatch batch;
  if (off) batch.Put(cf(Family::kMeta), meta::kPositionIndex, "off");
  else batch.Delete(cf(Family::kMeta), meta::kPositionIndex);
  batch.Delete(cf(Family::kMeta), meta::kPositionEntries);
  auto s = db_->Write(wo, &batch);
  if (!s.ok()) return from_rocks(s, off ? "turning the position index off" : "clearing the position index");
  indexed_games_ = ~uint64_t(0);
  position_entries_ = 0;
  position_entries_known_ = true;
  index_off_ = off;
  PositionEntries().swap(run_);
  if (!has(Family::kPositions)) return Status::OK();
  // Killed before its flush, the deletion is lost and the index stays
  // recorded incomplete: the next build clears it again.
  Status st = delete_range_now(cf(Family::kPositions), "", std::string(32, '\xff'), "clearing the position index");
  if (!st.ok()) return st;
  drop_position_files();
  return Status::OK();
}

void PatternDb::drop_position_files() {
  const std::string end(32, '\xff');
  const rocksdb::Slice e(end);
  rocksdb::DeleteFilesInRange(db_.get(), cf(Family::kPositions), nullptr, &e);
}

void PatternDb::set_position_run_bytes(size_t bytes) {
  run_limit_ = std::max<size_t>(1, bytes / sizeof(PositionEntry));
}

Status PatternDb::add_position_entries(const PositionEntries& entries) {
  if (secondary_) return read_only();
  if (!has(Family::kPositions)) return Status::NotSupported("database " + path_ + " has no position index family");
  if (!run_.empty() && run_.size() + entries.size() > run_limit_) {
    Status st = write_position_run();
    if (!st.ok()) return st;
  }
  if (run_.capacity() < run_limit_) run_.reserve(run_limit_);  // pages taken as it fills
  run_.insert(run_.end(), entries.begin(), entries.end());
  return Status::OK();
}

Status PatternDb::write_position_run() {
  if (!run_.empty()) {
    // Sorted here, written straight into a table file and taken in whole:
    // through the memtable, RocksDB's flushes spent most of an import
    // sorting these random keys with its generic comparator, and its
    // compactions merging many small runs.  Each run overlaps the earlier
    // ones (the keys are hashes), so it gets a sequence number; kept in the
    // MANIFEST only, the file stays readable by `sgfpat repair` (RocksDB's
    // repair rejects a file whose own header was given one).  The keys are
    // never rewritten, so their order does not depend on it.
    // One file per write thread, each a range of keys: sorted and written
    // side by side (the importing thread would otherwise write alone while
    // the other cores wait for it).
    std::vector<TableFill> fills;
    for (const std::span<PositionEntry> part : split_by_key_quantiles(&run_, size_t(write_threads_))) {
      fills.push_back([part](const TablePut& put) {
        sort_by_key(part);
        for (size_t i = 0; i < part.size(); ++i) {
          const PositionEntry& e = part[i];
          if (i > 0 && e.key == part[i - 1].key) continue;  // the same entry given twice
          Status s = put(std::string_view(e.key.data(), e.key.size()), std::string_view(e.value.data(), e.value.size()));
          if (!s.ok()) return s;
        }
        return Status::OK();
      });
    }
    std::atomic<uint64_t> written{0};
    Status st = take_in_tables(cf(Family::kPositions), "sgfpat-positions", "the position index", false,
                               counted(fills, &written));
    PositionEntries().swap(run_);  // the memory back, written or not
    if (!st.ok()) {
      indexed_games_ = ~uint64_t(0);  // the run's entries are lost: incomplete
      return st;
    }
    position_entries_ += written.load();
  }
  if (indexed_games_ > game_count_) return Status::OK();  // a build: complete_position_index() records it
  rocksdb::WriteOptions wo;
  wo.sync = true;
  rocksdb::WriteBatch batch;
  batch.Put(cf(Family::kMeta), meta::kPositionIndex, u64_string(indexed_games_));
  // Known from a build or a clearing on: an index older than the record
  // keeps none (its entries are not known).
  if (position_entries_known_) batch.Put(cf(Family::kMeta), meta::kPositionEntries, u64_string(position_entries_));
  return from_rocks(db_->Write(wo, &batch), "recording the position index");
}

Status PatternDb::flush_position_index() {
  if (secondary_ || !has(Family::kPositions) || index_off_) return Status::OK();
  return write_position_run();
}

Status PatternDb::complete_position_index() {
  const uint64_t before = indexed_games_;
  indexed_games_ = game_count_;
  Status st = write_position_run();
  if (!st.ok()) {
    indexed_games_ = before;
    return st;
  }
  // One sorted run, without the reset's range deletion and the files of
  // the old index it hides.  A single file is one already (the merged
  // indexes of a sharded count, taken into an empty index).
  return compact_into_one_run(*db_, cf(Family::kPositions), "compacting the position index");
}

Status PatternDb::add_sorted_position_entries(const TableFill& fill) {
  if (secondary_) return read_only();
  if (!has(Family::kPositions)) return Status::NotSupported("database " + path_ + " has no position index family");
  if (!run_.empty()) return Status::InvalidArgument("position index entries are waiting in a run");
  if (indexed_games_ != ~uint64_t(0))
    return Status::InvalidArgument("database " + path_ + ": the position index was not reset before its build");
  // One file: into an empty index it is the whole index, which
  // complete_position_index() then keeps as it is.  (On failure the index
  // stays recorded incomplete, as the reset left it.)
  std::atomic<uint64_t> written{0};
  Status st = take_in_tables(cf(Family::kPositions), "sgfpat-positions", "the position index", false,
                             counted({fill}, &written));
  if (st.ok()) position_entries_ += written.load();
  return st;
}

PatternDb::PositionCursor::~PositionCursor() = default;
bool PatternDb::PositionCursor::valid() const { return it_->Valid(); }
std::string_view PatternDb::PositionCursor::key() const { return {it_->key().data(), it_->key().size()}; }
std::string_view PatternDb::PositionCursor::value() const { return {it_->value().data(), it_->value().size()}; }
void PatternDb::PositionCursor::next() { it_->Next(); }
Status PatternDb::PositionCursor::status() const { return from_rocks(it_->status(), "reading the position index"); }

Status PatternDb::open_position_cursor(std::unique_ptr<PositionCursor>* out) {
  if (!has(Family::kPositions)) return Status::NotFound("database " + path_ + " has no position index");
  rocksdb::ReadOptions ro;
  ro.total_order_seek = true;  // every entry, whatever the prefix
  ro.fill_cache = false;       // read once
  std::unique_ptr<PositionCursor> c(new PositionCursor());
  c->it_.reset(db_->NewIterator(ro, cf(Family::kPositions)));
  c->it_->SeekToFirst();
  *out = std::move(c);
  return Status::OK();
}

Status PatternDb::for_each_position(std::string_view prefix,
                                    const std::function<bool(std::string_view, std::string_view)>& visit) {
  if (!has(Family::kPositions)) return Status::NotFound("database " + path_ + " has no position index");
  rocksdb::ReadOptions ro;
  ro.prefix_same_as_start = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kPositions)));
  const rocksdb::Slice p(prefix.data(), prefix.size());
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next())
    if (!visit(std::string_view(it->key().data(), it->key().size()),
               std::string_view(it->value().data(), it->value().size())))
      break;
  return from_rocks(it->status(), "reading the position index");
}

uint64_t PatternDb::position_index_bytes() {
  if (!has(Family::kPositions)) return 0;
  uint64_t files = 0, memtables = 0;
  db_->GetIntProperty(cf(Family::kPositions), "rocksdb.total-sst-files-size", &files);
  db_->GetIntProperty(cf(Family::kPositions), "rocksdb.cur-size-all-mem-tables", &memtables);
  return files + memtables;
}

}  // namespace sgfpat

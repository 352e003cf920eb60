// PatternDb's counts: reads of the current generation (checked against the
// recorded summary), the writing of a new generation beside it (merged
// partial sums, sorted table files, pruning), the commit that switches to
// it in one synced write, and the reclaiming of the old one.
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <filesystem>

#include "store/count_entry.h"
#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

std::vector<uint64_t> PatternDb::reported_per_level() const { return summary_.patterns_per_level; }

Status PatternDb::get(int level, uint64_t key, PatternCounts* counts, bool* found) {
  std::string v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kCounts), counts_key(generation_, level, key), &v);
  *found = s.ok();
  if (s.ok() && !parse_counts(v, counts))
    return Status::Corruption("database " + path_ + ": corrupt counts value (" + std::to_string(v.size()) + " bytes)");
  if (s.ok() || s.IsNotFound()) return Status::OK();
  return from_rocks(s, "reading counts");
}

Status PatternDb::for_each_count(int level,
                                 const std::function<bool(int, uint64_t, const PatternCounts&)>& visit) {
  // A whole scan is checked against the recorded summary: a level whose
  // stored patterns disagree with what the count reported is damaged, and
  // is said so instead of being answered short (or empty).
  const std::vector<uint64_t> expected = reported_per_level();
  std::vector<uint64_t> seen(expected.size(), 0);
  bool stopped = false;
  Status st = scan_counts(generation_, level, [&](int lv, uint64_t key, const PatternCounts& c) {
    if (lv >= 1 && size_t(lv) <= seen.size() && c.played >= uint64_t(settings_.min_played)) ++seen[size_t(lv - 1)];
    if (!visit(lv, key, c)) return stopped = true, false;
    return true;
  });
  if (!st.ok() || stopped || generation_ == 0) return st;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (level > 0 && size_t(level) != i + 1) continue;
    if (seen[i] != expected[i])
      return Status::Corruption("database " + path_ + ": level " + std::to_string(i + 1) + " holds " +
                                std::to_string(seen[i]) + " reported patterns, the last count recorded " +
                                std::to_string(expected[i]) + " (" + repair_hint(path_) + ")");
  }
  return st;
}

Status PatternDb::scan_counts(uint32_t gen, int level,
                              const std::function<bool(int, uint64_t, const PatternCounts&)>& visit) {
  // Level 0 holds the nights' marks (commit_night()), not patterns.
  std::string lo = level > 0 ? counts_key(gen, level, 0) : counts_key(gen, 1, 0);
  std::string hi = level > 0 ? counts_key(gen, level + 1, 0) : counts_key(gen + 1, 0, 0);
  rocksdb::ReadOptions ro;
  rocksdb::Slice upper(hi);
  ro.iterate_upper_bound = &upper;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kCounts)));
  for (it->Seek(lo); it->Valid(); it->Next()) {
    int lv;
    uint64_t key;
    PatternCounts c;
    if (it->key().size() != kCountsKeyBytes || !parse_counts(it->value(), &c))
      return Status::Corruption("database " + path_ + ": corrupt counts entry (key " + std::to_string(it->key().size()) + " bytes, value " +
                           std::to_string(it->value().size()) + " bytes)");
    parse_counts_key(it->key(), &lv, &key);
    if (!visit(lv, key, c)) break;
  }
  return from_rocks(it->status(), "reading counts");
}

Status PatternDb::begin_generation(uint32_t* gen) {
  if (secondary_) return read_only();
  // Anything that is not the current generation is a leftover of an
  // interrupted count: drop it so the new generation starts from zero.
  // Only when there is one: a range deletion over the new generation's keys
  // would put the table files write_sorted_counts() takes in above it, in
  // level 0, and the compaction of commit_generation() would then rewrite
  // every count (11 s of one core at 616k games).
  // What an interrupted count in parts recorded goes first, durably: a
  // record that outlived the counts it describes would be resumed over them.
  rocksdb::WriteOptions synced;
  synced.sync = true;
  Status st = from_rocks(db_->Delete(synced, cf(Family::kMeta), meta::kCountProgress), "clearing the count progress");
  if (!st.ok()) return st;
  st = drop_counts_in(counts_key(0, 0, 0), counts_key(generation_, 0, 0));
  if (st.ok()) st = drop_counts_in(counts_key(generation_ + 1, 0, 0), std::string(kCountsKeyBytes, '\xff'));
  if (!st.ok()) return st.with_context("clearing an interrupted count");
  *gen = generation_ + 1;
  return Status::OK();
}

Status PatternDb::drop_counts_in(const std::string& begin, const std::string& end) {
  // Lost to a kill before its flush, the deletion is made again by the
  // next begin_generation().
  return delete_range_now(cf(Family::kCounts), begin, end, "deleting counts");
}

Status PatternDb::add_counts(uint32_t gen, const std::vector<std::tuple<int, uint64_t, PatternCounts>>& partial) {
  rocksdb::WriteBatch batch;
  for (const auto& [level, key, c] : partial) {
    batch.Merge(cf(Family::kCounts), counts_key(gen, level, key), CountsValue(c).slice());
  }
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // an interrupted generation is discarded anyway
  return from_rocks(db_->Write(wo, &batch), "writing counts");
}

Status PatternDb::write_sorted_counts(uint32_t gen, const std::vector<CountFill>& fills) {
  if (secondary_) return read_only();
  std::vector<TableFill> tables;
  for (const CountFill& fill : fills) {
    tables.push_back([&fill, gen](const TablePut& put) {
      return fill([&](int level, uint64_t key, const PatternCounts& c) {
        const CountsValue v(c);
        return put(counts_key(gen, level, key), std::string_view(v.bytes, kCountsValueBytes));
      });
    });
  }
  return take_in_tables(cf(Family::kCounts), "sgfpat-counts", "the counts", true, tables);
}

Status PatternDb::prune_generation(uint32_t gen, uint64_t* deleted, std::vector<uint64_t>* kept) {
  *deleted = 0;
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // like add_counts: an interrupted generation is discarded
  rocksdb::WriteBatch batch;
  Status st;
  Status scan = scan_counts(gen, 0, [&](int level, uint64_t key, const PatternCounts& c) {
    if (c.played < uint64_t(settings_.min_played)) {
      batch.Delete(cf(Family::kCounts), counts_key(gen, level, key));
      ++*deleted;
    } else {
      if (level >= 1 && size_t(level) <= kept->size()) ++(*kept)[size_t(level - 1)];
      batch.Put(cf(Family::kCounts), counts_key(gen, level, key), CountsValue(c).slice());
    }
    if (batch.Count() >= 100000) {
      st = from_rocks(db_->Write(wo, &batch), "pruning counts");
      batch.Clear();
      if (!st.ok()) return false;
    }
    return true;
  });
  if (!scan.ok()) return scan;
  if (!st.ok()) return st;
  return from_rocks(db_->Write(wo, &batch), "pruning counts");
}

Status PatternDb::commit_generation(uint32_t gen, const CountSummary& summary, const std::string& sketch_file) {
  // The unlogged count writes must be durable before the switch is.
  auto s = db_->Flush(rocksdb::FlushOptions(), cf(Family::kCounts));
  if (!s.ok()) return from_rocks(s, "flushing counts");
  rocksdb::WriteBatch batch;
  batch.Put(cf(Family::kMeta), meta::kGeneration, std::to_string(gen));
  batch.Put(cf(Family::kMeta), meta::kSummary, encode_summary(summary));
  batch.Put(cf(Family::kMeta), meta::kSketch, sketch_file);
  batch.Delete(cf(Family::kMeta), meta::kCountProgress);
  // Fingerprints are 16 bytes: this range holds them all.
  batch.DeleteRange(cf(Family::kPending), std::string(), std::string(17, '\xff'));
  // A new generation counts every stored game: no pattern waits for a
  // catch-up, and the frontier index (of the old kept set) is stale.
  batch.Delete(cf(Family::kMeta), meta::kFrontier);
  if (has(Family::kPendingPatterns))
    batch.DeleteRange(cf(Family::kPendingPatterns), std::string(), std::string(kPendingPatternKeyBytes + 1, '\xff'));
  rocksdb::WriteOptions wo;
  wo.sync = true;
  s = db_->Write(wo, &batch);
  if (!s.ok()) return from_rocks(s, "switching to the new counts");
  generation_ = gen;
  frontier_generation_ = 0;
  summary_ = summary;
  sketch_file_ = sketch_file;
  {
    // Sketches of older generations, or of counts that never committed,
    // and the kept files of counts in parts a kill left (folders).
    std::error_code ec;
    std::vector<std::filesystem::path> stale;
    for (auto& e : std::filesystem::directory_iterator(path_, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("sgfpat-played-", 0) == 0 && name != sketch_file) stale.push_back(e.path());
    }
    for (const auto& p : stale) std::filesystem::remove_all(p, ec);
  }
  // Reclaim the old generation's space: its files go whole where they can,
  // a range deletion covers what is left of it, and a compaction removes
  // that (and folds the partial sums of a generation written by
  // add_counts()).  Nothing of the old generation is read any more: what
  // is left of it after a kill is dropped by the next begin_generation().
  const std::string old_begin = counts_key(0, 0, 0), old_end = counts_key(gen, 0, 0);
  const rocksdb::Slice begin(old_begin), end(old_end);
  rocksdb::DeleteFilesInRange(db_.get(), cf(Family::kCounts), &begin, &end);
  drop_counts_in(old_begin, old_end);
  compact_counts();
  return Status::OK();
}

void PatternDb::compact_counts() {
  rocksdb::ColumnFamilyHandle* counts = cf(Family::kCounts);
  db_->Flush(rocksdb::FlushOptions(), counts);  // partial sums of add_counts() still in memory
  rocksdb::ColumnFamilyMetaData md;
  db_->GetColumnFamilyMetaData(counts, &md);
  size_t runs = 0;  // sorted runs: each file of level 0, each other level with files
  for (const auto& level : md.levels)
    runs += level.level == 0 ? level.files.size() : size_t(!level.files.empty());
  // Several runs (the parts of a count in parts, each spanning the whole
  // key space; partial sums; a range deletion) are merged in one job into
  // the last level.  CompactRange() moves them down a level at a time and
  // rewrites the later parts at each level: 740 s for the 354M counts of 11
  // parts.  (The job runs on one thread: this RocksDB formed no
  // subcompactions for it, asked or not.)  Background compactions are let
  // finish first and held meanwhile: the merge is refused if one holds any
  // of its files.
  if (runs > 1 && !md.levels.empty() && db_->PauseBackgroundWork().ok()) {
    db_->GetColumnFamilyMetaData(counts, &md);
    std::vector<std::string> files;
    for (const auto& level : md.levels)
      for (const auto& f : level.files) files.push_back(f.name);
    const rocksdb::Options o = db_->GetOptions(counts);
    rocksdb::CompactionOptions co;
    co.compression = o.compression;
    co.output_file_size_limit = o.target_file_size_base;
    const bool merged = db_->CompactFiles(co, counts, files, md.levels.back().level).ok();
    db_->ContinueBackgroundWork();
    if (merged) return;
  }
  // One run already (a resident count's tables, taken in at the last level:
  // nothing to rewrite), or the merge failed.
  db_->CompactRange(rocksdb::CompactRangeOptions(), counts, nullptr, nullptr);
}

Status PatternDb::set_summary(const CountSummary& summary) {
  auto s = db_->Put(rocksdb::WriteOptions(), cf(Family::kMeta), meta::kSummary, encode_summary(summary));
  if (s.ok()) summary_ = summary;
  return from_rocks(s, "writing the summary");
}

}  // namespace sgfpat

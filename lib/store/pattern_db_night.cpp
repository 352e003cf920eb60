// PatternDb's part of the nightly count (docs/nightly.md): the frontier
// index (its build in sorted runs, its look-ups), the pending patterns, the
// look-up of a game by the prefix the index names it by, and the one commit
// that takes in everything a night (or a catch-up) writes at once.
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>

#include "core/kway_merge.h"
#include "store/count_entry.h"
#include "store/edit_run.h"
#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

namespace {
const std::string kAllKeys(32, '\xff');  // above every key of the frontier and pending_patterns families

Status missing(const std::string& path, const char* family) {
  return Status::NotSupported("database " + path + " has no " + family + " family");
}

// Writes two sorted lists of disjoint keys into one table file in key
// order: a's elements through write_a, b's through write_b; a_first(x, y)
// says x's key comes before y's.
template <class A, class B, class Before, class WriteA, class WriteB>
Status write_in_order(const std::vector<A>& a, const std::vector<B>& b, Before a_first, WriteA write_a, WriteB write_b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a = j == b.size() || (i < a.size() && a_first(a[i], b[j]));
    Status s = take_a ? write_a(a[i++]) : write_b(b[j++]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// Writes the edits of the runs `paths` in key order (their keys disjoint:
// Internal for a key in two of them).
Status write_runs(const std::vector<std::string>& paths, const TableEdit& edit) {
  std::vector<std::unique_ptr<EditRunReader>> runs;
  std::vector<EditRunReader*> streams;
  for (const std::string& path : paths) {
    runs.push_back(std::make_unique<EditRunReader>());
    Status s = runs.back()->open(path);
    if (!s.ok()) return s;
    streams.push_back(runs.back().get());
  }
  KWayMerge<EditRunReader> merge(streams);
  std::string last;
  bool first = true;
  while (merge.valid()) {
    const EditRunReader& r = merge.top();
    if (!first && !(std::string_view(last) < r.key())) return Status::Internal("two edit runs hold the same key");
    first = false;
    last.assign(r.key());
    Status s = edit(r.op(), r.key(), r.value());
    if (!s.ok()) return s;
    s = merge.next();
    if (!s.ok()) return s;
  }
  return merge.status();
}
}  // namespace

Status PatternDb::clear_frontier() {
  if (secondary_) return read_only();
  if (!has(Family::kFrontier)) return missing(path_, "frontier");
  rocksdb::WriteOptions synced;
  synced.sync = true;
  Status st = from_rocks(db_->Delete(synced, cf(Family::kMeta), meta::kFrontier), "clearing the frontier index");
  if (!st.ok()) return st;
  frontier_generation_ = 0;
  st = delete_range_now(cf(Family::kFrontier), "", kAllKeys, "clearing the frontier index");
  if (!st.ok()) return st;
  const rocksdb::Slice end(kAllKeys);
  rocksdb::DeleteFilesInRange(db_.get(), cf(Family::kFrontier), nullptr, &end);
  return Status::OK();
}

Status PatternDb::add_frontier_run(const std::vector<FrontierEntry>& sorted) {
  if (secondary_) return read_only();
  if (!has(Family::kFrontier)) return missing(path_, "frontier");
  if (sorted.empty()) return Status::OK();
  TableFill fill = [&](const TablePut& put) {
    for (const FrontierEntry& e : sorted) {
      Status s = put(frontier_key(e), frontier_value(e));
      if (!s.ok()) return s;
    }
    return Status::OK();
  };
  // Runs overlap one another, but no key is in two of them (a move is
  // indexed once): their sequence numbers stay in the MANIFEST (RocksDB's
  // repair refuses a file that carries one in its header; a repair
  // recounts, and the next night builds the index again).
  return take_in_tables(cf(Family::kFrontier), "sgfpat-frontier", "the frontier index", false, {fill});
}

Status PatternDb::check_frontier_present(uint64_t entries) {
  if (!has(Family::kFrontier)) return missing(path_, "frontier");
  return check_entries(cf(Family::kFrontier), entries, "the frontier index's", [&](uint64_t have) {
    return "its frontier index holds " + std::to_string(have) + " entries but the last night left " +
           std::to_string(entries);
  });
}

Status PatternDb::finish_frontier(uint32_t gen) {
  if (secondary_) return read_only();
  // One sorted run: a night seeks every frontier its moves reached (1.7M
  // at 606k games), and a seek probes every run (19 at 606k: 15 s of a
  // 43-second night); and the old index the clear hid goes (4 GB at 606k).
  Status compacted = compact_into_one_run(*db_, cf(Family::kFrontier), "compacting the frontier index");
  if (!compacted.ok()) return compacted;
  rocksdb::WriteOptions synced;
  synced.sync = true;
  Status st =
      from_rocks(db_->Put(synced, cf(Family::kMeta), meta::kFrontier, u64_string(gen)), "recording the frontier index");
  if (st.ok()) frontier_generation_ = gen;
  return st;
}

Status PatternDb::frontier_moves(std::span<const std::pair<int, uint64_t>> sorted_keys,
                                 const std::function<bool(const FrontierEntry&)>& visit) {
  if (!has(Family::kFrontier)) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kFrontier)));
  for (const auto& [level, key] : sorted_keys) {
    const std::string prefix = frontier_prefix(level, key);
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      FrontierEntry e;
      if (!parse_frontier(std::string_view(it->key().data(), it->key().size()),
                          std::string_view(it->value().data(), it->value().size()), &e))
        return Status::Corruption("database " + path_ + ": damaged frontier index entry (" + repair_hint(path_) + ")");
      if (!visit(e)) return Status::OK();
    }
    if (!it->status().ok()) break;
  }
  return from_rocks(it->status(), "reading the frontier index");
}

Status PatternDb::for_each_pending_pattern(const std::function<bool(const PendingPattern&)>& visit) {
  if (!has(Family::kPendingPatterns)) return Status::OK();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Family::kPendingPatterns)));
  PendingPattern p;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!parse_pending_pattern(std::string_view(it->key().data(), it->key().size()),
                               std::string_view(it->value().data(), it->value().size()), &p))
      return Status::Corruption("database " + path_ + ": damaged pending pattern entry (" + repair_hint(path_) + ")");
    if (!visit(p)) break;
  }
  return from_rocks(it->status(), "reading the pending patterns");
}

Status PatternDb::games_with_prefix(uint64_t prefix,
                                    const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  std::string lo(8, '\0');
  encode_fixed64_be(lo.data(), prefix);
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Family::kGames)));
  for (it->Seek(lo); it->Valid() && it->key().starts_with(lo); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    if (!visit(fp, std::string_view(it->value().data(), it->value().size()))) break;
  }
  return from_rocks(it->status(), "reading games");
}

Status PatternDb::commit_night(const NightEdits& e) {
  if (secondary_) return read_only();
  if (!has(Family::kFrontier) || !has(Family::kPendingPatterns) || !has(Family::kPending))
    return missing(path_, "frontier, pending_patterns or pending");
  // Every family's memtable into table files first: taking files in
  // flushes the memtables they overlap, one family at a time, while the
  // log that holds those writes stays alive for the others; RocksDB's
  // repair then makes a second table of the same writes from that log and
  // refuses the pair (as for delete_range_now()).
  Status flushed = flush_to_tables();
  if (!flushed.ok()) return flushed;
  std::vector<FamilyEdits> edits;
  const uint32_t gen = generation_;
  // A night's counts file carries a mark of the night, a value under level
  // 0 (never a pattern), and a catch-up's a mark of the catch-up (the key's
  // top bit set): a reader whose view holds other marks than its summary
  // counts has lost a night's file (its merge operands would not be missed
  // otherwise: the counts they add to are all there) or sees the counts
  // and the summary of two commits (check_counts_present()).
  const bool night_mark = e.summary.nights > summary_.nights;
  const bool catchup_mark = e.summary.catchups > summary_.catchups;
  const bool mark = night_mark || catchup_mark;
  if ((!e.counts_runs.empty() && (!e.counts_added.empty() || !e.counts_put.empty())) ||
      (!e.pending_runs.empty() && (!e.pending_put.empty() || !e.pending_deleted.empty())) ||
      (!e.frontier_runs.empty() && (!e.frontier_put.empty() || !e.frontier_deleted.empty())))
    return Status::Internal("a night's edits both in runs and in memory");
  if (mark || !e.counts_added.empty() || !e.counts_put.empty() || !e.counts_runs.empty())
    edits.push_back({cf(Family::kCounts), [&, mark](const TableEdit& edit) {
                       if (mark) {
                         const CountsValue v(PatternCounts{e.summary.positions - summary_.positions,
                                                           e.summary.candidates - summary_.candidates,
                                                           e.summary.games - summary_.games});
                         Status s = edit(TableOp::kPut,
                                         counts_key(gen, 0,
                                                    night_mark ? e.summary.nights : kCatchupMark | e.summary.catchups),
                                         std::string_view(v.bytes, kCountsValueBytes));
                         if (!s.ok()) return s;
                       }
                       if (!e.counts_runs.empty()) return write_runs(e.counts_runs, edit);
                       // Added and put keys are disjoint (a pattern is kept or new).
                       auto write = [&](TableOp op) {
                         return [&, op](const auto& entry) {
                           const auto& [level, key, c] = entry;
                           const CountsValue v(c);
                           return edit(op, counts_key(gen, level, key), std::string_view(v.bytes, kCountsValueBytes));
                         };
                       };
                       return write_in_order(
                           e.counts_added, e.counts_put,
                           [](const auto& x, const auto& y) {
                             return std::tie(std::get<0>(x), std::get<1>(x)) < std::tie(std::get<0>(y), std::get<1>(y));
                           },
                           write(TableOp::kMerge), write(TableOp::kPut));
                     }});
  if (!e.pending_put.empty() || !e.pending_deleted.empty() || !e.pending_runs.empty())
    edits.push_back({cf(Family::kPendingPatterns), [&](const TableEdit& edit) {
                       if (!e.pending_runs.empty()) return write_runs(e.pending_runs, edit);
                       return write_in_order(
                           e.pending_put, e.pending_deleted,
                           [](const PendingPattern& p, const auto& d) { return std::make_pair(p.level, p.key) < d; },
                           [&](const PendingPattern& p) {
                             return edit(TableOp::kPut, pending_pattern_key(p.level, p.key), pending_pattern_value(p));
                           },
                           [&](const auto& d) { return edit(TableOp::kDelete, pending_pattern_key(d.first, d.second), {}); });
                     }});
  if (!e.frontier_put.empty() || !e.frontier_deleted.empty() || !e.frontier_runs.empty())
    edits.push_back({cf(Family::kFrontier), [&](const TableEdit& edit) {
                       if (!e.frontier_runs.empty()) return write_runs(e.frontier_runs, edit);
                       return write_in_order(
                           e.frontier_put, e.frontier_deleted, std::less<FrontierEntry>(),
                           [&](const FrontierEntry& f) { return edit(TableOp::kPut, frontier_key(f), frontier_value(f)); },
                           [&](const FrontierEntry& f) { return edit(TableOp::kDelete, frontier_key(f), {}); });
                     }});
  if (!e.counted_games.empty())
    edits.push_back({cf(Family::kPending), [&](const TableEdit& edit) {
                       for (const Fingerprint& fp : e.counted_games) {
                         Status s = edit(TableOp::kDelete,
                                         std::string_view(reinterpret_cast<const char*>(fp.data()), fp.size()), {});
                         if (!s.ok()) return s;
                       }
                       return Status::OK();
                     }});
  const std::string summary = encode_summary(e.summary);
  edits.push_back({cf(Family::kMeta), [&](const TableEdit& edit) {
                     // Meta keys in order: "catchup_progress" < "frontier" <
                     // "summary".  A night or a catch-up ends any catch-up's
                     // record (the pending set it was made for changes).
                     Status d = edit(TableOp::kDelete, meta::kCatchupProgress, {});
                     if (!d.ok()) return d;
                     if (e.frontier_generation != 0) {
                       Status s = edit(TableOp::kPut, meta::kFrontier, u64_string(e.frontier_generation));
                       if (!s.ok()) return s;
                     }
                     return edit(TableOp::kPut, meta::kSummary, summary);
                   }});
  Status st = take_in_together(db_.get(), path_, "sgfpat-night", "the night's counts", edits);
  if (!st.ok()) return st;
  // The summary again through the log, the same bytes: RocksDB's repair
  // reads the files taken in as older than everything logged, and takes
  // the totals of the stored games it reports lost from the newest
  // summary it finds (store/salvage.h).
  rocksdb::WriteOptions synced;
  synced.sync = true;
  st = from_rocks(db_->Put(synced, cf(Family::kMeta), meta::kSummary, summary), "writing the summary");
  if (!st.ok()) return st;
  summary_ = e.summary;
  if (e.frontier_generation != 0) frontier_generation_ = e.frontier_generation;
  return Status::OK();
}

}  // namespace sgfpat

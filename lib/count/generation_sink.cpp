#include "count/generation_sink.h"

#include <algorithm>

#include "count/parts_progress.h"

namespace sgfpat {

namespace {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

GenerationSink::GenerationSink(PatternDb& db, uint32_t gen, CountSummary* summary)
    : db_(db), gen_(gen), summary_(summary) {
  summary_->patterns_per_level.resize(size_t(db.settings().scheme.levels), 0);
}

void GenerationSink::record_parts(double pass2_before, std::chrono::steady_clock::time_point start) {
  record_ = true;
  pass2_before_ = pass2_before;
  start_ = start;
}

Status GenerationSink::take(const Part& part, ResidentTable* table, const PartCounted& counted) {
  const auto t0 = std::chrono::steady_clock::now();
  if (part.has_base()) {
    summary_->positions = counted.positions;
    summary_->candidates = counted.candidates;
  }
  // The base is in every part's table; the part that has it writes it.
  uint64_t pruned = 0;
  std::vector<uint64_t> per_level;
  Status s = write_resident_counts(db_, gen_, *table, unsigned(db_.settings().min_played), &pruned, &per_level,
                                   part.has_base() ? 1 : kSplitLevel);
  if (!s.ok()) return s;
  summary_->pruned += pruned;
  summary_->kept_keys += pruned;
  for (size_t l = 0; l < per_level.size() && l < summary_->patterns_per_level.size(); ++l) {
    summary_->patterns_per_level[l] += per_level[l];
    summary_->kept_keys += per_level[l];
  }
  write_seconds_ += since(t0);
  if (!record_) return Status::OK();
  ++summary_->parts;
  // The part is in the database (its table files are taken in synced):
  // recorded, a run after a kill starts from the next one.
  PartsProgress done;
  done.gen = gen_;
  done.games = db_.game_count();
  done.moves = db_.move_count();
  done.split_level = kSplitLevel;
  done.done = part.last == kPartBuckets - 1;
  done.next = done.done ? 0 : part.range.hi + 1;
  done.width = double(part.range.hi - part.range.lo) + 1.0;
  done.summary = *summary_;
  done.summary.seconds_pass2 = pass2_before_ + since(start_);
  return db_.save_count_progress(encode_parts_progress(done));
}

Status write_resident_counts(PatternDb& db, uint32_t gen, const ResidentTable& table, unsigned min_played,
                             uint64_t* pruned, std::vector<uint64_t>* per_level, int from_level) {
  // Only the patterns truly played min_played times are reported; the
  // others were sketch over-estimates.  One table file per level, sorted by
  // key (the database's order), the levels written side by side, the
  // largest first.
  const int levels = table.levels();
  std::vector<uint64_t> pruned_at(size_t(levels), 0);
  per_level->assign(size_t(levels), 0);
  std::vector<int> order;
  for (int level = std::max(1, from_level); level <= levels; ++level) order.push_back(level);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return table.size_at(a) > table.size_at(b); });
  std::vector<PatternDb::CountFill> fills;
  for (const int level : order) {
    fills.push_back([&, level](const PatternDb::CountSink& sink) -> Status {
      size_t reported = 0, all = 0;
      Status st = table.for_each_sorted_at(
          level, [&](const PatternCounts& c) { return c.played >= min_played; },
          [&](uint64_t key, const PatternCounts& c) { return sink(level, key, c); }, &reported, &all);
      pruned_at[size_t(level - 1)] = all - reported;
      (*per_level)[size_t(level - 1)] = reported;
      return st;
    });
  }
  Status st = db.write_sorted_counts(gen, fills);
  *pruned = 0;
  for (uint64_t n : pruned_at) *pruned += n;
  return st;
}

}  // namespace sgfpat

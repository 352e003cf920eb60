#include "shard/count_step.h"

#include <algorithm>
#include <functional>
#include <filesystem>
#include <utility>
#include <vector>

#include "core/fail_point.h"
#include "count/count_budget.h"
#include "count/count_driver.h"
#include "count/game_feed.h"
#include "count/kept_file.h"
#include "count/part_range.h"
#include "count/part_sources.h"
#include "count/record_file.h"
#include "ingest/ingest_policy.h"
#include "shard/step_support.h"

namespace sgfpat {

namespace fs = std::filesystem;
using namespace shard_internal;

namespace {
// Where the parts of a shard's count go (count/count_driver.h): a counts
// file each, every counted pattern (zeros add nothing to the sums) of the
// part's levels, the base by the part that has it.
class RecordFileSink : public PartSink {
 public:
  // Part i's file: `path_of(i)`; the files' meta says how many games the
  // count went through.
  RecordFileSink(int levels, uint64_t games, std::function<std::string(int)> path_of)
      : levels_(levels), games_(games), path_of_(std::move(path_of)) {}
  Status take(const Part& part, ResidentTable* table, const PartCounted& counted) override {
    // Crash tests: a kill with this part counted and not written (the
    // earlier parts' files written).
    fail_point("shard.count.part_counted");
    RecordWriter out;
    const std::string path = path_of_(int(files_.size()));
    Status st = out.open(path, RecordKind::kCounts, levels_);
    if (!st.ok()) return st;
    const int from_level = part.has_base() ? 1 : kSplitLevel;
    for (int level = from_level; level <= levels_; ++level) {
      st = table->for_each_sorted_at(
          level, [](const PatternCounts& c) { return c.seen || c.played; },
          [&](uint64_t key, const PatternCounts& c) {
            ShardRecord rec;
            rec.level = level;
            rec.key = key;
            rec.counts = c;
            out.add(rec);
            return Status::OK();
          });
      if (!st.ok()) return st;
    }
    RecordMeta meta;
    if (part.has_base()) {
      meta.games = games_;
      meta.positions = counted.positions;
      meta.candidates = counted.candidates;
    }
    st = out.commit(meta);
    if (!st.ok()) return st;
    written = meta;  // what the counts file holds, when this is the only part
    records = out.records();
    for (int level = from_level; level <= levels_; ++level) kept_keys += table->size_at(level);
    files_.push_back(path);
    return Status::OK();
  }
  const std::vector<std::string>& files() const { return files_; }

  RecordMeta written;
  uint64_t records = 0, kept_keys = 0;

 private:
  int levels_;
  uint64_t games_;
  std::function<std::string(int)> path_of_;
  std::vector<std::string> files_;
};
}  // namespace

Status count_shard(const ShardPaths& paths, const ShardPlan& plan, int shard, const ShardRunOptions& options,
                   ShardStepReport* report) {
  *report = ShardStepReport{};
  const auto t0 = Clock::now();
  Status st = check_shard(plan, shard);
  if (!st.ok()) return st;
  const int task_part = options.part, task_parts = options.parts;
  if (task_parts < 1 || task_parts > kPartBuckets || task_part < 1 || task_part > task_parts)
    return Status::InvalidArgument("part " + std::to_string(task_part) + " of " + std::to_string(task_parts) +
                                   ": want 1 <= part <= parts <= " + std::to_string(kPartBuckets));
  const int levels = plan.settings.scheme.levels;
  KeptFileSizes sizes;
  st = measure_kept_file(paths.kept(), levels, &sizes);
  if (!st.ok()) return st.with_context("the union of the kept lists (did merge-kept finish?)");

  std::unique_ptr<PatternDb> db;
  st = open_shard_db(paths, plan, shard, ShardDbUse::kRead, options.memory_budget, &db);
  if (!st.ok()) return st;
  // The games in opening order, as a single ingest counts them: games that
  // begin alike share their first positions (shared_positions.h).  The
  // order stays through every part: its memory is not the tables'.
  std::vector<Fingerprint> order;
  st = games_by_opening(*db, &order);
  if (!st.ok()) return st;
  CountBudget budget(split_memory(options.memory_budget).count_bytes);
  budget.hold(order.size() * sizeof(Fingerprint));

  // This task's buckets, in runs whose patterns, with the base, fit the
  // budget (the one part loop: a part counts exactly what one table
  // would).  The task of part 1 writes the base and the games' figures;
  // the others only their buckets.
  const int task_first = kPartBuckets * (task_part - 1) / task_parts;
  const int task_last = kPartBuckets * task_part / task_parts - 1;
  std::vector<Part> parts;
  st = plan_parts(sizes, levels, task_first, task_last, uint64_t(task_first) << (64 - kPartBucketBits),
                  budget.table_room(), /*writers=*/1, 1, &parts);
  if (!st.ok()) return st;
  KeptFileParts source(paths.kept(), sizes, levels, std::move(parts));

  // One part writes the counts file itself; several write a file each,
  // merged into it at the end (each part's records are in order, the
  // parts' interleave).
  const std::string counts_path =
      task_parts == 1 ? paths.shard_counts(shard) : paths.shard_counts_part(shard, task_part, task_parts);
  const size_t part_count = source.parts().size();
  RecordFileSink sink(levels, db->game_count(), [&](int p) {
    return part_count == 1 ? counts_path : counts_path + ".part-" + std::to_string(p + 1);
  });
  CountRun run;
  run.scheme = &plan.settings.scheme;
  run.games = games_in(*db, order);
  run.total = order.size();
  run.threads = std::max(1, options.threads);
  run.progress = [&](const Part&, uint64_t n) {
    if (options.progress) options.progress(n);
  };
  run.on_part = [&](size_t i, size_t n) {
    if (options.on_part) options.on_part(int(i) + 1, int(n));
  };
  st = count_parts(run, &source, &sink);
  if (!st.ok()) return st;
  RecordMeta written = sink.written;
  report->records = sink.records;
  report->kept_keys = sink.kept_keys;
  if (part_count > 1) {
    st = merge_record_files(sink.files(), RecordKind::kCounts, levels, counts_path, &written, &report->records);
    if (!st.ok()) return st;
  }
  // The parts' files, and those a killed run with another split left.
  {
    const std::string prefix = fs::path(counts_path).filename().string() + ".part-";
    std::error_code ec;
    std::vector<fs::path> leftovers;
    for (const auto& entry : fs::directory_iterator(paths.shard_dir(shard), ec))
      if (entry.path().filename().string().rfind(prefix, 0) == 0) leftovers.push_back(entry.path());
    for (const fs::path& f : leftovers) fs::remove(f, ec);  // a leftover is only disk space
  }
  // Counts of another split of this shard (an earlier run's) are stale now.
  for (const std::string& f : stale_counts_files(paths, shard, task_parts)) {
    std::error_code ec;
    fs::remove(f, ec);
  }
  report->games = db->game_count();
  report->positions = written.positions;
  report->candidates = written.candidates;
  report->parts = part_count;
  report->bytes_written = file_bytes(counts_path);
  report->seconds = since(t0);
  return Status::OK();
}

}  // namespace sgfpat

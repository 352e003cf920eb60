// The count step of a sharded count (shard_steps.h): exact counts of the
// union of the kept lists over one shard's games, whole or in parts (runs of
// the level-3 buckets the kept lists name), maybe one part of Q as a task.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <utility>
#include <vector>

#include "core/fail_point.h"
#include "count/game_feed.h"
#include "count/key_parts.h"
#include "count/part_range.h"
#include "count/kept_file.h"
#include "ingest/ingest_policy.h"
#include "shard/shard_steps.h"
#include "shard/step_support.h"

namespace sgfpat {

namespace fs = std::filesystem;
using namespace shard_internal;

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

  // This task's buckets, then runs of them whose patterns, with the base,
  // fit the budget (count/key_parts.h: a part counts exactly what one
  // table would).  The task of part 1 writes the base and the games'
  // figures; the others only their buckets.
  const int task_first = kPartBuckets * (task_part - 1) / task_parts;
  const int task_last = kPartBuckets * task_part / task_parts - 1;
  std::unique_ptr<PatternDb> db;
  st = open_shard_db(paths, plan, shard, ShardDbUse::kRead, options.memory_budget, &db);
  if (!st.ok()) return st;
  // The games in opening order, as a single ingest counts them: games that
  // begin alike share their first positions (shared_positions.h).  The
  // order stays through every part: its memory is not the tables'.
  std::vector<Fingerprint> order;
  st = games_by_opening(*db, &order);
  if (!st.ok()) return st;
  const GameSource games = games_in(*db, order);
  const size_t count_bytes = split_memory(options.memory_budget).count_bytes;
  const size_t have = count_bytes - std::min(count_bytes, order.size() * sizeof(Fingerprint));
  std::vector<std::pair<int, int>> parts;
  for (int first = task_first; first <= task_last;) {
    int last = first - 1;
    while (last + 1 <= task_last && kept_part_peak_bytes(sizes, levels, first, last + 1, 1) <= have) ++last;
    if (last < first) {
      const uint64_t need = (size_t(1) << 20) - 1 + kept_part_peak_bytes(sizes, levels, first, first, 1);
      return Status::NotSupported("the kept set (" + std::to_string(sizes.records) + " patterns) cannot be counted in " +
                                  std::to_string(have >> 20) + " MiB, the memory --memory-mb leaves for counting: " +
                                  "its smallest part (the " + std::to_string(sizes.base_keys) +
                                  " patterns below level " + std::to_string(kSplitLevel) + " and one " +
                                  std::to_string(kPartBuckets) + "th of the others) needs " +
                                  std::to_string(need >> 20) + " MiB: give the count step more memory");
    }
    parts.emplace_back(first, last);
    first = last + 1;
  }

  // One part writes the counts file itself; several write a file each,
  // merged into it at the end (each part's records are in order, the
  // parts' interleave).
  const std::string counts_path =
      task_parts == 1 ? paths.shard_counts(shard) : paths.shard_counts_part(shard, task_part, task_parts);
  const bool writes_base = task_part == 1;
  auto part_path = [&](size_t p) {
    return parts.size() == 1 ? counts_path : counts_path + ".part-" + std::to_string(p + 1);
  };
  std::atomic<uint64_t> positions{0}, candidates{0};
  std::vector<std::string> part_files;
  RecordMeta written;
  for (size_t p = 0; p < parts.size(); ++p) {
    std::unique_ptr<ResidentTable> built;
    st = load_kept_table(paths.kept(), sizes, levels, parts[p].first, parts[p].second, &built);
    if (!st.ok()) return st;
    ResidentTable& table = *built;
    const bool restricted = parts[p] != std::make_pair(0, kPartBuckets - 1);
    if (restricted) table.restrict_to(PartRange::buckets(parts[p].first, parts[p].second));
    positions = 0;
    candidates = 0;
    if (options.on_part) options.on_part(int(p) + 1, int(parts.size()));
    st = count_resident(plan.settings.scheme, games, order.size(), std::max(1, options.threads), &table,
                        options.progress, &positions, &candidates,
                        // As on one machine (key_parts.cpp): most walks stop
                        // at another part's split-level pattern.
                        restricted ? kSplitLevel + 1 : 0, /*share_openings=*/true);
    if (!st.ok()) return st;
    // Crash tests: a kill with this part counted and not written (the
    // earlier parts' files written).
    fail_point("shard.count.part_counted");

    RecordWriter out;
    st = out.open(part_path(p), RecordKind::kCounts, levels);
    if (!st.ok()) return st;
    // The base is counted whole in every part: the first part writes it.
    for (int level = p == 0 && writes_base ? 1 : kSplitLevel; level <= levels; ++level) {
      st = table.for_each_sorted_at(
          level, [](const PatternCounts& c) { return c.seen || c.played; },  // zeros add nothing to the sums
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
    if (p == 0 && writes_base) {
      meta.games = db->game_count();
      meta.positions = positions;
      meta.candidates = candidates;
    }
    st = out.commit(meta);
    if (!st.ok()) return st;
    written = meta;  // what the counts file holds, when this is the only part
    report->records = out.records();
    report->kept_keys += table.size() - (p == 0 && writes_base ? 0 : sizes.base_keys);
    part_files.push_back(part_path(p));
  }
  if (parts.size() > 1) {
    st = merge_record_files(part_files, RecordKind::kCounts, levels, counts_path, &written, &report->records);
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
  report->parts = parts.size();
  report->bytes_written = file_bytes(counts_path);
  report->seconds = since(t0);
  return Status::OK();
}

}  // namespace sgfpat

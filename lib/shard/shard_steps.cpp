#include "shard/shard_steps.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/fail_point.h"
#include "core/kway_merge.h"
#include "count/sketch_pass.h"
#include "count/game_feed.h"
#include "count/kept_file.h"
#include "count/part_range.h"
#include "count/played_sketch_file.h"
#include "ingest/ingest_policy.h"
#include "ingest/sketch_during_import.h"
#include "search/position_index.h"
#include "shard/step_support.h"
#include "store/stored_replay.h"

namespace sgfpat {

namespace fs = std::filesystem;

namespace {
using namespace shard_internal;

std::vector<std::string> shard_files(const ShardPlan& plan, std::string (ShardPaths::*file)(int) const,
                                     const ShardPaths& paths) {
  std::vector<std::string> out;
  for (int i = 0; i < plan.shards; ++i) out.push_back((paths.*file)(i));
  return out;
}
}  // namespace

Status import_shard(const ShardPaths& paths, const ShardPlan& plan, int shard, const ShardRunOptions& options,
                    const InputCallbacks& callbacks, ShardStepReport* report) {
  *report = ShardStepReport{};
  const auto t0 = Clock::now();
  Status st = check_shard(plan, shard);
  if (st.ok()) st = check_sketch_fits(plan, options.memory_budget);
  if (!st.ok()) return st;
  std::error_code ec;
  fs::create_directories(paths.shard_dir(shard), ec);
  if (ec) return Status::IOError("cannot create " + paths.shard_dir(shard) + ": " + ec.message());
  std::unique_ptr<PatternDb> db;
  st = open_shard_db(paths, plan, shard, ShardDbUse::kCreate, options.memory_budget, &db, options.threads);
  if (!st.ok()) return st;

  Importer importer(db.get(), plan.filter, plan.min_rank);
  importer.keep_only([&](const Fingerprint& fp) { return shard_of(fp, plan.shards) == shard; });
  // Into a shard without games, the sketch is made while they are stored.
  auto during_import = SketchDuringImport::start_sized(db.get(), &importer, split_memory(options.memory_budget),
                                                       options.threads, size_t(plan.sketch_bytes), false);
  st = import_inputs(plan.inputs, &importer, callbacks, &report->input_errors);
  if (!st.ok()) return st;
  report->import = importer.stats();

  // The sketch of every stored game (those of an earlier, interrupted run
  // too, when the one made during the import does not cover them).
  // A pass that failed leaves `sketched` empty: the sketch is made after.
  SketchedGames sketched(plan.settings.scheme.levels);
  if (during_import) (void)during_import->finish(&sketched);
  during_import.reset();
  PlayedSketch played;
  SketchPass pass(plan.settings.scheme.levels);
  if (sketched.covers(db->game_count())) {
    played = std::move(sketched.played);
    pass = std::move(sketched.pass);
    report->sketched_during_import = true;
  } else {
    sketched = SketchedGames(plan.settings.scheme.levels);  // its memory back first
    played = new_played_sketch(size_t(plan.sketch_bytes), plan.settings.min_played);
    st = sketch_played(plan.settings.scheme, all_games(*db), db->game_count(), options.threads, played.sketch.get(),
                       unsigned(plan.settings.min_played), 0, &pass, options.progress);
    if (!st.ok()) return st;
  }
  played.items = pass.items;
  st = save_played_sketch(played, plan.settings.min_played, paths.shard_sketch(shard));
  if (!st.ok()) return st;
  report->games = db->game_count();
  report->items = pass.items;
  report->bytes_written = db->disk_bytes() + file_bytes(paths.shard_sketch(shard));
  report->seconds = since(t0);
  return Status::OK();
}

Status sum_sketches(const ShardPaths& paths, const ShardPlan& plan, ShardStepReport* report) {
  *report = ShardStepReport{};
  const auto t0 = Clock::now();
  PlayedSketch sum;
  for (int i = 0; i < plan.shards; ++i) {
    PlayedSketch one;
    Status st = load_played_sketch(paths.shard_sketch(i), plan.settings.min_played, &one);
    if (!st.ok()) return st.with_context("shard " + std::to_string(i) + " (did its import step finish?)");
    if (one.sketch->bytes() != plan.sketch_bytes)
      return Status::Corruption(paths.shard_sketch(i) + " has another size than the plan's");
    if (i == 0) {
      sum = std::move(one);
      continue;
    }
    if (!sum.sketch->add_cells(*one.sketch))
      return Status::Corruption(paths.shard_sketch(i) + " does not fit the other shards' sketches");
    sum.items += one.items;
  }
  Status st = save_played_sketch(sum, plan.settings.min_played, paths.sketch());
  if (!st.ok()) return st;
  report->items = sum.items;
  report->bytes_written = file_bytes(paths.sketch());
  report->seconds = since(t0);
  return Status::OK();
}

Status list_kept(const ShardPaths& paths, const ShardPlan& plan, int shard, const ShardRunOptions& options,
                 ShardStepReport* report) {
  *report = ShardStepReport{};
  const auto t0 = Clock::now();
  Status st = check_shard(plan, shard);
  if (st.ok()) st = check_sketch_fits(plan, options.memory_budget);
  if (!st.ok()) return st;
  PlayedSketch summed;
  st = load_played_sketch(paths.sketch(), plan.settings.min_played, &summed);
  if (!st.ok()) return st.with_context("the summed sketch (did sum-sketches finish?)");
  const CountMinSketch& sketch = *summed.sketch;
  std::unique_ptr<PatternDb> db;
  st = open_shard_db(paths, plan, shard, ShardDbUse::kRead, options.memory_budget, &db);
  if (!st.ok()) return st;

  // As pass 1 of recount(), with the estimate over all shards' games: a
  // played pattern is listed when it and each of its smaller levels at
  // that move may reach min_played in all; its level-below part is marked
  // extended.
  const int levels = plan.settings.scheme.levels;
  const unsigned min_played = unsigned(plan.settings.min_played);
  const int threads = std::max(1, options.threads);
  // Patterns above the split level are listed by the bucket of their
  // split-level pattern, so that the count step can count in parts.
  std::vector<KeptCollector> collectors(size_t(threads), KeptCollector{levels, true});
  std::atomic<uint64_t> items{0};
  st = feed_games(
      all_games(*db), db->game_count(), threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        std::vector<uint64_t> keys;
        Status s = played_keys(plan.settings.scheme, batch, &keys);
        if (!s.ok()) return s;
        KeptCollector& c = collectors[size_t(t)];
        const size_t L = size_t(levels);
        // As pass 1 of recount(), with the estimate over all shards.
        for (size_t m = 0; m + L <= keys.size(); m += L)
          c.add_move(&keys[m], levels_reaching(sketch, &keys[m], levels, min_played));
        items += keys.size();
        return Status::OK();
      },
      options.progress);
  if (!st.ok()) return st;
  summed.sketch.reset();
  KeptCollector& index = collectors.front();  // all lists, by list_index()
  for (size_t t = 1; t < collectors.size(); ++t) {
    index.kept.merge(std::move(collectors[t].kept));
    index.extended.merge(std::move(collectors[t].extended));
  }
  RecordWriter out;
  st = out.open(paths.shard_kept(shard), RecordKind::kKept, levels);
  if (!st.ok()) return st;
  write_kept_records(&index, levels, &out);
  collectors.clear();
  RecordMeta meta;
  meta.games = db->game_count();
  meta.items = items;
  report->records = out.records();
  st = out.commit(meta);
  if (!st.ok()) return st;
  report->games = meta.games;
  report->items = meta.items;
  report->bytes_written = file_bytes(paths.shard_kept(shard));
  report->seconds = since(t0);
  return Status::OK();
}

Status merge_kept(const ShardPaths& paths, const ShardPlan& plan, ShardStepReport* report) {
  *report = ShardStepReport{};
  const auto t0 = Clock::now();
  const int levels = plan.settings.scheme.levels;
  RecordMeta meta;
  Status st = merge_record_files(shard_files(plan, &ShardPaths::shard_kept, paths), RecordKind::kKept, levels,
                                 paths.kept(), &meta, &report->records);
  if (!st.ok()) return st;
  report->games = meta.games;
  report->bytes_written = file_bytes(paths.kept());
  report->seconds = since(t0);
  return Status::OK();
}

namespace {
// Every shard's kept list and counts must come from the games its sketch
// was made of: an import run again after the sketches were summed (inputs
// that changed on disk) would break exactness, and is refused.
Status check_chain(const ShardPaths& paths, const ShardPlan& plan, uint64_t summed_items) {
  const int levels = plan.settings.scheme.levels;
  uint64_t items = 0;
  for (int i = 0; i < plan.shards; ++i) {
    RecordReader kept, counts;
    std::vector<std::string> files;
    Status st = kept.open(paths.shard_kept(i), RecordKind::kKept, levels);
    if (st.ok()) st = shard_counts_files(paths, i, &files);
    if (st.ok()) st = counts.open(files.front(), RecordKind::kCounts, levels);
    if (!st.ok()) return st;
    if (kept.meta().games != counts.meta().games)
      return Status::InvalidArgument("shard " + std::to_string(i) + " was counted over " +
                                     std::to_string(counts.meta().games) + " games but its kept list over " +
                                     std::to_string(kept.meta().games) +
                                     ": its games changed between the steps; run the steps again from import");
    items += kept.meta().items;
  }
  if (items != summed_items)
    return Status::InvalidArgument("the kept lists cover " + std::to_string(items) +
                                   " played items but the summed sketch " + std::to_string(summed_items) +
                                   ": a shard's games changed after its import; run the steps again from import");
  return Status::OK();
}

// Copies every shard's games, with their position index entries, into `db`.
Status copy_games(const ShardPaths& paths, const ShardPlan& plan, size_t memory_budget, int fan_in, PatternDb* db) {
  bool all_indexed = true;
  for (int i = 0; i < plan.shards; ++i) {
    std::unique_ptr<PatternDb> shard;
    Status st = open_shard_db(paths, plan, i, ShardDbUse::kRead, memory_budget, &shard);
    if (!st.ok()) return st;
    all_indexed &= shard->has_position_index();
    std::vector<std::pair<Fingerprint, std::string>> batch;
    uint64_t moves = shard->move_count();
    Status put;
    auto flush = [&] {
      put = db->add_games(batch, moves);
      moves = 0;
      batch.clear();
    };
    st = shard->for_each_game([&](const Fingerprint& fp, std::string_view rec) {
      batch.emplace_back(fp, std::string(rec));
      if (batch.size() == 1000) flush();
      return put.ok();
    });
    if (st.ok() && put.ok() && !batch.empty()) flush();
    if (!st.ok()) return st;
    if (!put.ok()) return put;
  }
  // The index entries of a game depend on the game alone: the union of the
  // shards' indexes is the index of all games.
  if (!all_indexed) return build_position_index(db);
  Status st = db->reset_position_index();
  if (!st.ok()) return st;
  // Each shard's index is in key order: merged, they are written as one
  // sorted table file (no sort, no run in memory).  A group of at most
  // `fan_in` shards at a time: every open shard holds its table files
  // open (a reader keeps them all), so the descriptors and the readers'
  // memory stay bounded whatever the number of shards; the groups' files
  // overlap, and RocksDB merges those few.
  fan_in = std::max(1, fan_in);
  for (int first = 0; first < plan.shards && st.ok(); first += fan_in) {
    const int n = std::min(fan_in, plan.shards - first);
    std::vector<std::unique_ptr<PatternDb>> shards(static_cast<size_t>(n));
    std::vector<std::unique_ptr<PatternDb::PositionCursor>> cursors(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      st = open_shard_db(paths, plan, first + i, ShardDbUse::kRead, memory_budget / size_t(n), &shards[size_t(i)]);
      if (!st.ok()) return st;
      st = shards[size_t(i)]->open_position_cursor(&cursors[size_t(i)]);
      if (!st.ok()) return st;
    }
    st = db->add_sorted_position_entries([&](const TablePut& put) -> Status {
      std::vector<PatternDb::PositionCursor*> streams;
      for (auto& c : cursors) streams.push_back(c.get());
      KWayMerge<PatternDb::PositionCursor> merge(std::move(streams));
      std::string last;
      while (merge.valid()) {
        PatternDb::PositionCursor& c = merge.top();
        if (c.key().size() != PositionEntry::kKeyBytes || c.value().size() != PositionEntry::kValueBytes)
          return Status::Corruption("shard " + std::to_string(first + int(merge.top_index())) +
                                    ": damaged position index entry");
        if (c.key() != last) {  // a key two shards hold is one entry
          Status s = put(c.key(), c.value());
          if (!s.ok()) return s;
          last.assign(c.key());
        }
        const size_t i = merge.top_index();
        Status s = merge.next();
        // A cursor that stopped on an error did not reach its end.
        if (!s.ok()) return s.with_context("shard " + std::to_string(first + int(i)));
      }
      // A cursor that stopped on an error before the merge began.
      for (size_t i = 0; i < cursors.size(); ++i) {
        Status s = cursors[i]->status();
        if (!s.ok()) return s.with_context("shard " + std::to_string(first + int(i)));
      }
      return Status::OK();
    });
  }
  if (!st.ok()) return st;
  return db->complete_position_index();
}
}  // namespace

namespace {
Status finish_unguarded(const ShardPaths& paths, const ShardPlan& plan, const std::string& db_path,
                        const ShardRunOptions& options, ShardStepReport* report) {
  *report = ShardStepReport{};
  const auto t0 = Clock::now();
  std::error_code ec;
  if (fs::exists(db_path, ec) && !(fs::is_directory(db_path, ec) && fs::is_empty(db_path, ec)))
    return Status::InvalidArgument(db_path + " already exists: finish makes a new database (remove it, or give "
                                   "another --db)");
  Status st = check_sketch_fits(plan, options.memory_budget);
  if (!st.ok()) return st;
  const std::string partial = db_path + ".partial";
  fs::remove_all(partial, ec);  // a killed finish's leftover
  if (ec) return Status::IOError("cannot remove " + partial + ": " + ec.message());
  PlayedSketch summed;
  st = load_played_sketch(paths.sketch(), plan.settings.min_played, &summed);
  if (!st.ok()) return st.with_context("the summed sketch (did sum-sketches finish?)");
  st = check_chain(paths, plan, summed.items);
  if (!st.ok()) return st;
  const int levels = plan.settings.scheme.levels;
  const uint64_t min_played = uint64_t(plan.settings.min_played);
  {
    std::unique_ptr<PatternDb> db;
    OpenOptions open;
    open.create_if_missing = true;
    open.settings = plan.settings;
    give_db_memory(split_memory(options.memory_budget), &open);
    // An index built from the games (a shard without one) is written in
    // runs, each sorted and written on the step's threads.
    open.write_threads = std::max(1, options.threads);
    st = PatternDb::Open(partial, open, &db);
    if (!st.ok()) return st;
    st = copy_games(paths, plan, options.memory_budget, options.merge_fan_in, db.get());
    if (!st.ok()) return st;
    // Crash tests: a kill with the games copied into the partial database.
    fail_point("shard.finish.games_copied");

    CountSummary summary;
    summary.mode = CountMode::kSharded;
    summary.patterns_per_level.assign(size_t(levels), 0);
    uint32_t gen = 0;
    st = db->begin_generation(&gen);
    if (!st.ok()) return st;
    RecordMeta meta;
    std::vector<std::string> all_counts;
    for (int i = 0; i < plan.shards; ++i) {
      std::vector<std::string> files;
      st = shard_counts_files(paths, i, &files);
      if (!st.ok()) return st;
      all_counts.insert(all_counts.end(), files.begin(), files.end());
    }
    st = db->write_sorted_counts(gen, {[&](const PatternDb::CountSink& sink) -> Status {
      return merge_records(
          all_counts, RecordKind::kCounts, levels,
          [&](const ShardRecord& r) -> Status {
            ++summary.kept_keys;
            if (r.counts.played < min_played) {
              ++summary.pruned;
              return Status::OK();
            }
            ++summary.patterns_per_level[size_t(r.level - 1)];
            return sink(r.level, r.key, r.counts);
          },
          &meta);
    }});
    if (!st.ok()) return st;
    if (meta.games != db->game_count())
      return Status::InvalidArgument("the shards' counts cover " + std::to_string(meta.games) +
                                     " games, but they store " + std::to_string(db->game_count()) +
                                     ": a shard's games changed after its count; run the steps again from import");
    // The summed sketch goes with the counts: a later `ingest` adds games
    // to this database incrementally.
    const std::string sketch_name = played_sketch_name(gen);
    st = save_played_sketch(summed, plan.settings.min_played, partial + "/" + sketch_name);
    if (!st.ok()) return st;
    summary.games = summary.new_games = db->game_count();
    summary.positions = meta.positions;
    summary.candidates = meta.candidates;
    summary.sketch_bytes = summed.sketch->bytes();
    summary.sketch_fill = summed.sketch->fill_ratio();
    summary.seconds_commit = since(t0);
    st = db->commit_generation(gen, summary, sketch_name);
    if (!st.ok()) return st;
    report->games = summary.games;
    report->positions = summary.positions;
    report->candidates = summary.candidates;
    report->kept_keys = summary.kept_keys;
    report->pruned = summary.pruned;
    report->patterns_per_level = summary.patterns_per_level;
    report->bytes_written = db->disk_bytes();
  }
  if (::rename(partial.c_str(), db_path.c_str()) != 0)
    return Status::IOError("cannot rename " + partial + " to " + db_path + ": " + std::strerror(errno));
  report->seconds = since(t0);
  return Status::OK();
}

}  // namespace

Status finish_shards(const ShardPaths& paths, const ShardPlan& plan, const std::string& db_path,
                     const ShardRunOptions& options, ShardStepReport* report) {
  Status st = finish_unguarded(paths, plan, db_path, options, report);
  if (!st.ok()) {
    // Nothing half-made stays behind (a kill leaves it; the next run removes it).
    std::error_code ec;
    fs::remove_all(db_path + ".partial", ec);
  }
  return st;
}

}  // namespace sgfpat

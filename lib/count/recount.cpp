#include "count/recount.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <algorithm>
#include <thread>

#include "board/replay.h"
#include "count/candidate_counter.h"
#include "count/count_steps.h"
#include "count/count_table.h"
#include "count/game_feed.h"
#include "count/kept_set.h"
#include "count/key_parts.h"
#include "count/parts_progress.h"
#include "count/played_sketch_file.h"
#include "count/played_sketcher.h"
#include "count/draining_counts.h"
#include "count/resident_table.h"
#include "count/kept_filter.h"
#include "count/sketch.h"
#include "pattern/tracking_observer.h"
#include "store/stored_replay.h"

namespace sgfpat {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }


// Pass 2 with per-thread tables that learn kept patterns from the sketch
// and drain into the database generation `gen` when full.
Status count_draining(PatternDb& db, int threads, uint32_t gen, const CountMinSketch& sketch, size_t table_entries,
                      const std::function<void(uint64_t)>& progress, std::atomic<uint64_t>* positions,
                      std::atomic<uint64_t>* candidates, std::atomic<uint64_t>* drains) {
  const DbSettings& settings = db.settings();
  std::vector<CountTable> tables;
  std::vector<KeptFilter> filters;
  for (int t = 0; t < threads; ++t) {
    tables.emplace_back(table_entries);
    filters.emplace_back(&sketch, settings.min_played);
  }
  // Partial sums go to the database in chunks, so a drain needs little
  // memory beyond the table itself.
  auto drain = [&](int t) -> Status {
    std::vector<std::tuple<int, uint64_t, PatternCounts>> chunk;
    chunk.reserve(size_t(1) << 16);
    Status st;
    tables[size_t(t)].drain([&](int level, uint64_t key, const PatternCounts& c) {
      if (!st.ok()) return;
      chunk.emplace_back(level, key, c);
      if (chunk.size() == chunk.capacity()) {
        st = db.add_counts(gen, chunk);
        chunk.clear();
      }
    });
    if (st.ok() && !chunk.empty()) st = db.add_counts(gen, chunk);
    ++*drains;
    return st;
  };
  Status s = for_all_games(
      db, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        StoredGame g;
        DrainingCounts counts(&tables[size_t(t)], &filters[size_t(t)], [&, t] { return drain(t); });
        CandidateCounter<DrainingCounts> counter(settings.scheme, &counts);
        for (const std::string& rec : batch) {
          Status st = replay_stored(rec, &g, &counter);
          if (!st.ok()) return st;
          counter.finish_game();
          if (!counter.status().ok()) return counter.status();
        }
        *positions += counter.positions();
        *candidates += counter.candidates();
        return Status::OK();
      },
      progress);
  if (!s.ok()) return s;
  for (int t = 0; t < threads; ++t) {
    if (tables[size_t(t)].size() == 0) continue;
    s = drain(t);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// The progress of an interrupted count in parts of exactly the stored
// games, and its sketch: *found is false when there is none, or when what
// is recorded cannot be used (made for other games or another split, or
// its record or sketch damaged: counting from scratch is exact anyway;
// begin_generation() deletes the record, the commit the sketch file).
Status interrupted_parts(PatternDb& db, PartsProgress* p, PlayedSketch* played, bool* found) {
  *found = false;
  bool usable = false;
  Status s = usable_parts_progress(db, p, &usable);
  if (!s.ok() || !usable) return s;
  const std::string path = db.path() + "/" + played_sketch_name(p->gen);
  if (!load_played_sketch(path, db.settings().min_played, played).ok()) {
    *played = PlayedSketch{};
    return Status::OK();
  }
  *found = true;
  return Status::OK();
}

}  // namespace

Status sketch_played(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                     CountMinSketch* sketch, unsigned min_played, size_t max_list_bytes, SketchPass* out,
                     const std::function<void(uint64_t)>& progress) {
  PlayedSketcher sketcher(scheme, sketch, min_played, max_list_bytes);
  Status s = feed_games(
      source, total, threads, [&](int, std::vector<std::string>& batch) { return sketcher.add(batch); }, progress);
  if (!s.ok()) return s;
  sketcher.finish(out);
  return Status::OK();
}

Status played_keys(const KeyScheme& scheme, std::span<const std::string> batch, std::vector<uint64_t>* keys) {
  StoredGame g;
  PlayedKeys obs(scheme, keys);
  for (const std::string& rec : batch) {
    Status st = replay_stored(rec, &g, &obs);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

Status count_resident(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                      ResidentTable* table, const std::function<void(uint64_t)>& progress,
                      std::atomic<uint64_t>* positions, std::atomic<uint64_t>* candidates, int incremental_rings,
                      bool share_openings) {
  return feed_games(
      source, total, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        CandidateCounter<ResidentTable> counter(scheme, table);
        if (incremental_rings > 0) counter.set_incremental_rings(incremental_rings);
        Status st = share_openings ? count_batch_shared(batch, &counter) : count_batch(batch, &counter);
        if (!st.ok()) return st;
        *positions += counter.positions();
        *candidates += counter.candidates();
        return Status::OK();
      },
      progress);
}

size_t resident_count_peak_bytes(const std::vector<std::vector<uint64_t>>& keys,
                                 const std::vector<std::vector<uint64_t>>& extended, int writers) {
  std::vector<size_t> k, e;
  for (const auto& level : keys) k.push_back(level.size());
  for (const auto& level : extended) e.push_back(level.size());
  return resident_count_peak_bytes(k, e, writers);
}

size_t resident_count_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended, int writers,
                                 bool level_by_level) {
  size_t table = 0;
  for (const size_t n : keys) table += ResidentTable::bytes_for(n);
  std::vector<size_t> sizes = keys;
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  size_t sorting = 0;
  for (size_t i = 0; i < sizes.size() && i < size_t(std::max(1, writers)); ++i) sorting += sizes[i];
  const size_t build = level_by_level ? ResidentTable::level_build_peak_bytes(keys, extended)
                                     : ResidentTable::build_peak_bytes(keys, extended);
  return std::max(build, table + ResidentTable::kSortedEntryBytes * sorting);
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

// recount() but for the exceptions its allocations may throw.
static Status recount_unguarded(PatternDb& db, const CountOptions& options, CountSummary* summary) {
  *summary = CountSummary{};
  const DbSettings& settings = db.settings();
  const int threads = std::max(1, options.threads);
  const int levels = settings.scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  if (settings.min_played < 1 || settings.min_played > 255)
    return Status::InvalidArgument("min_played must be between 1 and 255");

  // At most half the budget for the sketch; it shrinks for small databases.
  const uint64_t played_items = std::max<uint64_t>(1, db.move_count() * uint64_t(levels));
  const size_t sketch_bytes = sketch_bytes_for(played_items, settings.min_played, options.memory_budget / 2);
  std::atomic<uint64_t> positions{0}, candidates{0}, drains{0};
  auto progress = [&](CountStep step) {
    return [&, step](uint64_t done) {
      if (options.progress) options.progress({step, done, db.game_count()});
    };
  };
  // A count in parts of these games that was interrupted goes on from its
  // last part, with its pass 1 (the sketch it saved).
  PartsProgress resume;
  PlayedSketch played;
  bool resuming = false;
  if (options.parts) {
    Status st = interrupted_parts(db, &resume, &played, &resuming);
    if (!st.ok()) return st;
  }
  // Pass 1 made beside the import of every stored game is taken as it is.
  const bool sketched = !resuming && options.sketched && options.sketched->covers(db.game_count());
  if (sketched) {
    options.sketched->used = true;
    played = std::move(options.sketched->played);
  } else {
    if (options.sketched) *options.sketched = SketchedGames(levels);  // its memory back first
    if (!resuming) played = new_played_sketch(sketch_bytes, settings.min_played);
  }
  auto& sketch = played.sketch;
  summary->sketch_bytes = sketch->bytes();

  // ---- pass 1: the sketch of played patterns, and the kept set ----
  // A pattern is kept when the sketch says it was played at least
  // min_played times.  The sketch never lags a true count, so a kept
  // pattern's estimate has reached min_played at its min_played-th move at
  // the latest, and listing every pattern whose estimate has reached it
  // lists every kept pattern (and the sketch's false positives): the kept
  // set is complete at the end of the pass, without a second one.  At such
  // a move the pattern's level-below part was played at least as often, so
  // it is kept too, and is recorded as extended (the walks of pass 2 go on
  // past it).  A move lists its levels only up to the first one below
  // min_played, so false positives are listed only above listed parts.
  auto t0 = Clock::now();
  const size_t max_resident = options.memory_budget;
  // The lists of pass 1 share the budget with the sketch.
  const size_t max_list_bytes = max_list_bytes_for(options.memory_budget, sketch->bytes());
  SketchPass pass1(levels);
  Status s;
  if (resuming) {
    pass1.complete = false;  // its lists are gone: the parts list their own
    pass1.items = played.items;
  } else if (sketched) {
    pass1 = std::move(options.sketched->pass);
  } else {
    s = sketch_played(settings.scheme, [&](const GameVisitor& v) { return db.for_each_game(v); }, db.game_count(),
                      threads, sketch.get(), min_played, max_list_bytes, &pass1, progress(CountStep::kSketch));
    if (!s.ok()) return s;
  }
  const bool collect = pass1.complete;
  KeySet& kept = pass1.kept;
  KeySet& extended = pass1.extended;
  const uint64_t items = pass1.items;
  if (resuming) {
    *summary = resume.summary;  // pass 1's fields, and the parts' so far
    summary->resumed_parts = resume.summary.parts;
  } else {
    summary->seconds_pass1 = sketched ? options.sketched->seconds : since(t0);
    summary->sketch_fill = sketch->fill_ratio();
    summary->games = pass1.games;
    summary->new_games = pass1.games;
  }
  // The sketch is saved and freed before the table is built, and the key
  // sets are freed level by level as it is: the table and the sets, then
  // the table and the sorted keys of its writing, share the budget
  // (resident_count_peak_bytes()) with the order of the games (a
  // fingerprint each).
  const size_t order_bytes = size_t(db.game_count()) * sizeof(Fingerprint);
  const bool resident =
      collect && resident_count_peak_bytes(kept.by_level(), extended.by_level(), db.write_threads()) + order_bytes <=
                     max_resident;

  // ---- pass 2: exact counts ----
  uint32_t gen = resume.gen;
  if (!resuming) {
    s = db.begin_generation(&gen);
    if (!s.ok()) return s;
  }
  // The sketch goes with the new generation, for later incremental counts.
  // Saved (seconds of writing at 616k games) beside the work that still
  // fits beside it in memory: the games' order.  Counted in parts, it is
  // saved first: the parts read it back from the file.
  played.items = items;
  const std::string sketch_name = played_sketch_name(gen);
  const std::string sketch_path = db.path() + "/" + sketch_name;
  Status saved;
  std::optional<std::jthread> saver;  // joined on every way out
  auto save = [&] {
    try {  // in its own thread: nothing may leave it
      saved = save_played_sketch(played, settings.min_played, sketch_path);
    } catch (...) {
      saved = status_from_exception("saving the sketch of played patterns");
    }
  };
  if (!resuming) {  // else saved by the interrupted run
    try {
      if (resident) saver.emplace(save);
    } catch (...) {  // no thread: saved here
    }
    if (!saver) save();
  }
  t0 = Clock::now();
  uint64_t pruned = 0;
  if (!resuming) summary->patterns_per_level.assign(size_t(levels), 0);
  if (resident) {
    summary->mode = CountMode::kResident;
    // Ordered before the table takes its memory: the sort's keys are gone
    // by then.
    std::vector<Fingerprint> order;
    s = games_by_opening(db, &order);
    if (saver) saver->join();
    if (!saved.ok()) return saved;
    if (!s.ok()) return s;
    sketch.reset();
    ResidentTable table(kept.release(), extended.release());
    summary->kept_keys = table.size();
    s = count_resident(
        settings.scheme, games_in(db, order), order.size(), threads,
        &table, progress(CountStep::kExact), &positions, &candidates, 0, /*share_openings=*/true);
    if (!s.ok()) return s;
    summary->seconds_pass2 = since(t0);
    t0 = Clock::now();
    s = write_resident_counts(db, gen, table, min_played, &pruned, &summary->patterns_per_level);
    if (!s.ok()) return s;
  } else {
    if (!saved.ok()) return saved;
    // What did not fit: the lists of pass 1 (0), or this many patterns.
    if (!resuming) summary->kept_keys = collect ? kept.distinct() : 0;  // else the parts' tally so far
    // The sketch stays for the listing of the parts (freed while they are
    // counted) or for the draining tables' questions.
    kept = KeySet(levels);
    extended = KeySet(levels);
    bool fitted = false;
    if (options.parts) {
      summary->mode = CountMode::kParts;
      const uint64_t listed_keys = resuming ? 0 : summary->kept_keys;  // the parts' tallies take its place
      s = count_in_parts(db, gen, &played, sketch_path, threads, options.memory_budget,
                         resuming ? &resume : nullptr, [&](CountStep step, int part, uint64_t done) {
                           if (options.progress) options.progress({step, done, db.game_count(), part});
                         },
                         summary, &fitted);
      if (!s.ok()) return s;
      if (fitted) {  // the summary has the parts' tallies
        pruned = summary->pruned;
        positions = summary->positions;
        candidates = summary->candidates;
      } else {
        // Not even one part fits, or they would be too many: draining
        // tables, in the generation cleared of what the parts wrote.
        s = db.begin_generation(&gen);
        if (!s.ok()) return s;
        // Pass 1's summary stays; nothing of the parts does.
        summary->patterns_per_level.assign(size_t(levels), 0);
        summary->parts = summary->part_relists = summary->resumed_parts = 0;
        summary->seconds_listing = summary->seconds_pass2 = 0;
        summary->kept_keys = listed_keys;
      }
    }
    if (!fitted) {
      summary->mode = CountMode::kDraining;
      const size_t table_entries = size_t(std::min<uint64_t>(
          options.memory_budget / 4 / size_t(threads) / (2 * sizeof(CountTable::Entry)), played_items));
      s = count_draining(db, threads, gen, *sketch, table_entries, progress(CountStep::kExact), &positions,
                         &candidates, &drains);
      if (!s.ok()) return s;
    }
    sketch.reset();
    // With the parts of an interrupted run, their time too.
    summary->seconds_pass2 = (resuming && fitted ? resume.summary.seconds_pass2 : 0.0) + since(t0);
    t0 = Clock::now();
    if (!fitted) {
      s = db.prune_generation(gen, &pruned, &summary->patterns_per_level);
      if (!s.ok()) return s;
    }
  }
  summary->positions = positions;
  summary->candidates = candidates;
  summary->drains = drains;
  summary->pruned = pruned;

  // ---- commit ----
  if (options.progress) options.progress({CountStep::kCommit, 0, 0});
  s = db.commit_generation(gen, *summary, sketch_name);
  if (!s.ok()) return s;
  summary->seconds_commit = since(t0);
  return db.set_summary(*summary);  // with the commit time
}

Status recount(PatternDb& db, const CountOptions& options, CountSummary* summary) {
  try {
    return recount_unguarded(db, options, summary);
  } catch (...) {  // the tables' allocations (bad_alloc, length_error)
    return status_from_exception("counting");
  }
}

}  // namespace sgfpat

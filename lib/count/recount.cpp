#include "count/recount.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "count/count_budget.h"
#include "count/count_driver.h"
#include "count/game_feed.h"
#include "count/generation_sink.h"
#include "count/kept_set.h"
#include "count/key_parts.h"
#include "count/part_sources.h"
#include "count/parts_progress.h"
#include "count/played_sketch_file.h"

namespace sgfpat {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }


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

// recount() but for the exceptions its allocations may throw.
static Status recount_unguarded(PatternDb& db, const CountOptions& options, CountSummary* summary) {
  *summary = CountSummary{};
  const DbSettings& settings = db.settings();
  const int threads = std::max(1, options.threads);
  const int levels = settings.scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  if (settings.min_played < 1 || settings.min_played > 255)
    return Status::InvalidArgument("min_played must be between 1 and 255");

  CountBudget budget(options.memory_budget);
  // The sketch shrinks for small databases.
  const uint64_t played_items = std::max<uint64_t>(1, db.move_count() * uint64_t(levels));
  const size_t sketch_bytes = sketch_bytes_for(played_items, settings.min_played, budget.sketch_max());
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
  Status st = interrupted_parts(db, &resume, &played, &resuming);
  if (!st.ok()) return st;
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
  SketchPass pass1(levels);
  Status s;
  if (resuming) {
    pass1.complete = false;  // its lists are gone: the parts list their own
    pass1.items = played.items;
  } else if (sketched) {
    pass1 = std::move(options.sketched->pass);
  } else {
    s = sketch_played(settings.scheme, [&](const GameVisitor& v) { return db.for_each_game(v); }, db.game_count(),
                      threads, sketch.get(), min_played, budget.pass1_list_bytes(sketch->bytes()), &pass1,
                      progress(CountStep::kSketch));
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
  // The kept set is one part (resident) when its table fits the budget
  // beside the order of the games (a fingerprint each), which every part
  // holds: the sketch is saved and freed before the table is built, and
  // the key sets are freed level by level as it is; else it is counted in
  // parts (count/key_parts.h).
  budget.hold(size_t(db.game_count()) * sizeof(Fingerprint));
  const bool resident =
      collect && budget.table_fits(resident_count_peak_bytes(kept.by_level(), extended.by_level(), db.write_threads()));

  // ---- pass 2: exact counts ----
  uint32_t gen = resume.gen;
  if (!resuming) {
    s = db.begin_generation(&gen);
    if (!s.ok()) return s;
  }
  // The sketch goes with the new generation, for a count in parts killed
  // after some parts to go on with the same kept set.
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
  double written = 0;  // resident: writing the counts
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
    ListedKeys source(kept.release(), extended.release());
    GenerationSink sink(db, gen, summary);
    CountRun run;
    run.scheme = &settings.scheme;
    run.games = games_in(db, order);
    run.total = order.size();
    run.threads = threads;
    run.progress = [&](const Part&, uint64_t n) { progress(CountStep::kExact)(n); };
    s = count_parts(run, &source, &sink);
    if (!s.ok()) return s;
    // The writing of its sorted table files is the commit's time.
    written = sink.write_seconds();
    summary->seconds_pass2 = since(t0) - written;
  } else {
    if (!saved.ok()) return saved;
    summary->mode = CountMode::kParts;
    // The lists of pass 1 (what did not fit) go; the sketch stays for the
    // listing of the parts (freed while they are counted).
    kept = KeySet(levels);
    extended = KeySet(levels);
    s = count_in_parts(db, gen, &played, sketch_path, threads, options.memory_budget, resuming ? &resume : nullptr,
                       [&](CountStep step, int part, uint64_t done) {
                         if (options.progress) options.progress({step, done, db.game_count(), part});
                       },
                       summary);
    if (!s.ok()) return s;
    sketch.reset();
    // With the parts of an interrupted run, their time too.
    summary->seconds_pass2 = (resuming ? resume.summary.seconds_pass2 : 0.0) + since(t0);
  }

  // ---- commit ----
  t0 = Clock::now();
  if (options.progress) options.progress({CountStep::kCommit, 0, 0});
  s = db.commit_generation(gen, *summary, sketch_name);
  if (!s.ok()) return s;
  summary->seconds_commit = written + since(t0);
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

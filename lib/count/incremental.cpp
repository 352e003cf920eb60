#include "count/incremental.h"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "core/tasks.h"
#include "count/candidate_counter.h"
#include "count/catchup_table.h"
#include "count/count_budget.h"
#include "count/count_driver.h"
#include "count/count_games.h"
#include "count/generation_sink.h"
#include "count/kept_set.h"
#include "count/part_sources.h"
#include "count/played_sketch_file.h"
#include "count/resident_table.h"
#include "count/sketch_pass.h"

namespace sgfpat {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

using Levels = std::vector<std::vector<uint64_t>>;  // sorted distinct keys per level (index level-1)

Status full_instead(PatternDb& db, const CountOptions& options, CountSummary* summary, std::string* reason,
                    const std::string& why) {
  *reason = why;
  return recount(db, options, summary);
}

using CountVisitor = std::function<bool(int, uint64_t, const PatternCounts&)>;

// The current generation's counts of levels 1..levels, read a level at a
// time by up to `threads` threads, the biggest levels (by `sizes`, the
// last count's figures) first: a night reads every stored count twice,
// and one thread read 25M of them in ~20 s.  `visit` runs on several
// threads at once, but never on two of one level.
Status scan_levels(PatternDb& db, int levels, int threads, const std::vector<uint64_t>& sizes,
                   const CountVisitor& visit) {
  std::vector<int> order(static_cast<size_t>(levels));
  for (int l = 1; l <= levels; ++l) order[size_t(l - 1)] = l;
  auto size_of = [&](int l) { return size_t(l - 1) < sizes.size() ? sizes[size_t(l - 1)] : 0; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return size_of(a) > size_of(b); });
  // (Every level is read even after one fails: a failure is the rare case.)
  for (const Status& s : run_tasks(
           order.size(), std::min(threads, levels), [&](size_t i) { return db.for_each_count(order[i], visit); },
           "reading the stored counts"))
    if (!s.ok()) return s;
  return Status::OK();
}

// The keys of the current generation, per level; `sizes`: how many the
// last count reported a level (reserved, so that the lists take their
// size in memory).
Status load_kept_keys(PatternDb& db, int levels, int threads, const std::vector<uint64_t>& sizes, Levels* out) {
  out->assign(size_t(levels), {});
  for (size_t l = 0; l < out->size() && l < sizes.size(); ++l) (*out)[l].reserve(size_t(sizes[l]));
  return scan_levels(db, levels, threads, sizes, [&](int level, uint64_t key, const PatternCounts&) {
    (*out)[size_t(level - 1)].push_back(key);
    return true;
  });
}

// The lists are sized exactly (the budget counts their sizes): each is
// counted first.
struct Counter {
  size_t n = 0;
  Counter& operator*() { return *this; }
  Counter& operator++() { return *this; }
  Counter& operator++(int) { return *this; }
  Counter& operator=(uint64_t) {
    ++n;
    return *this;
  }
};

Levels union_of(const Levels& a, const std::vector<std::vector<uint64_t>>& b) {
  Levels u(a.size());
  for (size_t l = 0; l < a.size(); ++l) {
    u[l].reserve(std::set_union(a[l].begin(), a[l].end(), b[l].begin(), b[l].end(), Counter{}).n);
    std::set_union(a[l].begin(), a[l].end(), b[l].begin(), b[l].end(), std::back_inserter(u[l]));
  }
  return u;
}

Levels difference_of(const std::vector<std::vector<uint64_t>>& a, const Levels& b) {
  Levels d(a.size());
  for (size_t l = 0; l < a.size(); ++l) {
    d[l].reserve(std::set_difference(a[l].begin(), a[l].end(), b[l].begin(), b[l].end(), Counter{}).n);
    std::set_difference(a[l].begin(), a[l].end(), b[l].begin(), b[l].end(), std::back_inserter(d[l]));
  }
  return d;
}

size_t keys_in(const Levels& v) {
  size_t n = 0;
  for (const auto& l : v) n += l.size();
  return n;
}

// The kept patterns of the pending games whose smaller levels lead to a
// pattern of `fresh` (a move played one): those, and the levels below
// them as extended, are what the catch-up table needs.
Status catchup_keys(const KeyScheme& scheme, const GameSource& pending, uint64_t total, int threads,
                    const Levels& fresh, KeySet* keys, KeySet* extended) {
  const int levels = scheme.levels;
  std::vector<KeptCollector> collectors(size_t(threads), KeptCollector{levels});
  Status s = feed_games(
      pending, total, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        std::vector<uint64_t> moves;
        Status st = played_keys(scheme, batch, &moves);
        if (!st.ok()) return st;
        KeptCollector& c = collectors[size_t(t)];
        const size_t L = size_t(levels);
        for (size_t m = 0; m + L <= moves.size(); m += L) {
          int top = 0;
          for (int l = levels; l >= 1 && top == 0; --l) {
            const auto& f = fresh[size_t(l - 1)];
            if (std::binary_search(f.begin(), f.end(), moves[m + size_t(l - 1)])) top = l;
          }
          c.add_move(&moves[m], top);
        }
        return Status::OK();
      },
      nullptr);
  if (!s.ok()) return s;
  for (KeptCollector& c : collectors) {
    keys->merge(std::move(c.kept));
    extended->merge(std::move(c.extended));
  }
  return Status::OK();
}

// Step 3: counts the newly kept patterns `fresh` over the games of
// `source` and adds their counts to `table`; `keys` are those and the
// chains of smaller levels leading to them (looked up, not counted),
// `extended` marking the chains.
// Nothing above the largest level of `fresh` is hashed or looked up: a
// tracker of fewer levels gives the same keys for its levels (the Zobrist
// words do not depend on L).  Each thread counts into its own small table,
// summed at the end; one thread when the copies would not fit `budget`
// beside the first (the lists are freed once it is built: the most this
// holds is that table and its lists, or the tables).
// `source` gives the games by opening (games_by_opening()): consecutive
// games of a batch share their first positions (count_batch_shared()).
Status count_catchup(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads, size_t budget,
                     Levels keys, Levels extended, const Levels& fresh, ResidentTable* table,
                     const std::function<void(uint64_t)>& progress) {
  int top = 0;
  for (int l = 1; l <= int(fresh.size()); ++l)
    if (!fresh[size_t(l - 1)].empty()) top = l;
  if (top == 0) return Status::OK();
  KeyScheme upto = scheme;
  upto.levels = top;
  keys.resize(size_t(top));
  extended.resize(size_t(top));
  const size_t c = keys_in(fresh);
  // Only the patterns of `fresh` are counted: the chains' counts would be
  // thrown away.  One table is made and copied threads - 1 times (the
  // copies share its keys).
  std::vector<CatchupTable> tables;
  tables.reserve(size_t(threads));
  tables.emplace_back(keys, extended, &fresh);
  keys = Levels();
  extended = Levels();
  if (tables.front().bytes() + CatchupTable::copy_bytes_for(c) * size_t(threads - 1) > budget) threads = 1;
  for (int t = 1; t < threads; ++t) tables.push_back(tables.front());
  Status s = feed_games(
      source, total, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        // The games come by opening: consecutive ones share positions.
        CandidateCounter<CatchupTable> counter(upto, &tables[size_t(t)]);
        return count_batch_shared(batch, &counter);
      },
      progress);
  if (!s.ok()) return s;
  for (int l = 1; l <= top; ++l)
    for (uint64_t key : fresh[size_t(l - 1)]) {
      const int32_t to = table->find(l, key);
      if (to < 0) return Status::Internal("a newly kept pattern is missing from the table");
      for (const CatchupTable& t : tables) {
        const int32_t from = t.find(l, key);
        if (from < 0 || !CatchupTable::counted(l, from))
          return Status::Internal("a newly kept pattern is missing from the catch-up table");
        table->add_counts(l, to, t.counts_at(l, from));
      }
    }
  return Status::OK();
}


// Steps 2 to 4 as the one driver's sink (count/count_driver.h): the table
// of the old kept patterns and N, one part, gets the stored counts before
// the new games are counted into it, then the catch-up's counts of C over
// the counted games, and is written as the new generation.
class IncrementalSink : public GenerationSink {
 public:
  struct Catchup {
    const KeyScheme* scheme = nullptr;
    GameSource games;  // the counted games, by opening
    uint64_t total = 0;
    int threads = 1;
    size_t budget = 0;       // what the table and the rest leave it
    Levels keys, extended;   // C and the chains leading to it
    const Levels* fresh = nullptr;  // C
    std::function<void(uint64_t)> progress;
  };
  IncrementalSink(PatternDb& db, uint32_t gen, CountSummary* summary, int threads,
                  const std::vector<uint64_t>& stored_sizes, Catchup catchup)
      : GenerationSink(db, gen, summary),
        db_(db),
        threads_(threads),
        stored_sizes_(stored_sizes),
        catchup_(std::move(catchup)) {}

  Status begin(const Part&, ResidentTable* table) override {
    // A level's counts go to that level's array only: the threads of
    // scan_levels() never write the same memory.
    return scan_levels(db_, table->levels(), threads_, stored_sizes_,
                       [&](int level, uint64_t key, const PatternCounts& c) {
                         const int32_t slot = table->find(level, key);
                         if (slot >= 0) table->add_counts(level, slot, c);
                         return true;
                       });
  }
  Status take(const Part& part, ResidentTable* table, const PartCounted& counted) override {
    const auto t0 = Clock::now();
    if (catchup_.fresh && keys_in(*catchup_.fresh) > 0) {
      Status s = count_catchup(*catchup_.scheme, catchup_.games, catchup_.total, catchup_.threads,
                               catchup_.budget > table->bytes() ? catchup_.budget - table->bytes() : 0,
                               std::move(catchup_.keys), std::move(catchup_.extended), *catchup_.fresh, table,
                               catchup_.progress);
      if (!s.ok()) return s;
    }
    catchup_seconds_ = since(t0);
    return GenerationSink::take(part, table, counted);
  }
  double catchup_seconds() const { return catchup_seconds_; }

 private:
  PatternDb& db_;
  int threads_;
  std::vector<uint64_t> stored_sizes_;
  Catchup catchup_;
  double catchup_seconds_ = 0;
};

}  // namespace

// count_pending() but for the exceptions its allocations may throw.
static Status count_pending_unguarded(PatternDb& db, const CountOptions& options, CountSummary* summary,
                                      std::string* full_reason) {
  const CountSummary previous = db.summary();
  *summary = CountSummary{};
  full_reason->clear();
  summary->mode = CountMode::kIncremental;
  const DbSettings& settings = db.settings();
  const KeyScheme& scheme = settings.scheme;
  const int threads = std::max(1, options.threads);
  const int levels = scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  if (db.move_count() >= (uint64_t(1) << 32))
    return full_instead(db, options, summary, full_reason, "played counts too large for the resident table");
  CountBudget budget(options.memory_budget);

  // ---- the pending games and the loaded sketch ----
  auto t0 = Clock::now();
  PlayedSketch played;
  Status s = load_played_sketch(db.path() + "/" + db.sketch_file(), settings.min_played, &played);
  if (!s.ok()) return full_instead(db, options, summary, full_reason, s.message());
  std::vector<Fingerprint> pending_fps;
  s = db.for_each_pending_game([&](const Fingerprint& fp, std::string_view) {
    pending_fps.push_back(fp);
    return true;
  });
  if (!s.ok()) return s;
  const uint64_t pending = pending_fps.size();
  const uint64_t counted = db.game_count() - pending;
  auto fallback = [&](const std::string& why) {
    played.sketch.reset();
    return full_instead(db, options, summary, full_reason, why);
  };
  const GameSource pending_games = [&](const GameVisitor& v) { return db.for_each_pending_game(v); };
  const GameSource counted_games = [&](const GameVisitor& v) {
    return db.for_each_game([&](const Fingerprint& fp, std::string_view rec) {
      return std::binary_search(pending_fps.begin(), pending_fps.end(), fp) ? true : v(fp, rec);
    });
  };
  auto progress = [&](CountStep step, uint64_t total) {
    return [&, step, total](uint64_t done) {
      if (options.progress) options.progress({step, done, total});
    };
  };

  // ---- 1: the new games' played patterns into the sketch; N ----
  SketchPass fresh(levels);
  s = sketch_played(scheme, pending_games, pending, threads, played.sketch.get(), min_played,
                    budget.pass1_list_bytes(played.sketch->bytes()), &fresh, progress(CountStep::kSketch, pending));
  if (!s.ok()) return s;
  if (!fresh.complete) return fallback("too many new patterns to list");
  played.items += fresh.items;
  if (played.too_full(budget.sketch_max())) return fallback("the sketch of played patterns is full");
  summary->sketch_bytes = played.sketch->bytes();
  summary->sketch_fill = played.sketch->fill_ratio();
  uint32_t gen = 0;
  s = db.begin_generation(&gen);
  if (!s.ok()) return s;
  const std::string sketch_name = played_sketch_name(gen);
  s = save_played_sketch(played, settings.min_played, db.path() + "/" + sketch_name);
  if (!s.ok()) return s;
  played.sketch.reset();
  summary->seconds_pass1 = since(t0);

  // ---- 2: old kept + N, counted over the new games ----
  t0 = Clock::now();
  Levels old_kept;
  s = load_kept_keys(db, levels, threads, previous.patterns_per_level, &old_kept);
  if (!s.ok()) return s;
  Levels all = union_of(old_kept, fresh.kept.by_level());
  Levels fresh_only = difference_of(fresh.kept.by_level(), old_kept);  // C: in N, not old kept
  // Every old kept pattern counts as extended: which of them a kept pattern
  // one level up contains is not stored, and a look-up that misses is
  // only slower.
  Levels ext = union_of(old_kept, fresh.extended.by_level());
  old_kept = Levels();
  fresh = SketchPass(levels);
  const size_t fresh_keys = keys_in(fresh_only);
  summary->catchup_keys = fresh_keys;

  // Before the table takes its memory: the catch-up's keys (C and the
  // chains of smaller levels leading to it, from the new games' moves)
  // and the order of the games of both counts.
  double catchup_prep = 0;
  KeySet ck(levels), ce(levels);
  std::vector<Fingerprint> counted_order, pending_order;
  if (fresh_keys > 0) {
    const auto t = Clock::now();
    s = catchup_keys(scheme, pending_games, pending, threads, fresh_only, &ck, &ce);
    if (!s.ok()) return s;
    // The counted games by opening, as in a full count (their first
    // positions shared).
    s = games_by_opening(counted_games, counted, &counted_order);
    if (!s.ok()) return s;
    catchup_prep = since(t);
  }
  // The new games by opening: they share their first positions.
  s = games_by_opening(pending_games, pending, &pending_order);
  if (!s.ok()) return s;

  // The table has the room a full count's table has (recount()): its build
  // and writing, beside what this count holds all along (the games'
  // fingerprints and orders, C), the sorts that made the orders (before
  // the table) and, while the table counts the catch-up, one catch-up
  // table with its lists.  Not half of it: a night must not be counted in
  // full where a full count fits resident (with half, every night of a
  // ~700k-game corpus was, at the default budget), and the catch-up takes
  // what the table leaves (with half, that of a 600k-game archive ran on
  // one thread).
  const size_t catchup_keys_n = ck.distinct();
  const size_t catchup_list_keys = catchup_keys_n + ce.distinct();
  const size_t held = (pending_fps.size() + counted_order.size() + pending_order.size()) * sizeof(Fingerprint) +
                      fresh_keys * sizeof(uint64_t);
  budget.hold(held);
  CountBudget catchup_budget = budget;  // the catch-up's: what the table leaves of it
  budget.hold(games_by_opening_bytes(std::max(counted, pending)));
  if (fresh_keys > 0) budget.hold(CatchupTable::bytes_for(catchup_keys_n) + catchup_list_keys * sizeof(uint64_t));
  if (!budget.table_fits(resident_count_peak_bytes(all, ext, db.write_threads()))) {
    // The full count gets the memory back.
    all = ext = fresh_only = Levels();
    ck = KeySet(levels);
    ce = KeySet(levels);
    std::vector<Fingerprint>().swap(counted_order);
    std::vector<Fingerprint>().swap(pending_order);
    return fallback("the kept patterns do not fit the memory budget");
  }
  IncrementalSink::Catchup catchup;
  if (fresh_keys > 0) {
    catchup.scheme = &scheme;
    catchup.games = games_in(db, counted_order);
    catchup.total = counted_order.size();
    catchup.threads = threads;
    catchup.budget = catchup_budget.left();
    catchup.keys = ck.release();
    catchup.extended = ce.release();
    catchup.fresh = &fresh_only;
    catchup.progress = progress(CountStep::kCatchup, counted);
  }
  IncrementalSink sink(db, gen, summary, threads, previous.patterns_per_level, std::move(catchup));
  // The lists are freed level by level as the table is built.
  ListedKeys source(std::move(all), std::move(ext));
  CountRun run;
  run.scheme = &scheme;
  run.games = games_in(db, pending_order);
  run.total = pending_order.size();
  run.threads = threads;
  run.progress = [&](const Part&, uint64_t n) { progress(CountStep::kExact, pending)(n); };
  s = count_parts(run, &source, &sink);
  if (!s.ok()) return s;
  const double steps = since(t0);
  summary->seconds_catchup = sink.catchup_seconds() + catchup_prep;
  summary->seconds_pass2 = steps - sink.catchup_seconds() - catchup_prep - sink.write_seconds();
  if (fresh_keys > 0) summary->catchup_games = counted;

  // ---- 4: the new generation (written by the sink) ----
  t0 = Clock::now();
  summary->games = counted + pending;
  summary->new_games = pending;
  // Like a full count's, the summary's numbers are over all counted games.
  summary->positions += previous.positions;
  summary->candidates += previous.candidates;
  if (options.progress) options.progress({CountStep::kCommit, 0, 0});
  s = db.commit_generation(gen, *summary, sketch_name);
  if (!s.ok()) return s;
  summary->seconds_commit = sink.write_seconds() + since(t0);
  return db.set_summary(*summary);
}

Status count_pending(PatternDb& db, const CountOptions& options, CountSummary* summary, std::string* full_reason) {
  try {
    return count_pending_unguarded(db, options, summary, full_reason);
  } catch (...) {  // the tables' allocations (bad_alloc, length_error)
    return status_from_exception("counting");
  }
}

}  // namespace sgfpat

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
#include "count/count_table.h"
#include "count/draining_counts.h"
#include "count/resident_table.h"
#include "count/kept_filter.h"
#include "count/sketch.h"
#include "core/hash.h"
#include "pattern/tracking_observer.h"
#include "store/stored_replay.h"

namespace sgfpat {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A bounded queue of game-record batches from the reading thread to workers.
class BatchQueue {
 public:
  explicit BatchQueue(size_t capacity) : capacity_(capacity) {}
  void push(std::vector<std::string> batch) {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [&] { return q_.size() < capacity_; });
    q_.push_back(std::move(batch));
    not_empty_.notify_one();
  }
  bool pop(std::vector<std::string>* batch) {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return false;
    *batch = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  size_t capacity_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<std::vector<std::string>> q_;
  bool closed_ = false;
};

// Feeds every stored game to `threads` workers running `work(batch)`.
Status for_all_games(PatternDb& db, int threads, const std::function<Status(int, std::vector<std::string>&)>& work,
                     const std::function<void(uint64_t)>& progress) {
  BatchQueue queue(size_t(threads) * 2);
  std::mutex err_mu;
  Status first_error;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<std::string> batch;
      while (queue.pop(&batch)) {
        Status s;
        try {
          s = work(t, batch);
        } catch (...) {
          s = status_from_exception("counting");
        }
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(err_mu);
          if (first_error.ok()) first_error = s;
        }
      }
    });
  // Batches of 256 games keep the hand-over cheap; a small database gets
  // smaller ones, so that every thread has work.
  const size_t batch_games =
      size_t(std::clamp<uint64_t>(db.game_count() / (uint64_t(threads) * 8), 1, 256));
  std::vector<std::string> batch;
  uint64_t done = 0;
  Status s = db.for_each_game([&](const Fingerprint&, std::string_view rec) {
    batch.emplace_back(rec);
    if (batch.size() == batch_games) {
      done += batch.size();
      queue.push(std::move(batch));
      batch.clear();
      if (progress) progress(done);
    }
    return true;
  });
  if (!batch.empty()) {
    done += batch.size();
    queue.push(std::move(batch));
  }
  queue.close();
  for (auto& th : pool) th.join();
  if (progress) progress(done);
  if (!s.ok()) return s;
  return first_error;
}

// Pass 1: the keys of every level of every played pattern, L per move.
struct PlayedKeys : TrackingObserver {
  std::vector<uint64_t>* keys;
  PlayedKeys(const KeyScheme& s, std::vector<uint64_t>* out) : TrackingObserver(s), keys(out) {}
  void before_move(const Board& board, Color mover, Point move, int) override {
    if (move.is_pass()) return;
    tracker.walk(board.index(move), mover, [&](int, uint64_t key) {
      keys->push_back(key);
      return true;
    });
  }
};

// Distinct keys per level, kept compact by sorting and deduplicating
// whenever the raw list has doubled.
class KeySet {
 public:
  explicit KeySet(int levels) : keys_(size_t(levels)), unique_(size_t(levels), 0) {}
  void add(int level, uint64_t key) {
    auto& v = keys_[size_t(level - 1)];
    v.push_back(key);
    if (v.size() >= std::max<size_t>(size_t(1) << 16, 2 * unique_[size_t(level - 1)])) compact(level - 1);
  }
  void merge(KeySet&& other) {
    for (size_t l = 0; l < keys_.size(); ++l) {
      keys_[l].insert(keys_[l].end(), other.keys_[l].begin(), other.keys_[l].end());
      std::vector<uint64_t>().swap(other.keys_[l]);
      compact(int(l));
    }
  }
  size_t distinct() {
    size_t n = 0;
    for (const auto& v : by_level()) n += v.size();
    return n;
  }
  size_t entries() const {
    size_t n = 0;
    for (const auto& v : keys_) n += v.size();
    return n;
  }
  // The distinct keys of every level.
  const std::vector<std::vector<uint64_t>>& by_level() {
    for (size_t l = 0; l < keys_.size(); ++l)
      if (keys_[l].size() != unique_[l]) compact(int(l));
    return keys_;
  }

 private:
  void compact(int l) {
    auto& v = keys_[size_t(l)];
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    unique_[size_t(l)] = v.size();
  }
  std::vector<std::vector<uint64_t>> keys_;
  std::vector<size_t> unique_;
};

// The kept set as pass 1 finds it, for one thread.  A pattern is listed at
// each of its moves whose estimate has reached min_played (its first such
// move cannot be told from the others: other patterns' counts can lift the
// estimate past min_played before it is played again), so a small cache
// of recent listings drops the repeats of frequent patterns before they
// reach the key sets.
class KeptCollector {
 public:
  explicit KeptCollector(int levels)
      : kept(levels), extended(levels), recent_(kRecent, 0), valid_(kRecent, 0) {}
  void add(int level, uint64_t key, bool is_extended) {
    const uint64_t tag = level_item(level, key) ^ (is_extended ? kExtendedTag : 0);
    const size_t i = fibonacci_slot(tag, kRecentBits);
    if (valid_[i] && recent_[i] == tag) return;
    recent_[i] = tag;
    valid_[i] = 1;
    (is_extended ? extended : kept).add(level, key);
  }
  size_t entries() const { return kept.entries() + extended.entries(); }

  KeySet kept, extended;

 private:
  static constexpr int kRecentBits = 16;
  static constexpr uint64_t kExtendedTag = 0x5bd1e9955bd1e995ULL;  // any odd salt: extended listings apart
  static constexpr size_t kRecent = size_t(1) << kRecentBits;
  std::vector<uint64_t> recent_;
  std::vector<uint8_t> valid_;
};

// Pass 2 with every kept pattern in one shared ResidentTable.
Status count_resident(PatternDb& db, int threads, ResidentTable* table, const std::function<void(uint64_t)>& progress,
                      std::atomic<uint64_t>* positions, std::atomic<uint64_t>* candidates) {
  const KeyScheme& scheme = db.settings().scheme;
  return for_all_games(
      db, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        StoredGame g;
        CandidateCounter<ResidentTable> counter(scheme, table);
        for (const std::string& rec : batch) {
          Status st = replay_stored(rec, &g, &counter);
          if (!st.ok()) return st;
          counter.finish_game();
        }
        *positions += counter.positions();
        *candidates += counter.candidates();
        return Status::OK();
      },
      progress);
}

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

  // At most half the budget for the sketch.  About two cells per row for
  // each played (level, pattern) keeps false "kept" answers rare; more only
  // costs memory.  It shrinks for small databases.
  const uint64_t played_items = std::max<uint64_t>(1, db.move_count() * uint64_t(levels));
  const int cell_bits = CountMinSketch::cell_bits_for(settings.min_played);
  const size_t sketch_bytes =
      size_t(std::min<uint64_t>(options.memory_budget / 2, played_items * 2 * CountMinSketch::kRows * cell_bits / 8));
  std::atomic<uint64_t> positions{0}, candidates{0}, drains{0};
  auto progress = [&](int pass) {
    return [&, pass](uint64_t done) {
      if (options.progress) options.progress({pass, done, db.game_count()});
    };
  };
  std::optional<CountMinSketch> sketch;
  sketch.emplace(sketch_bytes, settings.min_played);
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
  // past it).  Patterns whose smaller part is not kept can be listed (false
  // positives); the walks never reach them.
  auto t0 = Clock::now();
  const size_t max_resident = options.memory_budget / 2;
  const size_t max_raw_keys = options.memory_budget / 4 / sizeof(uint64_t);
  std::vector<KeptCollector> collectors(size_t(threads), KeptCollector{levels});
  // played/wins are 32-bit in the resident table.
  std::atomic<bool> collect{db.move_count() < (uint64_t(1) << 32)};
  std::mutex sketch_mu;
  std::atomic<uint64_t> games{0};
  Status s = for_all_games(
      db, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        thread_local std::vector<uint64_t> keys;
        thread_local std::vector<uint32_t> reached;
        keys.clear();
        reached.clear();
        StoredGame g;
        PlayedKeys obs(settings.scheme, &keys);
        for (const std::string& rec : batch) {
          Status st = replay_stored(rec, &g, &obs);
          if (!st.ok()) return st;
        }
        // keys holds L keys per move, levels 1..L.  Fetch a few items
        // ahead: the sketch is far out of the caches.
        constexpr size_t kAhead = 16;
        const size_t L = size_t(levels), n = keys.size();
        auto item = [&](size_t i) { return level_item(int(i % L) + 1, keys[i]); };
        {
          std::lock_guard<std::mutex> lock(sketch_mu);
          for (size_t i = 0; i < n; ++i) {
            if (i + kAhead < n) sketch->prefetch(item(i + kAhead));
            if (sketch->add(item(i)) + 1 >= min_played) reached.push_back(uint32_t(i));
          }
        }
        games += batch.size();
        if (!collect) return Status::OK();
        KeptCollector& c = collectors[size_t(t)];
        for (uint32_t i : reached) {
          const int level = int(i % L) + 1;
          c.add(level, keys[i], false);
          if (level > 1) c.add(level - 1, keys[i - 1], true);
        }
        // Too many to hold: pass 2 will ask the sketch instead.
        if (c.entries() * size_t(threads) > max_raw_keys) collect = false;
        return Status::OK();
      },
      progress(1));
  if (!s.ok()) return s;
  KeySet kept(levels), extended(levels);
  if (collect)
    for (KeptCollector& c : collectors) {
      kept.merge(std::move(c.kept));
      extended.merge(std::move(c.extended));
    }
  collectors.clear();
  summary->seconds_pass1 = since(t0);
  summary->sketch_fill = sketch->fill_ratio();
  summary->games = games;
  const bool resident = collect && ResidentTable::bytes_for(kept.distinct()) <= max_resident;

  // ---- pass 2: exact counts ----
  uint32_t gen = 0;
  s = db.begin_generation(&gen);
  if (!s.ok()) return s;
  t0 = Clock::now();
  uint64_t pruned = 0;
  summary->patterns_per_level.assign(size_t(levels), 0);
  if (resident) {
    summary->mode = CountMode::kResident;
    sketch.reset();
    ResidentTable table(kept.by_level(), extended.by_level());
    kept = KeySet(levels);
    extended = KeySet(levels);
    summary->kept_keys = table.size();
    s = count_resident(db, threads, &table, progress(2), &positions, &candidates);
    if (!s.ok()) return s;
    summary->seconds_pass2 = since(t0);
    // Only the patterns truly played min_played times are reported; the
    // others were sketch over-estimates.
    t0 = Clock::now();
    // One level at a time, sorted by key: the order of the database.
    s = db.write_sorted_counts(gen, [&](const PatternDb::CountSink& sink) -> Status {
      std::vector<std::pair<uint64_t, PatternCounts>> sorted;
      for (int level = 1; level <= levels; ++level) {
        sorted.clear();
        table.for_each_at(level, [&](uint64_t key, const PatternCounts& c) {
          if (c.played < min_played) ++pruned;
          else sorted.emplace_back(key, c);
        });
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        summary->patterns_per_level[size_t(level - 1)] = sorted.size();
        for (const auto& [key, c] : sorted) {
          Status st = sink(level, key, c);
          if (!st.ok()) return st;
        }
      }
      return Status::OK();
    });
    if (!s.ok()) return s;
  } else {
    summary->mode = CountMode::kDraining;
    kept = KeySet(levels);
    extended = KeySet(levels);
    const size_t table_entries = size_t(std::min<uint64_t>(
        options.memory_budget / 4 / size_t(threads) / (2 * sizeof(CountTable::Entry)), played_items));
    s = count_draining(db, threads, gen, *sketch, table_entries, progress(2), &positions, &candidates, &drains);
    if (!s.ok()) return s;
    sketch.reset();
    summary->seconds_pass2 = since(t0);
    t0 = Clock::now();
    s = db.prune_generation(gen, &pruned, &summary->patterns_per_level);
    if (!s.ok()) return s;
  }
  summary->positions = positions;
  summary->candidates = candidates;
  summary->drains = drains;
  summary->pruned = pruned;

  // ---- commit ----
  s = db.commit_generation(gen, *summary);
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

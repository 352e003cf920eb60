#include "count/recount.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "board/replay.h"
#include "count/candidate_counter.h"
#include "count/count_table.h"
#include "count/draining_counts.h"
#include "count/resident_table.h"
#include "count/kept_filter.h"
#include "count/sketch.h"
#include "pattern/tracking_observer.h"
#include "store/game_record.h"

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
        Status s = work(t, batch);
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(err_mu);
          if (first_error.ok()) first_error = s;
        }
      }
    });
  std::vector<std::string> batch;
  uint64_t done = 0;
  Status s = db.for_each_game([&](const Fingerprint&, std::string_view rec) {
    batch.emplace_back(rec);
    if (batch.size() == 256) {
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

// Pass 1: every played pattern, every level, into a thread-local buffer.
struct PlayedCollector : TrackingObserver {
  std::vector<uint64_t>* items;
  PlayedCollector(const KeyScheme& s, std::vector<uint64_t>* out) : TrackingObserver(s), items(out) {}
  void before_move(const Board& board, Color mover, Point move, int) override {
    if (move.is_pass()) return;
    tracker.walk(board.index(move), mover, [&](int level, uint64_t key) {
      items->push_back(level_item(level, key));
      return true;
    });
  }
};

// Pass 1b: the keys of every level of every played pattern, L per move.
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

Status replay_stored(const std::string& rec, Game* game, Board* board, TrackingObserver* obs) {
  Status st = decode_game(rec, game);
  if (!st.ok()) return st;
  obs->start_game(game->info.size);
  ReplayResult rr;
  st = replay(*game, board, &rr, obs);
  if (!st.ok()) return Status::Error("stored game " + game->origin.describe() + ": " + st.message());
  return Status::OK();
}

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

}  // namespace

std::string CountSummary::to_json() const {
  nlohmann::json j;
  j["games"] = games;
  j["positions"] = positions;
  j["candidates"] = candidates;
  j["patterns_per_level"] = patterns_per_level;
  j["sketch_fill"] = sketch_fill;
  j["sketch_bytes"] = sketch_bytes;
  j["flushes"] = flushes;
  j["pruned"] = pruned;
  j["mode"] = mode;
  j["kept_keys"] = kept_keys;
  j["seconds"] = {{"pass1", seconds_pass1}, {"kept", seconds_kept}, {"pass2", seconds_pass2}, {"commit", seconds_commit}};
  return j.dump();
}

namespace {

// Pass 2 with every kept pattern in one shared ResidentTable.
Status count_resident(PatternDb& db, int threads, ResidentTable* table, const std::function<void(uint64_t)>& progress,
                      std::atomic<uint64_t>* positions, std::atomic<uint64_t>* candidates) {
  const KeyScheme& scheme = db.settings().scheme;
  return for_all_games(
      db, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        Game game;
        Board board;
        CandidateCounter<ResidentTable> counter(scheme, table);
        for (const std::string& rec : batch) {
          Status st = decode_game(rec, &game);
          if (!st.ok()) return st;
          counter.start_game(game);
          ReplayResult rr;
          st = replay(game, &board, &rr, &counter);
          if (!st.ok()) return Status::Error("stored game " + game.origin.describe() + ": " + st.message());
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
                      std::atomic<uint64_t>* candidates, std::atomic<uint64_t>* flushes) {
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
    ++*flushes;
    return st;
  };
  Status s = for_all_games(
      db, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        Game game;
        Board board;
        DrainingCounts counts(&tables[size_t(t)], &filters[size_t(t)], [&, t] { return drain(t); });
        CandidateCounter<DrainingCounts> counter(settings.scheme, &counts);
        for (const std::string& rec : batch) {
          Status st = decode_game(rec, &game);
          if (!st.ok()) return st;
          counter.start_game(game);
          ReplayResult rr;
          st = replay(game, &board, &rr, &counter);
          if (!st.ok()) return Status::Error("stored game " + game.origin.describe() + ": " + st.message());
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

Status recount(PatternDb& db, const CountOptions& options, CountSummary* summary) {
  *summary = CountSummary{};
  const DbSettings& settings = db.settings();
  const int threads = std::max(1, options.threads);
  const int levels = settings.scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  if (settings.min_played < 1 || settings.min_played > 255)
    return Status::Error("min_played must be between 1 and 255");

  // At most half the budget for the sketch.  About two cells per row for
  // each played (level, pattern) keeps false "kept" answers rare; more only
  // costs memory.  It shrinks for small databases.
  const uint64_t played_items = std::max<uint64_t>(1, db.move_count() * uint64_t(levels));
  const int cell_bits = CountMinSketch::cell_bits_for(settings.min_played);
  const size_t sketch_bytes =
      size_t(std::min<uint64_t>(options.memory_budget / 2, played_items * 2 * CountMinSketch::kRows * cell_bits / 8));
  std::atomic<uint64_t> positions{0}, candidates{0}, flushes{0};
  auto progress = [&](int pass) {
    return [&, pass](uint64_t done) {
      if (options.progress) options.progress({pass, done, db.game_count()});
    };
  };
  std::optional<CountMinSketch> sketch;
  sketch.emplace(sketch_bytes, settings.min_played);
  summary->sketch_bytes = sketch->bytes();

  // ---- pass 1: the sketch of played patterns ----
  auto t0 = Clock::now();
  std::mutex sketch_mu;
  std::atomic<uint64_t> games{0};
  Status s = for_all_games(
      db, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        thread_local std::vector<uint64_t> items;
        items.clear();
        Game game;
        Board board;
        PlayedCollector obs(settings.scheme, &items);
        for (const std::string& rec : batch) {
          Status st = replay_stored(rec, &game, &board, &obs);
          if (!st.ok()) return st;
        }
        // Fetch a few items ahead: the sketch is far out of the caches.
        constexpr size_t kAhead = 16;
        std::lock_guard<std::mutex> lock(sketch_mu);
        for (size_t i = 0; i < items.size(); ++i) {
          if (i + kAhead < items.size()) sketch->prefetch(items[i + kAhead]);
          sketch->add(items[i]);
        }
        games += batch.size();
        return Status::OK();
      },
      progress(1));
  if (!s.ok()) return s;
  summary->seconds_pass1 = since(t0);
  summary->sketch_fill = sketch->fill_ratio();
  summary->games = games;

  // ---- pass 1b: the kept set, if it fits in memory ----
  // A played pattern is kept when the sketch says it was played at least
  // min_played times and so were all its smaller levels.  Every pattern
  // ever counted is played somewhere, so this is the whole kept set.  A
  // kept pattern extended by a kept pattern one level up is the inner part
  // of it at some played move, so the same walk finds those too.
  t0 = Clock::now();
  const size_t max_resident = options.memory_budget / 2;
  const size_t max_raw_keys = options.memory_budget / 4 / sizeof(uint64_t);
  KeySet kept(levels), extended(levels);
  constexpr uint64_t kExtendedFlag = uint64_t(1) << 32;
  std::atomic<bool> fits{db.move_count() < (uint64_t(1) << 32)};  // played/wins are 32-bit there
  std::mutex kept_mu;
  if (fits) {
    s = for_all_games(
        db, threads,
        [&](int, std::vector<std::string>& batch) -> Status {
          if (!fits) return Status::OK();
          thread_local std::vector<uint64_t> keys, found;
          keys.clear();
          found.clear();
          Game game;
          Board board;
          PlayedKeys obs(settings.scheme, &keys);
          for (const std::string& rec : batch) {
            Status st = replay_stored(rec, &game, &board, &obs);
            if (!st.ok()) return st;
          }
          // keys holds L keys per move; look them up with the lines of the
          // move after next already on their way, and keep each move's
          // prefix of kept levels.
          const size_t L = size_t(levels), n = keys.size();
          for (size_t i = 0; i < n; i += L) {
            if (i + 2 * L < n)
              for (size_t l = 0; l < L; ++l) sketch->prefetch(level_item(int(l + 1), keys[i + 2 * L + l]));
            size_t kept_levels = 0;
            while (kept_levels < L && sketch->estimate(level_item(int(kept_levels + 1), keys[i + kept_levels])) >= min_played)
              ++kept_levels;
            // (key, level, extended by the next kept level)
            for (size_t l = 0; l < kept_levels; ++l) {
              found.push_back(keys[i + l]);
              found.push_back((l + 1) | (l + 1 < kept_levels ? kExtendedFlag : 0));
            }
          }
          std::lock_guard<std::mutex> lock(kept_mu);
          for (size_t i = 0; i < found.size(); i += 2) {
            const int level = int(found[i + 1] & ~kExtendedFlag);
            kept.add(level, found[i]);
            if (found[i + 1] & kExtendedFlag) extended.add(level, found[i]);
          }
          if (kept.entries() + extended.entries() > max_raw_keys) fits = false;
          return Status::OK();
        },
        progress(2));
    if (!s.ok()) return s;
  }
  const bool resident = fits && ResidentTable::bytes_for(kept.distinct()) <= max_resident;
  summary->seconds_kept = since(t0);

  // ---- pass 2: exact counts ----
  uint32_t gen = 0;
  s = db.begin_generation(&gen);
  if (!s.ok()) return s;
  t0 = Clock::now();
  uint64_t pruned = 0;
  summary->patterns_per_level.assign(size_t(levels), 0);
  if (resident) {
    summary->mode = "resident";
    sketch.reset();
    ResidentTable table(kept.by_level(), extended.by_level());
    kept = KeySet(levels);
    extended = KeySet(levels);
    summary->kept_keys = table.size();
    s = count_resident(db, threads, &table, progress(3), &positions, &candidates);
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
    flushes = 1;
  } else {
    summary->mode = "draining";
    kept = KeySet(levels);
    extended = KeySet(levels);
    const size_t table_entries = size_t(std::min<uint64_t>(
        options.memory_budget / 4 / size_t(threads) / (2 * sizeof(CountTable::Entry)), played_items));
    s = count_draining(db, threads, gen, *sketch, table_entries, progress(3), &positions, &candidates, &flushes);
    if (!s.ok()) return s;
    sketch.reset();
    summary->seconds_pass2 = since(t0);
    t0 = Clock::now();
    s = db.prune_generation(gen, &pruned, &summary->patterns_per_level);
    if (!s.ok()) return s;
  }
  summary->positions = positions;
  summary->candidates = candidates;
  summary->flushes = flushes;
  summary->pruned = pruned;

  // ---- commit ----
  s = db.commit_generation(gen, summary->to_json());
  if (!s.ok()) return s;
  summary->seconds_commit = since(t0);
  return db.set_summary(summary->to_json());  // with the commit time
}

}  // namespace sgfpat

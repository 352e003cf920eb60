#include "count/recount.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "board/replay.h"
#include "count/candidate_counter.h"
#include "count/count_table.h"
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
  j["seconds"] = {{"pass1", seconds_pass1}, {"pass2", seconds_pass2}, {"commit", seconds_commit}};
  return j.dump();
}

Status recount(PatternDb& db, const CountOptions& options, CountSummary* summary) {
  *summary = CountSummary{};
  const DbSettings& settings = db.settings();
  const int threads = std::max(1, options.threads);
  const int levels = settings.scheme.levels;
  if (settings.min_played < 1 || settings.min_played > 255)
    return Status::Error("min_played must be between 1 and 255");

  // At most half the budget for the sketch, a quarter for the count tables.
  // A sketch with ~2 cells per row for each played (level, pattern) is
  // enough to keep false "kept" answers rare; more only costs page faults.
  const size_t wanted = size_t(std::min<uint64_t>(uint64_t(options.memory_budget / 2),
                                                  std::max<uint64_t>(1 << 20, db.move_count() * uint64_t(levels) * 2 *
                                                                                  CountMinSketch::kRows)));
  CountMinSketch sketch(wanted);
  summary->sketch_bytes = sketch.bytes();
  const size_t table_entries = std::max<size_t>(1024, options.memory_budget / 4 / size_t(threads) / 96);
  std::atomic<uint64_t> games{0};

  // ---- pass 1 ----
  auto t0 = Clock::now();
  std::mutex sketch_mu;
  Status s = for_all_games(
      db, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        thread_local std::vector<uint64_t> items;
        items.clear();
        Game game;
        Board board;
        PlayedCollector obs(settings.scheme, &items);
        for (const std::string& rec : batch) {
          Status st = decode_game(rec, &game);
          if (!st.ok()) return st;
          obs.start_game(game.info.size);
          ReplayResult rr;
          st = replay(game, &board, &rr, &obs);
          if (!st.ok()) return Status::Error("stored game " + game.origin.describe() + ": " + st.message());
        }
        std::lock_guard<std::mutex> lock(sketch_mu);
        for (uint64_t it : items) sketch.add(it);
        games += batch.size();
        return Status::OK();
      },
      [&](uint64_t done) {
        if (options.progress) options.progress({1, done, db.game_count()});
      });
  if (!s.ok()) return s;
  summary->seconds_pass1 = since(t0);
  summary->sketch_fill = sketch.fill_ratio();
  summary->games = games;

  // ---- pass 2 ----
  t0 = Clock::now();
  uint32_t gen = 0;
  s = db.begin_generation(&gen);
  if (!s.ok()) return s;
  std::vector<CountTable> tables;
  std::vector<KeptFilter> filters;
  for (int t = 0; t < threads; ++t) {
    tables.emplace_back(table_entries);
    filters.emplace_back(&sketch, settings.min_played);
  }
  std::atomic<uint64_t> positions{0}, candidates{0}, flushes{0};
  s = for_all_games(
      db, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        Game game;
        Board board;
        CandidateCounter counter(settings.scheme, &filters[t], &tables[t]);
        for (const std::string& rec : batch) {
          Status st = decode_game(rec, &game);
          if (!st.ok()) return st;
          counter.start_game(game);
          ReplayResult rr;
          st = replay(game, &board, &rr, &counter);
          if (!st.ok()) return Status::Error("stored game " + game.origin.describe() + ": " + st.message());
          counter.finish_game();
          if (tables[t].full()) {
            st = db.add_counts(gen, tables[t].drain());
            ++flushes;
            if (!st.ok()) return st;
          }
        }
        positions += counter.positions();
        candidates += counter.candidates();
        return Status::OK();
      },
      [&](uint64_t done) {
        if (options.progress) options.progress({2, done, db.game_count()});
      });
  if (!s.ok()) return s;
  for (auto& table : tables) {
    if (table.size() == 0) continue;
    s = db.add_counts(gen, table.drain());
    ++flushes;
    if (!s.ok()) return s;
  }
  summary->seconds_pass2 = since(t0);
  summary->positions = positions;
  summary->candidates = candidates;
  summary->flushes = flushes;

  // ---- commit ----
  t0 = Clock::now();
  uint64_t pruned = 0;
  summary->patterns_per_level.assign(size_t(levels), 0);
  s = db.prune_generation(gen, &pruned, &summary->patterns_per_level);
  if (!s.ok()) return s;
  summary->pruned = pruned;
  s = db.commit_generation(gen, summary->to_json());
  if (!s.ok()) return s;
  summary->seconds_commit = since(t0);
  return db.set_summary(summary->to_json());  // with the commit time
}

}  // namespace sgfpat

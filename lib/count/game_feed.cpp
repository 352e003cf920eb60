#include "count/game_feed.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "count/batch_queue.h"

namespace sgfpat {


Status feed_games(const GameSource& source, uint64_t total, int threads,
                  const std::function<Status(int, std::vector<std::string>&)>& work,
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
  // Batches of 256 games keep the hand-over cheap; a small source gets
  // smaller ones, so that every thread has work.
  const size_t batch_games = size_t(std::clamp<uint64_t>(total / (uint64_t(threads) * 8), 1, 256));
  std::vector<std::string> batch;
  uint64_t done = 0;
  Status s = source([&](const Fingerprint&, std::string_view rec) {
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

Status for_all_games(PatternDb& db, int threads, const std::function<Status(int, std::vector<std::string>&)>& work,
                     const std::function<void(uint64_t)>& progress) {
  return feed_games([&](const GameVisitor& v) { return db.for_each_game(v); }, db.game_count(), threads, work,
                    progress);
}



}  // namespace sgfpat

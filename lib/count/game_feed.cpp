#include "count/game_feed.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>


namespace sgfpat {

namespace {
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

}  // namespace

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

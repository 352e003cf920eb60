// A bounded queue of game-record batches from a producing thread to
// workers (count/game_feed.h, count/sketch_alongside.h).
#pragma once
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace sgfpat {

template <class Batch>
class BatchQueueOf {
 public:
  explicit BatchQueueOf(size_t capacity) : capacity_(capacity) {}
  // Waits for room, then queues `batch`.
  void push(Batch batch) {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [&] { return q_.size() < capacity_; });
    q_.push_back(std::move(batch));
    not_empty_.notify_one();
  }
  // Queues `batch` (moved from) if there is room; else false, `batch` untouched.
  bool try_push(Batch& batch) {
    std::lock_guard<std::mutex> lock(mu_);
    if (q_.size() >= capacity_) return false;
    q_.push_back(std::move(batch));
    not_empty_.notify_one();
    return true;
  }
  // Waits for a batch; false once the queue is closed and empty.
  bool pop(Batch* batch) {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !q_.empty() || closed_; });
    return take(batch);
  }
  // A batch if one is queued, without waiting.
  bool try_pop(Batch* batch) {
    std::lock_guard<std::mutex> lock(mu_);
    return take(batch);
  }
  // No more pushes: pop() returns false once the queue is empty.
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  bool take(Batch* batch) {
    if (q_.empty()) return false;
    *batch = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }

  size_t capacity_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Batch> q_;
  bool closed_ = false;
};
using BatchQueue = BatchQueueOf<std::vector<std::string>>;

}  // namespace sgfpat

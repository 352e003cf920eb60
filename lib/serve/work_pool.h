// A fixed number of threads for the requests too slow to answer on a
// network thread (explorer look-ups, engine searches, the solver), with a
// bounded queue: a request that finds it full is refused at once, so no
// client can pile work up.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sgfpat::serve {

class WorkPool {
 public:
  // `threads` workers; at most `max_queued` jobs waiting for one.
  WorkPool(int threads, int max_queued);
  ~WorkPool();  // finishes the running jobs, drops the waiting ones

  // Queues `job`; false (and `job` dropped) when the queue is full or the
  // pool is stopping.
  bool submit(std::function<void()> job);
  void stop();

 private:
  void run();
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  size_t max_queued_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace sgfpat::serve

// Pass 1 of a count made while an import stores the games: the importing
// thread hands in the records it stored, batch by batch, and worker threads
// add them to a PlayedSketcher.  When the workers fall behind, the
// importing thread sketches a batch itself instead of queueing more, so
// that every core is busy and the records waiting stay few.
#pragma once
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "count/batch_queue.h"
#include "count/played_sketcher.h"

namespace sgfpat {

class SketchAlongside {
 public:
  // `threads` - 1 workers (at least one) beside the caller.  Throws
  // std::system_error when a thread cannot be started (none is left running).
  SketchAlongside(PlayedSketcher* sketcher, int threads, size_t max_queued = 2);
  // Lets the workers finish what is queued, and stops them.
  ~SketchAlongside();
  SketchAlongside(const SketchAlongside&) = delete;
  SketchAlongside& operator=(const SketchAlongside&) = delete;

  // Hands in one batch (from one thread at a time).  Returns the first
  // error of any batch so far: after one, the pass is void.
  Status add(std::vector<std::string>&& batch);
  // Sketches what is queued, the caller helping, and stops the workers.
  // Returns the first error of any batch.
  Status finish();

 private:
  void stop();
  // sketcher_->add(), its error (or exception) kept as the first if it is.
  Status sketch(const std::vector<std::string>& batch);

  PlayedSketcher* sketcher_;
  BatchQueue queue_;
  std::mutex mu_;
  Status first_error_;  // under mu_
  std::vector<std::thread> workers_;
};

}  // namespace sgfpat

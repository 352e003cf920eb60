#include "count/sketch_alongside.h"

#include <algorithm>

namespace sgfpat {

SketchAlongside::SketchAlongside(PlayedSketcher* sketcher, int threads, size_t max_queued)
    : sketcher_(sketcher), queue_(std::max<size_t>(1, max_queued)) {
  try {
    for (int t = 0; t < std::max(1, threads - 1); ++t)
      workers_.emplace_back([this] {
        std::vector<std::string> batch;
        while (queue_.pop(&batch)) sketch(batch);
      });
  } catch (...) {
    stop();
    throw;
  }
}

SketchAlongside::~SketchAlongside() { stop(); }

void SketchAlongside::stop() {
  queue_.close();
  for (auto& w : workers_)
    if (w.joinable()) w.join();
  workers_.clear();
}

Status SketchAlongside::sketch(const std::vector<std::string>& batch) {
  Status s;
  try {
    s = sketcher_->add(batch);
  } catch (...) {  // the lists' allocations
    s = status_from_exception("sketching played patterns");
  }
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (first_error_.ok()) first_error_ = s;
  }
  return s;
}

Status SketchAlongside::add(std::vector<std::string>&& batch) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!first_error_.ok()) return first_error_;
  }
  if (queue_.try_push(batch)) return Status::OK();
  return sketch(batch);
}

Status SketchAlongside::finish() {
  queue_.close();
  // The caller takes queued batches too, until none is left.
  std::vector<std::string> batch;
  while (queue_.try_pop(&batch)) sketch(batch);
  stop();
  std::lock_guard<std::mutex> lock(mu_);
  return first_error_;
}

}  // namespace sgfpat

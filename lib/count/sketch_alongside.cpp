#include "count/sketch_alongside.h"

#include <algorithm>

namespace sgfpat {

SketchAlongside::SketchAlongside(PlayedSketcher* sketcher, int threads, size_t max_queued)
    : sketcher_(sketcher), max_queued_(std::max<size_t>(1, max_queued)) {
  for (int t = 0; t < std::max(1, threads - 1); ++t) workers_.emplace_back([this] { work(); });
}

SketchAlongside::~SketchAlongside() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    queue_.clear();
  }
  ready_.notify_all();
  for (auto& w : workers_)
    if (w.joinable()) w.join();
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
  std::unique_lock<std::mutex> lock(mu_);
  if (!first_error_.ok()) return first_error_;
  if (queue_.size() < max_queued_) {
    queue_.push_back(std::move(batch));
    lock.unlock();
    ready_.notify_one();
    return Status::OK();
  }
  lock.unlock();
  return sketch(batch);
}

void SketchAlongside::work() {
  for (;;) {
    std::vector<std::string> batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_.wait(lock, [&] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;
      batch = std::move(queue_.front());
      queue_.pop_front();
    }
    sketch(batch);
  }
}

Status SketchAlongside::finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
  }
  ready_.notify_all();
  // The caller takes queued batches too, until none is left.
  for (;;) {
    std::vector<std::string> batch;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (queue_.empty()) break;
      batch = std::move(queue_.front());
      queue_.pop_front();
    }
    sketch(batch);
  }
  for (auto& w : workers_) w.join();
  workers_.clear();
  std::lock_guard<std::mutex> lock(mu_);
  return first_error_;
}

}  // namespace sgfpat

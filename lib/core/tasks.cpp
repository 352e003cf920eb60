#include "core/tasks.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace sgfpat {

std::vector<Status> run_tasks(size_t n, int threads, const std::function<Status(size_t)>& task,
                              const std::string& context) {
  std::vector<Status> results(n);
  std::atomic<size_t> next{0};
  // An exception must not leave a thread (std::terminate).
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        results[i] = task(i);
      } catch (...) {
        results[i] = status_from_exception(context);
      }
    }
  };
  std::vector<std::thread> helpers;
  try {
    const size_t want = std::min(n, size_t(std::max(threads, 1))) - (n > 0 ? 1 : 0);
    while (helpers.size() < want) helpers.emplace_back(work);
  } catch (...) {
    // No thread to spare: the caller's (and those started) run them all.
  }
  work();
  for (std::thread& t : helpers) t.join();
  return results;
}

int run_on_threads(int n, const std::function<void(int)>& body) {
  if (n < 1) return 0;
  std::vector<std::thread> started;
  try {
    started.reserve(size_t(n - 1));
    for (int t = 1; t < n; ++t) started.emplace_back(body, t);
  } catch (...) {
    // No more threads: those started and the caller's do the work.
  }
  body(0);
  for (std::thread& t : started) t.join();
  return 1 + int(started.size());
}

}  // namespace sgfpat

// Independent tasks run side by side on a few threads.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"

namespace sgfpat {

// Runs task(i) once for every i in [0, n) on up to `threads` threads, the
// caller's among them, each taking the next index as it finishes one; with
// no thread to spare the caller runs them all.  Returns each task's status
// (what a task throws becomes its status, with `context` in the message).
// Never throws.
std::vector<Status> run_tasks(size_t n, int threads, const std::function<Status(size_t)>& task,
                              const std::string& context);

}  // namespace sgfpat

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

// Runs body(t) for t in [0, n) at once: body(0) on the caller's thread,
// the others each on a thread of its own, started first; returns when all
// have returned.  A thread the system refuses (too many asked, no memory
// for its stack) is left out instead of ending the process: for bodies
// that share their work through a queue, fewer threads still do all of it.
// Returns how many bodies ran (at least 1 when n >= 1).  `body` must not
// throw.
int run_on_threads(int n, const std::function<void(int)>& body);

}  // namespace sgfpat

#include "count/count_driver.h"

#include <atomic>
#include <chrono>

#include "count/count_games.h"

namespace sgfpat {

Status count_parts(const CountRun& run, PartSource* source, PartSink* sink) {
  const std::vector<Part>& parts = source->parts();
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& part = parts[i];
    std::unique_ptr<ResidentTable> table;
    Status s = source->table(i, &table);
    if (!s.ok()) return s;
    if (!part.whole()) table->restrict_to(part.range);
    s = sink->begin(part, table.get());
    if (!s.ok()) return s;
    if (run.on_part) run.on_part(i, parts.size());
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<uint64_t> positions{0}, candidates{0};
    s = count_resident(
        *run.scheme, run.games, run.total, run.threads, table.get(),
        [&](uint64_t n) {
          if (run.progress) run.progress(part, n);
        },
        &positions, &candidates, part.whole() ? 0 : kSplitLevel + 1, /*share_openings=*/true);
    if (!s.ok()) return s;
    PartCounted counted;
    counted.positions = positions;
    counted.candidates = candidates;
    counted.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s = sink->take(part, table.get(), counted);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace sgfpat

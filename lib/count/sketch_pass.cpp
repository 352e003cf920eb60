#include "count/sketch_pass.h"

#include "count/played_sketcher.h"
#include "store/stored_replay.h"

namespace sgfpat {

Status sketch_played(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                     CountMinSketch* sketch, unsigned min_played, size_t max_list_bytes, SketchPass* out,
                     const std::function<void(uint64_t)>& progress) {
  PlayedSketcher sketcher(scheme, sketch, min_played, max_list_bytes);
  Status s = feed_games(
      source, total, threads, [&](int, std::vector<std::string>& batch) { return sketcher.add(batch); }, progress);
  if (!s.ok()) return s;
  sketcher.finish(out);
  return Status::OK();
}

Status played_keys(const KeyScheme& scheme, std::span<const std::string> batch, std::vector<uint64_t>* keys) {
  StoredGame g;
  PlayedKeys obs(scheme, keys);
  for (const std::string& rec : batch) {
    Status st = replay_stored(rec, &g, &obs);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

}  // namespace sgfpat

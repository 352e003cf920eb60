#include "ingest/ingest_policy.h"

#include <algorithm>

#include "count/count_budget.h"
#include "count/played_sketch_file.h"
#include "io/decompress.h"
#include "io/input_list.h"
#include "store/pattern_db.h"

namespace sgfpat {

MemorySplit split_memory(size_t budget) {
  MemorySplit m;
  m.db_bytes = std::min(budget / 8, size_t(256) << 20);
  m.count_bytes = budget - m.db_bytes - std::min(kIngestFixedBytes, budget / 2);
  m.position_run_bytes = m.count_bytes / 2;
  m.tight = budget < kIngestRecommendedBytes;
  return m;
}

void give_db_memory(const MemorySplit& m, OpenOptions* open) {
  open->memory_bytes = m.db_bytes;
  open->position_run_bytes = m.position_run_bytes;
}

namespace {
// Bytes on disk per move of a game record: measured on Tygem's records
// (gzip 1.6-1.8, xz 1.1, plain 7); headers and comments make it more.
double bytes_per_move(const std::string& path) {
  switch (compression_from_name(path)) {
    case Compression::Bzip2:
    case Compression::Xz:
    case Compression::Zstd: return 1.1;
    case Compression::Gzip: return 1.5;
    case Compression::None: break;
  }
  return 7.0;  // .zip too: its estimate falls short
}
}  // namespace

size_t sketch_alongside_bytes(const std::vector<InputFile>& inputs, const MemorySplit& m, int levels,
                              int min_played, bool always) {
  double moves = 0;
  bool unsized = false;  // stdin
  for (const InputFile& f : inputs) {
    moves += double(f.size) / bytes_per_move(f.path);
    unsized |= f.size == 0;
  }
  const double items = moves * double(levels);
  const size_t share = CountBudget(m.count_bytes).sketch_max();
  // Below ~30,000 games the pass takes seconds either way.
  if (!always) return items < double(uint64_t(1) << 26) ? 0 : sketch_bytes_for(uint64_t(items), min_played, share);
  // Asked for whatever the inputs: what cannot be sized gets the whole
  // share (a sketch too small for its games would keep nearly everything).
  return unsized ? share : sketch_bytes_for(uint64_t(items), min_played, share);
}

size_t position_run_room(const MemorySplit& m, size_t sketch_bytes, size_t list_bytes) {
  // What pass 1's lists may not take beside the sketch (CountBudget: the
  // room for the copy a list makes of itself when it is compacted) is not
  // the run's either.
  const size_t beside = m.count_bytes > sketch_bytes ? m.count_bytes - sketch_bytes : 0;
  const size_t reserve = beside - CountBudget(m.count_bytes).pass1_list_bytes(sketch_bytes);
  const size_t taken = sketch_bytes + list_bytes + reserve;
  const size_t room = m.count_bytes > taken ? m.count_bytes - taken : 0;
  return std::clamp(room, std::min(size_t(32) << 20, m.position_run_bytes), m.position_run_bytes);
}

bool counts_stale(const CountState& s) {
  if (s.stored_games == 0) return false;
  return s.recount_requested || s.generation == 0 || s.counted_games != s.stored_games;
}

}  // namespace sgfpat

namespace sgfpat {

CountPlan plan_count(const CountState& s, std::string* reason) {
  reason->clear();
  if (!counts_stale(s)) return CountPlan::kUpToDate;
  auto full = [&](const char* why) {
    *reason = why;
    return CountPlan::kFull;
  };
  if (s.recount_requested) return full("--recount");
  if (s.generation == 0) return full("never counted");
  if (s.counted_games + s.pending_games != s.stored_games)
    return full("the counts do not say which stored games they cover (counted by an older sgfpat?)");
  *reason = std::to_string(s.pending_games) + " new games";
  return CountPlan::kIncremental;
}

}  // namespace sgfpat

#include "count/catchup.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>

#include "core/fail_point.h"
#include "count/candidate_counter.h"
#include "count/catchup_progress.h"
#include "count/catchup_table.h"
#include "count/count_games.h"
#include "count/part_range.h"

namespace sgfpat {

namespace {
// The shares of the games a catch-up records its counts after (a kill
// loses at most one share's work).
constexpr uint64_t kCatchupShares = 8;
// What a pending pattern costs a catch-up in memory: its entry, its slots
// in the table and its counts (in each thread's copy and the record), and
// a key of its chain its slot in the table (shared chains counted in full).
constexpr uint64_t kCatchupBytesPerPattern = 256, kCatchupBytesPerChainKey = 48;
using Levels = std::vector<std::vector<uint64_t>>;  // per level (index level - 1)

void sort_unique(Levels* v) {
  for (auto& l : *v) {
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
  }
}
}  // namespace

Status pending_summary(PatternDb& db, PendingSummary* out) {
  *out = PendingSummary{};
  out->per_level.assign(size_t(db.settings().scheme.levels), 0);
  return db.for_each_pending_pattern([&](const PendingPattern& p) {
    ++out->patterns;
    if (p.level >= 1 && size_t(p.level) <= out->per_level.size()) ++out->per_level[size_t(p.level - 1)];
    if (out->since == 0 || p.joined < out->since) out->since = p.joined;
    return true;
  });
}

// The catch-up of `pending` (sorted by level, then key: the pending
// patterns of some buckets, `remaining` left pending after it), part `part`
// of `parts`, over the games `order`: one replay of every game, one
// commit.
static Status catch_up_part(PatternDb& db, const CountOptions& options, const std::vector<Fingerprint>& order,
                            const std::vector<PendingPattern>& pending, uint64_t remaining, uint64_t part,
                            uint64_t parts, CatchupResult* result) {
  const KeyScheme& scheme = db.settings().scheme;
  const int threads = std::max(1, options.threads);
  Status s;
  int top = 0;
  for (const PendingPattern& p : pending) top = std::max(top, p.level);
  if (top > scheme.levels) return Status::Corruption("database " + db.path() + ": a pending pattern above the last level");
  const size_t top_levels = size_t(top);
  Levels keys(top_levels), extended(top_levels), counted(top_levels);
  for (const PendingPattern& p : pending) {
    counted[size_t(p.level - 1)].push_back(p.key);
    keys[size_t(p.level - 1)].push_back(p.key);
    for (size_t l = 0; l < p.chain.size(); ++l) {
      keys[l].push_back(p.chain[l]);
      extended[l].push_back(p.chain[l]);
    }
  }
  sort_unique(&keys);
  sort_unique(&extended);
  sort_unique(&counted);
  KeyScheme upto = scheme;
  upto.levels = top;

  // One table, copied per thread (the copies share its keys).
  std::vector<CatchupTable> tables;
  tables.reserve(size_t(threads));
  tables.emplace_back(keys, extended, &counted);
  keys = Levels();
  extended = Levels();
  size_t count_bytes = 0;
  for (const auto& l : counted) count_bytes += CatchupTable::copy_bytes_for(l.size());
  int workers = threads;
  if (tables.front().bytes() + count_bytes * size_t(threads - 1) > options.memory_budget / 2) workers = 1;
  for (int t = 1; t < workers; ++t) tables.push_back(tables.front());

  // What an earlier run of the same catch-up counted (made for this
  // generation, these games and this pending set), else nothing.
  CatchupProgress done;
  std::string record;
  s = db.catchup_progress(&record);
  if (!s.ok()) return s;
  const uint64_t digest = pending_digest(pending);
  if (record.empty() || !decode_catchup_progress(record, &done) || done.generation != db.generation() ||
      done.games != order.size() || done.pending_digest != digest || done.counts.size() != pending.size() ||
      done.games_done > order.size())
    done = CatchupProgress{db.generation(), order.size(), digest, 0, std::vector<PatternCounts>(pending.size())};
  if (result->resumed_games == 0) result->resumed_games = done.games_done;
  const CatchupProgress before = done;
  // The counts so far: the earlier run's and this run's tables.
  auto counts_so_far = [&](std::vector<PatternCounts>* out) -> Status {
    *out = before.counts;
    for (size_t i = 0; i < pending.size(); ++i)
      for (const CatchupTable& t : tables) {
        const int32_t slot = t.find(pending[i].level, pending[i].key);
        if (slot < 0 || !CatchupTable::counted(pending[i].level, slot))
          return Status::Internal("a pending pattern is missing from the catch-up table");
        const PatternCounts c = t.counts_at(pending[i].level, slot);
        (*out)[i].played += c.played;
        (*out)[i].seen += c.seen;
        (*out)[i].wins += c.wins;
      }
    return Status::OK();
  };
  // The games in eight shares, each recorded when counted.
  const uint64_t share = std::max<uint64_t>(1, (order.size() + kCatchupShares - 1) / kCatchupShares);
  for (uint64_t from = done.games_done; from < order.size(); from += share) {
    const uint64_t to = std::min<uint64_t>(order.size(), from + share);
    s = feed_games(
        games_in(db, std::span(order).subspan(size_t(from), size_t(to - from))), to - from, workers,
        [&](int t, std::vector<std::string>& batch) -> Status {
          CandidateCounter<CatchupTable> counter(upto, &tables[size_t(t)]);
          return count_batch_shared(batch, &counter);
        },
        [&](uint64_t n) {
          if (options.progress)
            options.progress({CountStep::kCatchup, part * order.size() + from + n, parts * order.size()});
        });
    if (!s.ok()) return s;
    if (to == order.size()) break;
    done.games_done = to;
    s = counts_so_far(&done.counts);
    if (s.ok()) s = db.save_catchup_progress(encode_catchup_progress(done));
    if (!s.ok()) return s;
    fail_point("catchup.share_saved");
  }

  // The counts, checked against what the nights recorded.
  PatternDb::NightEdits edits;
  edits.summary = db.summary();
  edits.summary.pending_patterns = remaining;
  ++edits.summary.catchups;
  if (edits.summary.patterns_per_level.size() < size_t(scheme.levels))
    edits.summary.patterns_per_level.resize(size_t(scheme.levels), 0);
  std::vector<PatternCounts> sums;
  s = counts_so_far(&sums);
  if (!s.ok()) return s;
  for (size_t i = 0; i < pending.size(); ++i) {
    const PendingPattern& p = pending[i];
    const PatternCounts& sum = sums[i];
    if (sum.played != p.played || sum.wins != p.wins)
      return Status::Internal("database " + db.path() + ": a pending pattern of level " + std::to_string(p.level) +
                              " was recorded played " + std::to_string(p.played) + " times (won " +
                              std::to_string(p.wins) + "), the replay of every game finds " +
                              std::to_string(sum.played) + " (" + std::to_string(sum.wins) + "); nothing was written");
    edits.counts_put.emplace_back(p.level, p.key, sum);
    edits.pending_deleted.push_back({p.level, p.key});
    ++edits.summary.patterns_per_level[size_t(p.level - 1)];
  }
  if (options.progress) options.progress({CountStep::kCommit, 0, 0});
  fail_point("catchup.before_commit");
  s = db.commit_night(edits);
  if (!s.ok()) return s;
  result->patterns += pending.size();
  return Status::OK();
}

// catch_up() but for the exceptions its allocations may throw.
static Status catch_up_unguarded(PatternDb& db, const CountOptions& options, CatchupResult* result) {
  const auto t0 = std::chrono::steady_clock::now();
  *result = CatchupResult{};
  uint64_t pending_games = 0;
  Status s = db.pending_count(&pending_games);
  if (!s.ok()) return s;
  if (pending_games > 0)
    return Status::InvalidArgument("database " + db.path() + " has " + std::to_string(pending_games) +
                                   " games not counted yet: ingest counts them first");

  // P by bucket of its keys (count/part_range.h), and what each bucket
  // will hold in memory: parts, runs of buckets, that fit half the budget,
  // each a replay of every game and a commit.  A run again after a kill
  // plans the same parts from the first bucket still pending, and goes on
  // in it from its record.
  std::array<uint64_t, kPartBuckets> count{}, bytes{};
  s = db.for_each_pending_pattern([&](const PendingPattern& p) {
    const size_t b = size_t(part_bucket(p.key));
    ++count[b];
    bytes[b] += kCatchupBytesPerPattern + kCatchupBytesPerChainKey * p.chain.size();
    return true;
  });
  if (!s.ok()) return s;
  const std::vector<std::pair<int, int>> plan =
      bucket_runs(bytes, options.memory_budget / 2, options.night_in_smallest_parts);
  if (plan.empty()) return Status::OK();
  std::vector<Fingerprint> order;
  s = games_by_opening(db, &order);
  if (!s.ok()) return s;
  uint64_t remaining = std::accumulate(count.begin(), count.end(), uint64_t(0));
  for (size_t i = 0; i < plan.size(); ++i) {
    const PartRange range = PartRange::buckets(plan[i].first, plan[i].second);
    std::vector<PendingPattern> pending;
    s = db.for_each_pending_pattern([&](const PendingPattern& p) {
      if (range.contains(p.key)) pending.push_back(p);
      return true;
    });
    if (!s.ok()) return s;
    remaining -= pending.size();
    s = catch_up_part(db, options, order, pending, remaining, i, plan.size(), result);
    if (!s.ok()) return s;
    result->parts = plan.size();
    if (i + 1 < plan.size()) fail_point("catchup.part_done");
  }
  result->games = order.size();
  result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return Status::OK();
}

Status catch_up(PatternDb& db, const CountOptions& options, CatchupResult* result) {
  try {
    return catch_up_unguarded(db, options, result);
  } catch (...) {  // the tables' allocations (bad_alloc, length_error)
    return status_from_exception("catching up");
  }
}

}  // namespace sgfpat

#include "count/key_parts.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>

#include "count/kept_set.h"
#include "count/resident_table.h"
#include "store/stored_replay.h"

namespace sgfpat {

size_t part_bytes_for(size_t kept, size_t extended) {
  return ResidentTable::bytes_for(kept) + sizeof(uint64_t) * (kept + extended);
}

Status list_part(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                 const CountMinSketch& sketch, unsigned min_played, const PartRange& range, size_t max_list_bytes,
                 SketchPass* out, size_t* base_bytes, const std::function<void(uint64_t)>& progress) {
  const int levels = scheme.levels;
  const size_t L = size_t(levels);
  KeptCollector collector(levels);
  std::mutex mu;
  std::atomic<bool> overflow{false};
  std::atomic<uint64_t> games{0};
  Status s = feed_games(
      source, total, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        if (overflow.load(std::memory_order_relaxed)) return Status::OK();
        thread_local std::vector<uint64_t> keys;
        thread_local std::vector<uint8_t> tops;
        keys.clear();
        Status st = played_keys(scheme, batch, &keys);
        if (!st.ok()) return st;
        // The sketch is only read here: the estimates are taken without the
        // lock, a few moves' first levels fetched ahead.
        const size_t moves = keys.size() / L;
        constexpr size_t kAhead = 8;
        tops.assign(moves, 0);
        for (size_t m = 0; m < moves; ++m) {
          if (m + kAhead < moves)
            for (size_t l = 0; l < std::min<size_t>(L, kSplitLevel); ++l)
              sketch.prefetch(level_item(int(l) + 1, keys[(m + kAhead) * L + l]));
          // A move of another part lists only its base: the levels above
          // the split level need no estimate.
          const uint64_t* k = &keys[m * L];
          const size_t last = L >= size_t(kSplitLevel) && !range.contains(k[kSplitLevel - 1]) ? kSplitLevel : L;
          tops[m] = uint8_t(levels_reaching(sketch, k, int(last), min_played));
        }
        std::lock_guard<std::mutex> lock(mu);
        if (overflow) return Status::OK();
        for (size_t m = 0; m < moves; ++m) {
          const uint64_t* k = &keys[m * L];
          const bool mine = tops[m] >= kSplitLevel && range.contains(k[kSplitLevel - 1]);
          collector.add_move(k, tops[m], mine ? levels : kSplitLevel - 1);
        }
        games += batch.size();
        if (collector.bytes() > max_list_bytes) overflow = true;
        return Status::OK();
      },
      progress);
  if (!s.ok()) return s;
  out->complete = !overflow;
  out->games = games;
  out->listed_bytes = collector.bytes();
  out->listed_range_bytes = collector.kept.bytes(kSplitLevel) + collector.extended.bytes(kSplitLevel);
  *base_bytes = 0;
  if (out->complete) {
    out->kept = std::move(collector.kept);
    out->extended = std::move(collector.extended);
    const auto& k = out->kept.by_level();
    for (size_t l = 0; l + 1 < size_t(kSplitLevel) && l < L; ++l) *base_bytes += ResidentTable::bytes_for(k[l].size());
  }
  return Status::OK();
}

Status count_in_parts(PatternDb& db, uint32_t gen, PlayedSketch* played, const std::string& sketch_path, int threads,
                      size_t part_bytes, size_t expected_bytes, const PartsProgress* resume,
                      const std::function<void(int, int, uint64_t)>& progress, CountSummary* summary,
                      bool* fitted) {
  const auto t_start = std::chrono::steady_clock::now();
  *fitted = true;
  const DbSettings& settings = db.settings();
  const int levels = settings.scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  // Every part replays the games by opening (their first positions
  // shared); the order's fingerprints stay for all the parts.
  std::vector<Fingerprint> order;
  Status s = games_by_opening(db, &order);
  if (!s.ok()) return s;
  const size_t order_bytes = order.size() * sizeof(Fingerprint);
  part_bytes = part_bytes > order_bytes ? part_bytes - order_bytes : 0;
  // A listing's lists share the part's memory with the sketch; its table
  // does not (the sketch is freed by then).
  const size_t sketch_bytes = played->sketch->bytes();
  const size_t list_bytes = part_bytes > sketch_bytes ? (part_bytes - sketch_bytes) / 10 * 9 : 0;
  const GameSource games = games_in(db, order);
  const uint64_t total = order.size();
  // A part aims at kPartFill of what fits: the next range is sized by the
  // last one's, and parts of the same width differ (a part over the budget
  // is listed again, smaller).
  const double target = double(part_bytes) * kPartFill;
  const double list_target = double(list_bytes) * kPartFill;
  const double space = 18446744073709551616.0;  // 2^64
  // Under the smallest range tried, one split-level pattern would not fit.
  const double min_width = space / double(uint64_t(1) << 32);
  double width = expected_bytes > 0 ? space / std::max(1.0, std::ceil(double(expected_bytes) / target)) : space / 4;
  if (levels < kSplitLevel) width = space;  // all base: one part or none
  long double lo = 0;
  // The parts' tallies are kept in *summary: parts, part_relists,
  // kept_keys (patterns counted, reported and pruned), pruned.
  if (resume) {  // the tallies so far are in *summary (its precondition)
    summary->patterns_per_level.resize(size_t(levels), 0);
    lo = resume->done ? space : (long double)(resume->next);
    width = resume->width;
  } else {
    summary->patterns_per_level.assign(size_t(levels), 0);
    summary->parts = summary->part_relists = summary->kept_keys = summary->pruned = 0;
    summary->seconds_listing = 0;
  }
  const double pass2_before = resume ? summary->seconds_pass2 : 0.0;  // the interrupted runs' time
  while (lo < space) {
    const long double hi = std::min<long double>(lo + width, space);
    const PartRange range{uint64_t(lo), hi >= space ? ~uint64_t(0) : uint64_t(hi) - 1};
    const int part = int(summary->parts) + 1;
    SketchPass listed(levels);
    size_t base = 0;
    const auto t_list = std::chrono::steady_clock::now();
    if (!played->sketch) {
      s = load_played_sketch(sketch_path, int(min_played), played);
      if (!s.ok()) return s.with_context("loading the sketch again for part " + std::to_string(part));
    }
    s = list_part(settings.scheme, games, total, threads, *played->sketch, min_played, range, list_bytes, &listed,
                  &base, [&](uint64_t n) { if (progress) progress(4, part, n); });
    if (!s.ok()) return s;
    summary->seconds_listing += std::chrono::duration<double>(std::chrono::steady_clock::now() - t_list).count();
    const size_t need =
        listed.complete
            ? resident_count_peak_bytes(listed.kept.by_level(), listed.extended.by_level(), db.write_threads())
            : part_bytes * 2;
    // What the range adds to the base's table (which `need` includes; the
    // guard only keeps a wrong estimate from wrapping round).
    const double above = need > base ? double(need - base) : 0.0;
    if (listed.complete) {
      // The base is in every part: with too little room beside it, the
      // parts would be too many (each is two replays of the games).
      const double room = target - double(base);
      const double all = above * space / width;
      if (room <= 0 || all / room > double(kMaxParts)) {
        *fitted = false;
        return Status::OK();
      }
    }
    if (need > part_bytes) {
      // Listed again, smaller.  An incomplete listing says only that it
      // was too big: a quarter then.
      width /= listed.complete ? std::max(2.0, above / (target - double(base))) : 4.0;
      ++summary->part_relists;
      if (width < min_width) {
        *fitted = false;
        return Status::OK();
      }
      continue;
    }
    played->sketch.reset();  // its memory goes to the table
    // Of the listing's memory, what grows with the range: its levels'
    // lists (the rest, the base's lists and the collector's own arrays,
    // is the same for every range; at small budgets it is most of it).
    const size_t range_list_bytes = listed.listed_range_bytes;
    const double list_fixed = double(listed.listed_bytes) - double(std::min(range_list_bytes, listed.listed_bytes));
    {
      // Most walks stop at the split level (another part's): the rings
      // above the next one are spelled only for the walks of this part
      // (~10% faster than keeping every ring up to date).
      ResidentTable table(listed.kept.release(), listed.extended.release());
      table.restrict_to(range);
      std::atomic<uint64_t> positions{0}, candidates{0};
      s = count_resident(settings.scheme, games, total, threads, &table,
                         [&](uint64_t n) { if (progress) progress(2, part, n); }, &positions, &candidates,
                         kSplitLevel + 1, /*share_openings=*/true);
      if (!s.ok()) return s;
      const bool first = lo == 0;
      if (first) {
        summary->positions = positions;
        summary->candidates = candidates;
      }
      // The base is in every part's table; the first part writes it.
      uint64_t pruned = 0;
      std::vector<uint64_t> per_level;
      s = write_resident_counts(db, gen, table, min_played, &pruned, &per_level, first ? 1 : kSplitLevel);
      if (!s.ok()) return s;
      summary->pruned += pruned;
      summary->kept_keys += pruned;
      for (size_t l = 0; l < per_level.size() && l < summary->patterns_per_level.size(); ++l) {
        summary->patterns_per_level[l] += per_level[l];
        summary->kept_keys += per_level[l];
      }
    }
    ++summary->parts;
    lo = hi;
    // The base's share does not shrink with the range.  The next listing
    // must fit too (its lists beside the sketch): an overflowing listing
    // costs a replay, and a quarter of the range after it.
    const double list_grow =
        list_target > list_fixed ? (list_target - list_fixed) / std::max(1.0, double(range_list_bytes)) : 1.0;
    const double grow = std::min((target - double(base)) / std::max(1.0, above), list_grow);
    width *= std::clamp(grow, 0.5, 4.0);
    // The part is in the database (its table files are taken in synced):
    // recorded, a run after a kill starts from the next one.
    PartsProgress done;
    done.gen = gen;
    done.games = db.game_count();
    done.moves = db.move_count();
    done.split_level = kSplitLevel;
    done.done = lo >= space;
    done.next = done.done ? 0 : uint64_t(lo);
    done.width = width;
    done.summary = *summary;
    done.summary.seconds_pass2 =
        pass2_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    s = db.save_count_progress(encode_parts_progress(done));
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace sgfpat

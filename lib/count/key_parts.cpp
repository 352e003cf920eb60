#include "count/key_parts.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/format_version.h"
#include "count/count_budget.h"
#include "count/generation_sink.h"
#include "count/kept_file.h"
#include "count/part_sources.h"
#include "count/record_file.h"
#include "count/sketch_pass.h"
#include "io/atomic_file.h"

namespace sgfpat {

namespace fs = std::filesystem;

namespace {
// Merges the kept files `runs` into `path` and removes them.
Status merge_runs(const std::vector<std::string>& runs, int levels, const std::string& path) {
  Status st = merge_record_files(runs, RecordKind::kKept, levels, path, nullptr, nullptr);
  if (!st.ok()) return st;
  std::error_code ec;
  for (const std::string& run : runs) fs::remove(run, ec);  // a leftover is only disk space
  return Status::OK();
}

// What a kept file was listed for, beside it: a line "sgfpat-kept-listing
// V gen games moves from" (V: kKeptListingFormat's version; the
// generation, the stored games and moves, and where the listing started).
constexpr const char* kListingTag = "sgfpat-kept-listing";

Status save_kept_file_listed(const std::string& path, uint32_t gen, uint64_t games, uint64_t moves, uint64_t from) {
  AtomicFile f;
  Status st = f.open(path);
  if (!st.ok()) return st;
  const std::string text = std::string(kListingTag) + " " + std::to_string(kKeptListingFormat.current) + " " +
                           std::to_string(gen) + " " + std::to_string(games) + " " + std::to_string(moves) + " " +
                           std::to_string(from) + "\n";
  f.write(text.data(), text.size());
  return f.commit();
}

// Whether the kept file that `path` describes serves a count of generation
// `gen` of these games going on from `next` (no file, another version or
// another count: no; the kept set is listed again, which costs time only).
bool kept_file_listed_for(const std::string& path, uint32_t gen, uint64_t games, uint64_t moves, uint64_t next) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return false;
  char tag[32] = {};
  unsigned version = 0;
  unsigned long long g = 0, n = 0, m = 0, from = 0;
  const bool read = std::fscanf(f, "%31s %u %llu %llu %llu %llu", tag, &version, &g, &n, &m, &from) == 6;
  std::fclose(f);
  return read && std::string_view(tag) == kListingTag &&
         check_format_version(kKeptListingFormat, version, path).ok() && g == gen && n == games && m == moves &&
         from <= next;
}

}  // namespace

int kept_merge_fan_in(size_t bytes) {
  return int(std::clamp<size_t>(bytes / kRecordReaderBufferBytes, 3, 33)) - 1;
}

Status list_kept_runs(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                      const CountMinSketch& sketch, unsigned min_played, uint64_t from, size_t max_list_bytes,
                      const std::string& prefix, std::vector<std::string>* runs,
                      const std::function<void(uint64_t)>& progress) {
  const int levels = scheme.levels;
  const size_t L = size_t(levels);
  const PartRange range{from, ~uint64_t(0)};
  KeptCollector collector(levels, /*by_bucket=*/true);
  // The runs so far and how many merges each holds: when the newest
  // fan_in are of one tier, they are merged into one of the next, so that
  // a record is merged about log(runs) times; the lists are empty then, and
  // the merge has their memory.
  const size_t fan_in = size_t(kept_merge_fan_in(max_list_bytes));
  std::vector<int> tiers;
  runs->clear();
  int written = 0;
  auto next_path = [&] { return prefix + ".run-" + std::to_string(++written); };
  auto write_run = [&]() -> Status {
    const std::string run = next_path();
    RecordWriter out;
    Status st = out.open(run, RecordKind::kKept, levels);
    if (!st.ok()) return st;
    write_kept_records(&collector, levels, &out);
    st = out.commit(RecordMeta{});
    if (!st.ok()) return st;
    collector = KeptCollector(levels, /*by_bucket=*/true);
#if defined(__GLIBC__)
    // The lists are thousands of vectors, freed at once: handed back to
    // the system, or the next run's lists grow beside them (tens of MB at
    // a 130 MB collector).
    malloc_trim(0);
#endif
    runs->push_back(run);
    tiers.push_back(0);
    while (tiers.size() >= fan_in &&
           std::all_of(tiers.end() - std::ptrdiff_t(fan_in), tiers.end(), [&](int t) { return t == tiers.back(); })) {
      const std::vector<std::string> group(runs->end() - std::ptrdiff_t(fan_in), runs->end());
      const std::string merged = next_path();
      st = merge_runs(group, levels, merged);
      if (!st.ok()) return st;
      const int tier = tiers.back() + 1;
      runs->resize(runs->size() - fan_in);
      tiers.resize(tiers.size() - fan_in);
      runs->push_back(merged);
      tiers.push_back(tier);
    }
    return Status::OK();
  };
  std::mutex mu;
  Status failed;  // under mu: after a run failed to be written, the other batches are skipped
  Status s = feed_games(
      source, total, threads,
      [&](int, std::vector<std::string>& batch) -> Status {
        {
          std::lock_guard<std::mutex> lock(mu);
          if (!failed.ok()) return failed;
        }
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
          // A move before `from` lists only its base: the levels above the
          // split level need no estimate.
          const uint64_t* k = &keys[m * L];
          const size_t last = L >= size_t(kSplitLevel) && !range.contains(k[kSplitLevel - 1]) ? kSplitLevel : L;
          tops[m] = uint8_t(levels_reaching(sketch, k, int(last), min_played));
        }
        std::lock_guard<std::mutex> lock(mu);
        if (!failed.ok()) return failed;
        for (size_t m = 0; m < moves; ++m) {
          const uint64_t* k = &keys[m * L];
          const bool listed = tops[m] >= kSplitLevel && range.contains(k[kSplitLevel - 1]);
          collector.add_move(k, tops[m], listed ? levels : kSplitLevel - 1);
        }
        if (collector.bytes() > max_list_bytes) failed = write_run();
        return failed;
      },
      progress);
  if (s.ok()) s = write_run();
  return s;
}

Status merge_kept_runs(std::vector<std::string> runs, int levels, size_t bytes, const std::string& path) {
  const size_t fan_in = size_t(kept_merge_fan_in(bytes));
  int written = 0;
  while (runs.size() > fan_in) {
    const std::vector<std::string> group(runs.begin(), runs.begin() + std::ptrdiff_t(fan_in));
    const std::string merged = path + ".merged-" + std::to_string(++written);
    Status st = merge_runs(group, levels, merged);
    if (!st.ok()) return st;
    runs.erase(runs.begin(), runs.begin() + std::ptrdiff_t(fan_in));
    runs.push_back(merged);
  }
  if (runs.size() == 1) {
    std::error_code ec;
    fs::rename(runs.front(), path, ec);
    if (ec) return Status::IOError("cannot rename " + runs.front() + " to " + path + ": " + ec.message());
    return Status::OK();
  }
  return merge_runs(runs, levels, path);
}

Status count_in_parts(PatternDb& db, uint32_t gen, PlayedSketch* played, const std::string& sketch_path, int threads,
                      size_t budget_bytes, const PartsProgress* resume,
                      const std::function<void(CountStep, int, uint64_t)>& progress, CountSummary* summary) {
  const auto t_start = std::chrono::steady_clock::now();
  const DbSettings& settings = db.settings();
  const int levels = settings.scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  // The parts' tallies are kept in *summary: parts, kept_keys (patterns
  // counted, reported and pruned), pruned.
  uint64_t from = 0;
  if (resume) {  // the tallies so far are in *summary (its precondition)
    summary->patterns_per_level.resize(size_t(levels), 0);
    if (resume->done) return Status::OK();
    from = resume->next;
  } else {
    summary->patterns_per_level.assign(size_t(levels), 0);
    summary->parts = summary->part_relists = summary->kept_keys = summary->pruned = 0;
    summary->seconds_listing = 0;
  }
  const double pass2_before = resume ? summary->seconds_pass2 : 0.0;  // the interrupted runs' time
  // Every part replays the games by opening (their first positions
  // shared); the order's fingerprints stay for all the parts.
  std::vector<Fingerprint> order;
  Status s = games_by_opening(db, &order);
  if (!s.ok()) return s;
  CountBudget budget(budget_bytes);
  budget.hold(order.size() * sizeof(Fingerprint));
  const GameSource games = games_in(db, order);
  const uint64_t total = order.size();

  // The kept file.  A run killed after its listing leaves it whole (its
  // name is given at the end of its writing), and the next run of the same
  // count takes it up, as long as the listing started at or before where
  // that run goes on: at millions of games the listing is a quarter of an
  // hour.  Anything else in the folder was left by a kill, and goes.
  const std::string dir = sketch_path + ".parts";
  const std::string kept_path = dir + "/kept", listed_path = dir + "/kept.listed";
  const bool reuse = resume && fs::exists(kept_path) &&
                     kept_file_listed_for(listed_path, gen, db.game_count(), db.move_count(), from);
  std::error_code ec;
  if (!reuse) {
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    if (ec) return Status::IOError("cannot make the folder " + dir + ": " + ec.message());
  }
  struct RemoveDir {
    std::string dir;
    ~RemoveDir() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);  // a leftover is only disk space, removed by the next count
    }
  } remove_dir{dir};

  if (reuse) {
    played->sketch.reset();  // not asked: its memory goes to the tables
  } else {
    // The listing: its lists share the memory with the sketch, which the
    // parts' tables do not (it is freed by then).
    if (!played->sketch) {
      s = load_played_sketch(sketch_path, int(min_played), played);
      if (!s.ok()) return s.with_context("loading the sketch of pass 1 for the listing");
    }
    const auto t_list = std::chrono::steady_clock::now();
    std::vector<std::string> runs;
    s = list_kept_runs(settings.scheme, games, total, threads, *played->sketch, min_played, from,
                       budget.listing_list_bytes(played->sketch->bytes()), kept_path, &runs, [&](uint64_t n) {
                         if (progress) progress(CountStep::kListing, int(summary->parts) + 1, n);
                       });
    if (!s.ok()) return s;
    played->sketch.reset();  // its memory goes to the merge, then the tables
    s = merge_kept_runs(std::move(runs), levels, budget.left(), kept_path);
    if (!s.ok()) return s;
    s = save_kept_file_listed(listed_path, gen, db.game_count(), db.move_count(), from);
    if (!s.ok()) return s;
    summary->seconds_listing += std::chrono::duration<double>(std::chrono::steady_clock::now() - t_list).count();
  }
  KeptFileSizes sizes;
  s = measure_kept_file(kept_path, levels, &sizes);
  if (!s.ok()) return s;

  // The parts: runs of buckets from where the count stands, each as many
  // as fit beside the base, counted into the generation one after the
  // other, each recorded when written.
  std::vector<Part> parts;
  s = plan_parts(sizes, levels, int(from >> (64 - kPartBucketBits)), kPartBuckets - 1, from, budget.table_room(),
                 db.write_threads(), int(summary->parts) + 1, &parts);
  if (!s.ok()) return s;
  KeptFileParts source(kept_path, sizes, levels, std::move(parts));
  GenerationSink sink(db, gen, summary);
  sink.record_parts(pass2_before, t_start);
  CountRun run;
  run.scheme = &settings.scheme;
  run.games = games;
  run.total = total;
  run.threads = threads;
  run.progress = [&](const Part& part, uint64_t n) {
    if (progress) progress(CountStep::kExact, part.number, n);
  };
  return count_parts(run, &source, &sink);
}

}  // namespace sgfpat

#include "count/night.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <span>

#include "core/fail_point.h"
#include "core/tasks.h"
#include "count/candidate_counter.h"
#include "count/count_games.h"
#include "count/entry_buckets.h"
#include "count/frontier.h"
#include "count/frontier_build.h"
#include "count/kept_keys.h"
#include "count/night_table.h"
#include "count/record_file.h"
#include "io/atomic_file.h"
#include "store/edit_run.h"

namespace sgfpat {

namespace fs = std::filesystem;

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

using Key = std::pair<int, uint64_t>;  // (level, pattern key)
using MoveId = std::pair<uint64_t, uint32_t>;  // (game, number)

// Bits a key of K's filter: at 10 about 1% of the patterns K lacks pass, at
// 16 a tenth of that; below 4 (a seventh pass, and walk on) a night is not
// worth making.
constexpr uint64_t kMinFilterBits = 4, kMaxFilterBits = 16;

// What the crossing holds for each of its moves' frontier entries (the
// entry and its move's keys, F's entries under the same pattern, a
// replayed move's keys, the pattern when it joins): about 300-450 bytes
// an entry measured on a night where most moves' patterns join (8
// symmetric copies of each game); a part is at least one bucket.
constexpr uint64_t kCrossingBytesPerEntry = 512;

// Writes a part's pending and frontier edits (sorted here) as runs
// "<prefix>.pending" and "<prefix>.frontier", named in *edits.
Status write_part_runs(PatternDb::NightEdits* part, const std::string& prefix, PatternDb::NightEdits* edits) {
  std::sort(part->pending_put.begin(), part->pending_put.end(),
            [](const PendingPattern& a, const PendingPattern& b) { return Key{a.level, a.key} < Key{b.level, b.key}; });
  std::sort(part->frontier_put.begin(), part->frontier_put.end());
  std::sort(part->frontier_deleted.begin(), part->frontier_deleted.end());
  if (!part->pending_put.empty()) {
    EditRunWriter run;
    Status s = run.open(prefix + ".pending");
    if (!s.ok()) return s;
    for (const PendingPattern& p : part->pending_put) add_pending_edit(&run, p);
    s = run.finish();
    if (!s.ok()) return s;
    edits->pending_runs.push_back(prefix + ".pending");
  }
  if (!part->frontier_put.empty() || !part->frontier_deleted.empty()) {
    EditRunWriter run;
    Status s = run.open(prefix + ".frontier");
    if (!s.ok()) return s;
    // Disjoint: a move put is tonight's, a move deleted F's.
    const auto& put = part->frontier_put;
    const auto& del = part->frontier_deleted;
    size_t i = 0, j = 0;
    while (i < put.size() || j < del.size()) {
      if (j == del.size() || (i < put.size() && put[i] < del[j]))
        add_frontier_edit(&run, put[i++], true);
      else
        add_frontier_edit(&run, del[j++], false);
    }
    s = run.finish();
    if (!s.ok()) return s;
    edits->frontier_runs.push_back(prefix + ".frontier");
  }
  return Status::OK();
}

Status full_instead(PatternDb& db, const CountOptions& options, CountSummary* summary, std::string* reason,
                    const std::string& why) {
  *reason = why;
  return recount(db, options, summary);
}

// The keys of every level of moves: tonight's known from the replay that
// listed their frontiers, stored ones replayed, each game once (up to its
// last move asked for), games side by side on `threads` threads (a game
// found by its prefix).
class MoveChains {
 public:
  // progress(games replayed, games to replay) after each slice of a fill.
  MoveChains(PatternDb& db, const KeyScheme& scheme, int threads, std::function<void(uint64_t, uint64_t)> progress)
      : db_(db), scheme_(scheme), threads_(threads), progress_(std::move(progress)) {}

  // Moves whose keys are known without a replay (tonight's, from the
  // replay that listed their frontiers): keys[i * levels ...] for moves[i].
  void know(const std::vector<FrontierEntry>& moves, std::vector<uint64_t> keys) {
    known_keys_ = std::move(keys);
    known_.clear();
    for (size_t i = 0; i < moves.size(); ++i) known_.push_back({{moves[i].move.game, moves[i].move.number}, i});
    std::sort(known_.begin(), known_.end());
  }

  // Replays what `moves` need that is not known yet.
  Status fill(const std::vector<StoredMove>& moves) {
    std::map<uint64_t, std::vector<uint32_t>> wanted;
    for (const StoredMove& m : moves)
      if (!has(m)) wanted[m.game].push_back(m.number);
    std::vector<std::pair<uint64_t, std::vector<uint32_t>>> games(wanted.begin(), wanted.end());
    wanted.clear();
    std::vector<std::vector<std::vector<uint64_t>>> keys(games.size());
    constexpr size_t kChunk = 256;  // games a task replays
    // In slices of chunks, the progress said between them (from this thread).
    const size_t chunks = (games.size() + kChunk - 1) / kChunk, per_slice = size_t(threads_) * 8;
    std::vector<Status> done;
    for (size_t from = 0; from < chunks; from += per_slice) {
      const size_t slice = std::min(per_slice, chunks - from);
      std::vector<Status> part = run_tasks(
          slice, threads_,
          [&](size_t c) {
            std::string record;
            PlayedKeysAt replay(scheme_);
            const size_t first = (from + c) * kChunk;
            for (size_t i = first; i < std::min(games.size(), first + kChunk); ++i) {
              auto& [game, numbers] = games[i];
              std::sort(numbers.begin(), numbers.end());
              numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
              Status st = record_of(game, &record);
              if (!st.ok()) return st;
              st = replay.keys(record, numbers, &keys[i]);
              if (!st.ok()) return st.with_context("replaying a stored move of the frontier index");
            }
            return Status::OK();
          },
          "replaying stored moves of the frontier index");
      done.insert(done.end(), part.begin(), part.end());
      if (progress_) progress_(std::min(games.size(), (from + slice) * kChunk), games.size());
    }
    // Two games sharing a prefix send the night to a full count: that
    // answer first, whatever else a task met.
    for (const Status& st : done)
      if (st.is_not_supported()) return st;
    for (const Status& st : done)
      if (!st.ok()) return st;
    for (size_t i = 0; i < games.size(); ++i)
      for (size_t j = 0; j < games[i].second.size(); ++j)
        chains_[{games[i].first, games[i].second[j]}] = std::move(keys[i][j]);
    games_replayed_ += games.size();
    return Status::OK();
  }
  // The keys of every level of a move known or that fill() saw.
  std::span<const uint64_t> chain(const StoredMove& m) const {
    const MoveId id{m.game, m.number};
    auto k = std::lower_bound(known_.begin(), known_.end(), std::make_pair(id, size_t(0)));
    if (k != known_.end() && k->first == id)
      return std::span(known_keys_).subspan(k->second * size_t(scheme_.levels), size_t(scheme_.levels));
    return chains_.at(id);
  }
  // The key of `level` of such a move.
  uint64_t key(const StoredMove& m, int level) const { return chain(m)[size_t(level - 1)]; }
  bool has(const StoredMove& m) const {
    const MoveId id{m.game, m.number};
    auto k = std::lower_bound(known_.begin(), known_.end(), std::make_pair(id, size_t(0)));
    return (k != known_.end() && k->first == id) || chains_.count(id) > 0;
  }
  uint64_t games_replayed() const { return games_replayed_; }

 private:
  Status record_of(uint64_t game, std::string* record) {
    int found = 0;
    Status st = db_.games_with_prefix(game, [&](const Fingerprint&, std::string_view rec) {
      *record = std::string(rec);
      return ++found < 2;
    });
    if (!st.ok()) return st;
    if (found == 0)
      return Status::Corruption("database " + db_.path() +
                                ": the frontier index names a game that is not stored (run `sgfpat repair --db " +
                                db_.path() + "`)");
    if (found > 1) return Status::NotSupported("two stored games share the first 8 bytes of their fingerprints");
    return Status::OK();
  }

  PatternDb& db_;
  const KeyScheme& scheme_;
  int threads_;
  std::function<void(uint64_t, uint64_t)> progress_;
  std::map<MoveId, std::vector<uint64_t>> chains_;
  std::vector<std::pair<MoveId, size_t>> known_;  // sorted: where a known move's keys are
  std::vector<uint64_t> known_keys_;
  uint64_t games_replayed_ = 0;
};

// Step 3: the frontiers of the night's moves, against F.
//
// A frontier whose plays reach min_played joins P; the level above it is
// decided among the same moves (any other play of a pattern above it plays
// it too), and so on up.  A move's key of the level above its frontier is
// stored with it (FrontierEntry::above), so a night replays a stored game
// only for a move whose entry lacks it (a move an earlier night moved up)
// or that climbs two levels; tonight's moves come with the keys of every
// level (the smaller levels of a joined frontier, which P keeps, from one
// of them).
class Crossing {
 public:
  Crossing(const KeyScheme& scheme, unsigned min_played, int64_t now, MoveChains* chains, PatternDb::NightEdits* edits,
           std::map<Key, PendingPattern>* pending)
      : levels_(scheme.levels), min_played_(min_played), now_(now), chains_(chains), edits_(edits), pending_(pending) {}

  // The night's frontier entries (sorted) with F's entries under the same
  // patterns (sorted).
  Status run(const std::vector<FrontierEntry>& tonight, const std::vector<FrontierEntry>& stored) {
    std::vector<Group> round;
    size_t t = 0, s = 0;
    while (t < tonight.size()) {
      Group g;
      g.level = tonight[t].level;
      g.key = tonight[t].key;
      const Key k{g.level, g.key};
      for (; t < tonight.size() && Key{tonight[t].level, tonight[t].key} == k; ++t) g.moves.push_back(tonight[t]);
      const size_t new_moves = g.moves.size();
      while (s < stored.size() && Key{stored[s].level, stored[s].key} < k) ++s;
      for (; s < stored.size() && Key{stored[s].level, stored[s].key} == k; ++s) g.moves.push_back(stored[s]);
      if (g.moves.size() < min_played_) {
        // Still outside: the night's moves are indexed under it too.
        for (size_t i = 0; i < new_moves; ++i) edits_->frontier_put.push_back(g.moves[i]);
        continue;
      }
      for (size_t i = new_moves; i < g.moves.size(); ++i) edits_->frontier_deleted.push_back(g.moves[i]);
      round.push_back(std::move(g));
    }
    // The first round: the joined frontiers' chains from one of tonight's
    // moves each, their next level from what F stored.
    std::vector<StoredMove> replay;
    for (const Group& g : round) {
      replay.push_back(g.moves.front().move);
      if (g.level < levels_)
        for (const FrontierEntry& m : g.moves)
          if (m.above == 0) replay.push_back(m.move);
    }
    Status st = chains_->fill(replay);
    if (!st.ok()) return st;
    std::vector<Group> next;
    for (Group& g : round) {
      const std::span<const uint64_t> c = chains_->chain(g.moves.front().move);
      g.chain.assign(c.begin(), c.begin() + (g.level - 1));
      join(g);
      climb(g, &next);
    }
    // Further rounds: moves that climbed two levels or more, replayed.
    while (!next.empty()) {
      round.swap(next);
      next.clear();
      replay.clear();
      for (const Group& g : round)
        for (const FrontierEntry& m : g.moves) replay.push_back(m.move);
      st = chains_->fill(replay);
      if (!st.ok()) return st;
      for (const Group& g : round) {
        join(g);
        climb(g, &next);
      }
    }
    return Status::OK();
  }

 private:
  // Moves with the same pattern of `level`, and the keys of the pattern's
  // smaller levels.
  struct Group {
    int level = 0;
    uint64_t key = 0;
    std::vector<FrontierEntry> moves;
    std::vector<uint64_t> chain;
  };

  void join(const Group& g) {
    PendingPattern p;
    p.level = g.level;
    p.key = g.key;
    p.played = g.moves.size();
    for (const FrontierEntry& m : g.moves) p.wins += m.move.won;
    p.joined = now_;
    p.chain = g.chain;
    (*pending_)[{g.level, g.key}] = std::move(p);
    ++joined_;
  }
  // The level above the joined group `g`: its patterns that reach
  // min_played go to *next, the others' moves are indexed under them.
  void climb(const Group& g, std::vector<Group>* next) {
    const int level = g.level + 1;
    if (level > levels_) return;  // in K or P at every level: no frontier
    std::map<uint64_t, std::vector<FrontierEntry>> by_key;
    for (const FrontierEntry& m : g.moves) {
      const bool replayed = chains_->has(m.move);
      const uint64_t key = m.level == g.level && m.above != 0 ? m.above : chains_->key(m.move, level);
      FrontierEntry up{level, key, m.move, 0};
      // Its level above, when the replay gave it (else a later night that
      // needs it replays the game).
      if (replayed && level < levels_) up.above = chains_->key(m.move, level + 1);
      by_key[key].push_back(up);
    }
    for (auto& [key, moves] : by_key) {
      if (moves.size() >= min_played_) {
        Group up{level, key, std::move(moves), g.chain};
        up.chain.push_back(g.key);
        next->push_back(std::move(up));
      } else {
        edits_->frontier_put.insert(edits_->frontier_put.end(), moves.begin(), moves.end());
      }
    }
  }

  int levels_;
  unsigned min_played_;
  int64_t now_;
  MoveChains* chains_;
  PatternDb::NightEdits* edits_;
  std::map<Key, PendingPattern>* pending_;

 public:
  uint64_t joined_ = 0;
};

}  // namespace

// count_night() but for the exceptions its allocations may throw.
static Status count_night_unguarded(PatternDb& db, const CountOptions& options, CountSummary* summary,
                                    std::string* full_reason) {
  const CountSummary previous = db.summary();
  *summary = CountSummary{};
  full_reason->clear();
  const DbSettings& settings = db.settings();
  const KeyScheme& scheme = settings.scheme;
  const int threads = std::max(1, options.threads);
  const int levels = scheme.levels;
  const unsigned min_played = unsigned(settings.min_played);
  auto progress = [&](CountStep step, uint64_t total) {
    return [&, step, total](uint64_t done) {
      if (options.progress) options.progress({step, done, total});
    };
  };

  // A killed night's scratch goes first, whatever this one does (this
  // one's is made at step 2, and goes when it ends).
  const std::string scratch = db.path() + "/night.scratch";
  {
    std::error_code ec;
    fs::remove_all(scratch, ec);
    if (ec) return Status::IOError("removing " + scratch + ": " + ec.message());
  }

  // ---- 1: K, P, the night's games, F ----
  auto t0 = Clock::now();
  uint64_t reported = 0;
  for (uint64_t n : previous.patterns_per_level) reported += n;
  // K as a filter in a quarter of the budget (count/kept_keys.h); its exact
  // keys only to build F, by groups of levels that fit half of it.
  const size_t half = options.memory_budget / 2;
  const uint64_t bits = reported ? uint64_t(half / 2) * 8 / reported : kMaxFilterBits;
  if (bits < kMinFilterBits)
    return full_instead(db, options, summary, full_reason,
                        "the kept patterns do not fit the memory budget even as a filter");
  const unsigned filter_bits = unsigned(std::min<uint64_t>(bits, kMaxFilterBits));
  KeyFilter filter(levels);
  KeyHashSet pend(levels);
  Status s;
  // P's keys only: the entries the night's plays change are read again
  // at the crossing (P grows between catch-ups; its chains are not needed).
  uint64_t pending_count = 0;
  s = db.for_each_pending_pattern([&](const PendingPattern& p) {
    if (p.level >= 1 && p.level <= levels) {
      pend.insert(p.level, p.key);
      ++pending_count;
    }
    return true;
  });
  if (!s.ok()) return s;
  std::vector<Fingerprint> night_fps;
  std::set<uint64_t> night_prefixes;
  s = db.for_each_pending_game([&](const Fingerprint& fp, std::string_view) {
    night_fps.push_back(fp);
    night_prefixes.insert(game_prefix(fp));
    return true;
  });
  if (!s.ok()) return s;
  // F names a game by the first 8 bytes of its fingerprint: a night's game
  // that shares them with another stored game could not be told apart.
  bool shared_prefix = night_prefixes.size() != night_fps.size();
  for (auto it = night_prefixes.begin(); !shared_prefix && it != night_prefixes.end(); ++it) {
    int found = 0;
    s = db.games_with_prefix(*it, [&](const Fingerprint&, std::string_view) { return ++found < 2; });
    if (!s.ok()) return s;
    shared_prefix = found > 1;
  }
  if (shared_prefix)
    return full_instead(db, options, summary, full_reason,
                        "two stored games share the first 8 bytes of their fingerprints");
  const uint64_t night = night_fps.size();
  const uint64_t counted = db.game_count() - night;
  const GameSource night_games = [&](const GameVisitor& v) { return db.for_each_pending_game(v); };
  // F as the last night left it, else built: the first night after a full
  // count, or an index that lost a table file (an index: made again from
  // K, P and the counted games, exactly).
  uint64_t indexed_moves = previous.frontier_entries;
  uint64_t frontier_passes = 0;  // replays of the counted games that built F
  bool frontier_ok = db.frontier_generation() == db.generation();
  if (frontier_ok && indexed_moves > 0 && !db.check_frontier_present(indexed_moves).ok()) frontier_ok = false;
  std::sort(night_fps.begin(), night_fps.end());
  if (!frontier_ok) {
    // F of the counted games (in the same order at every pass of its build).
    const GameSource counted_games = [&](const GameVisitor& v) {
      return db.for_each_game([&](const Fingerprint& fp, std::string_view rec) {
        return std::binary_search(night_fps.begin(), night_fps.end(), fp) ? true : v(fp, rec);
      });
    };
    uint64_t entries = 0;
    s = build_frontier(db, counted_games, counted, pend, threads, half, options.night_in_smallest_parts,
                       [&](uint64_t done, uint64_t total) {
                         if (options.progress) options.progress({CountStep::kFrontier, done, total});
                       },
                       &entries, &frontier_passes);
    if (s.is_not_supported()) return full_instead(db, options, summary, full_reason, s.message());
    if (!s.ok()) return s;
    indexed_moves = entries;
  }
  s = load_kept_filter(db, filter_bits, threads, &filter);
  if (!s.ok()) return s;
  summary->seconds_listing = since(t0);

  // ---- 2: the night's games: K's counts, frontiers, P's plays ----
  t0 = Clock::now();
  // The night's scratch (runs of its counts and edits, its moves'
  // frontiers by bucket) in the database's folder, gone when it ends.
  std::error_code ec;
  fs::create_directories(scratch, ec);
  if (ec) return write_error_status(ec.value(), "making " + scratch);
  struct RemoveScratch {
    std::string dir;
    ~RemoveScratch() {
      std::error_code e;
      fs::remove_all(dir, e);
    }
  } remove_scratch{scratch};
  std::vector<Fingerprint> order;
  s = games_by_opening(night_games, night, &order);
  if (!s.ok()) return s;
  // A thread's table that outgrows its share of a quarter of the budget
  // goes to a sorted run of counts (count/record_file.h), summed with the
  // others at the end: a night of many games counts in what it is given.
  const size_t table_share =
      options.night_in_smallest_parts ? 0 : std::max<size_t>(half / 2 / size_t(threads), size_t(1) << 20);
  std::vector<std::string> count_runs;
  std::mutex runs_mu;
  auto write_count_run = [&](const NightTable& table) -> Status {
    std::string path;
    {
      std::lock_guard<std::mutex> lock(runs_mu);
      path = scratch + "/counted-" + std::to_string(count_runs.size());
      count_runs.push_back(path);
    }
    RecordWriter out;
    Status st = out.open(path, RecordKind::kCounts, levels);
    if (!st.ok()) return st;
    for (const auto& [level, key, c] : NightTable::sorted_counts(std::span(&table, 1)))
      out.add(ShardRecord{level, key, 0, 0, c});
    return out.commit(RecordMeta{});
  };
  std::vector<NightTable> tables;
  for (int t = 0; t < threads; ++t) tables.push_back(NightTable{filter});
  std::atomic<uint64_t> positions{0}, candidates{0};
  s = feed_games(
      games_in(db, order), night, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        NightTable& table = tables[size_t(t)];
        CandidateCounter<NightTable> counter(scheme, &table);
        Status st = count_batch_shared(batch, &counter);
        if (!st.ok()) return st;
        positions += counter.positions();
        candidates += counter.candidates();
        if (table.bytes() > table_share) {
          st = write_count_run(table);
          table = NightTable{filter};
        }
        return st;
      },
      progress(CountStep::kExact, night));
  if (!s.ok()) return s;
  // Through the filter, patterns K lacks were counted too: they go, and the
  // kept ones are K's counts the night adds (a run of edits).  Those of
  // them played tonight are all a frontier walk asks of K (it walks the
  // played points, whose patterns the counting walks touched up to their
  // first level outside K).
  PatternDb::NightEdits edits;
  const uint32_t gen = db.generation();
  KeyHashSet kept(levels);
  uint64_t filter_dropped = 0;
  EditRunWriter counts_run;
  s = counts_run.open(scratch + "/counts");
  if (!s.ok()) return s;
  auto take_kept = [&](LevelCounts* counts) -> Status {
    uint64_t dropped = 0;
    Status st = keep_only_kept(db, threads, counts, &dropped);
    if (!st.ok()) return st;
    filter_dropped += dropped;
    for (const auto& [level, key, c] : *counts) {
      add_counts_edit(&counts_run, gen, level, key, c);
      if (c.played > 0) kept.insert(level, key);
    }
    LevelCounts().swap(*counts);
    return Status::OK();
  };
  if (count_runs.empty()) {
    LevelCounts all = NightTable::sorted_counts(tables);
    std::vector<NightTable>().swap(tables);
    filter = KeyFilter{};
    s = take_kept(&all);
  } else {
    // The runs summed, a level at a time against K.
    for (const NightTable& t : tables) {
      s = write_count_run(t);
      if (!s.ok()) return s;
    }
    std::vector<NightTable>().swap(tables);
    filter = KeyFilter{};
    LevelCounts level;
    RecordMeta meta;
    s = merge_records(
        count_runs, RecordKind::kCounts, levels,
        [&](const ShardRecord& r) -> Status {
          if (!level.empty() && std::get<0>(level.back()) != r.level) {
            Status st = take_kept(&level);
            if (!st.ok()) return st;
          }
          level.emplace_back(r.level, r.key, r.counts);
          return Status::OK();
        },
        &meta);
    if (s.ok()) s = take_kept(&level);
  }
  if (!s.ok()) return s;
  s = counts_run.finish();
  if (!s.ok()) return s;
  edits.counts_runs.push_back(scratch + "/counts");
  // The moves' frontiers and plays of P, to files by bucket: a night of
  // millions of moves crosses them a part at a time.
  // Each frontier entry with its move's keys of every level: the crossing
  // then replays none of tonight's games (a part at a time, it would replay
  // most of them at every part).
  EntryBuckets fronts(scratch + "/frontier", threads, size_t(levels)), plays(scratch + "/plays", threads);
  s = feed_games(
      games_in(db, order), night, threads,
      [&](int t, std::vector<std::string>& batch) -> Status {
        std::vector<FrontierEntry> f, p;
        std::vector<uint64_t> keys;
        Status st = frontier_entries(scheme, batch, kept, &f, &pend, &p, nullptr, &keys);
        if (st.ok()) st = fronts.add(t, f, keys);
        if (st.ok()) st = plays.add(t, p);
        return st;
      },
      {});
  if (s.ok()) s = fronts.flush();
  if (s.ok()) s = plays.flush();
  if (!s.ok()) return s;
  kept = KeyHashSet(levels);
  pend = KeyHashSet(levels);  // the crossing has P's plays: its keys are not asked again
  summary->seconds_pass2 = since(t0);

  // ---- 3: frontiers that reach min_played join P, a part at a time ----
  t0 = Clock::now();
  if (options.progress) options.progress({CountStep::kCrossing, 0, 0});
  const int64_t now = int64_t(std::time(nullptr));
  // Parts: runs of buckets whose entries' crossing fits half the budget.
  // The moves of a joined frontier and of every level it climbs to are
  // the moves under the frontier's key, all in its bucket: parts cross
  // apart.
  std::array<uint64_t, kPartBuckets> entries{};
  for (int b = 0; b < kPartBuckets; ++b) entries[size_t(b)] = fronts.size(b) + plays.size(b);
  const std::vector<std::pair<int, int>> parts =
      bucket_runs(entries, half / kCrossingBytesPerEntry, options.night_in_smallest_parts);
  uint64_t joined_total = 0, replayed_total = 0, frontier_put = 0, frontier_deleted = 0;
  uint64_t progress_base = 0;  // games the earlier parts replayed
  for (size_t pi = 0; pi < parts.size(); ++pi) {
    std::vector<FrontierEntry> tonight, played;
    std::vector<uint64_t> tonight_keys;
    for (int b = parts[pi].first; b <= parts[pi].second; ++b) {
      s = fronts.read(b, &tonight, &tonight_keys);
      if (s.ok()) s = plays.read(b, &played);
      if (!s.ok()) return s;
    }
    MoveChains chains(db, scheme, threads, [&](uint64_t done, uint64_t total) {
      if (options.progress) options.progress({CountStep::kCrossing, progress_base + done, progress_base + total});
    });
    chains.know(tonight, std::move(tonight_keys));
    std::sort(tonight.begin(), tonight.end());
    PatternDb::NightEdits part;
    std::map<Key, PatternCounts> played_pending;  // the night's plays of P's patterns
    for (const FrontierEntry& e : played) {
      PatternCounts& c = played_pending[{e.level, e.key}];
      ++c.played;
      c.wins += e.move.won;
    }
    std::vector<FrontierEntry>().swap(played);
    if (!played_pending.empty()) {
      s = db.for_each_pending_pattern([&](const PendingPattern& p) {
        auto it = played_pending.find({p.level, p.key});
        if (it != played_pending.end()) {
          PendingPattern now = p;
          now.played += it->second.played;
          now.wins += it->second.wins;
          part.pending_put.push_back(std::move(now));
        }
        return true;
      });
      if (!s.ok()) return s;
      if (part.pending_put.size() != played_pending.size())
        return Status::Corruption("database " + db.path() + ": a pending pattern went missing during the night");
    }
    std::vector<Key> keys;
    for (const FrontierEntry& e : tonight)
      if (keys.empty() || keys.back() != Key{e.level, e.key}) keys.push_back({e.level, e.key});
    // The stored moves under them: a seek each (1.7M at 606k games), in
    // parts of the sorted keys side by side, each part's moves kept apart
    // and joined in key order.
    std::vector<FrontierEntry> stored;
    {
      const size_t n = std::min<size_t>(keys.size(), size_t(threads) * 4);
      std::vector<std::vector<FrontierEntry>> found(n);
      for (const Status& st : run_tasks(
               n, threads,
               [&](size_t i) {
                 const size_t from = keys.size() * i / n, to = keys.size() * (i + 1) / n;
                 return db.frontier_moves(std::span(keys).subspan(from, to - from), [&](const FrontierEntry& e) {
                   found[i].push_back(e);
                   return true;
                 });
               },
               "reading the frontier index"))
        if (!st.ok()) return st;
      for (auto& f : found) stored.insert(stored.end(), f.begin(), f.end());
    }
    std::vector<Key>().swap(keys);
    std::map<Key, PendingPattern> joined;
    Crossing crossing(scheme, min_played, now, &chains, &part, &joined);
    s = crossing.run(tonight, stored);
    if (s.is_not_supported()) return full_instead(db, options, summary, full_reason, s.message());
    if (!s.ok()) return s;
    progress_base += chains.games_replayed();
    replayed_total += chains.games_replayed();
    joined_total += crossing.joined_;
    // Joined patterns are new to P (K and P hold the smaller patterns of
    // each of theirs, and a frontier is in neither).
    for (auto& [k, p] : joined) part.pending_put.push_back(std::move(p));
    std::map<Key, PendingPattern>().swap(joined);
    s = write_part_runs(&part, scratch + "/part-" + std::to_string(pi), &edits);
    if (!s.ok()) return s;
    frontier_put += part.frontier_put.size();
    frontier_deleted += part.frontier_deleted.size();
    fail_point("night.part_crossed");
  }
  summary->joined_patterns = joined_total;
  summary->replayed_games = replayed_total;
  summary->seconds_crossing = since(t0);

  // ---- 4: one commit ----
  t0 = Clock::now();
  if (options.progress) options.progress({CountStep::kCommit, 0, 0});
  CountSummary next = previous;
  next.games = counted + night;
  next.new_games = night;
  next.positions = previous.positions + positions.load();
  next.candidates = previous.candidates + candidates.load();
  next.mode = CountMode::kNight;
  next.nights = previous.nights + 1;
  next.pending_patterns = pending_count + joined_total;
  // Every put is a new key, every deleted one was there (0: not known).
  next.frontier_entries =
      indexed_moves + frontier_put > frontier_deleted ? indexed_moves + frontier_put - frontier_deleted : 0;
  next.parts = next.part_relists = next.resumed_parts = 0;  // the last full count's
  next.seconds_listing = summary->seconds_listing;
  next.seconds_pass1 = 0;
  next.seconds_pass2 = summary->seconds_pass2;
  next.seconds_crossing = summary->seconds_crossing;
  next.joined_patterns = summary->joined_patterns;
  next.replayed_games = summary->replayed_games;
  next.kept_filter_bits = filter_bits;
  next.filter_dropped = filter_dropped;
  next.frontier_passes = frontier_passes;
  next.crossing_parts = parts.size();
  edits.counted_games = night_fps;
  edits.summary = next;
  fail_point("night.before_commit");
  s = db.commit_night(edits);
  if (!s.ok()) return s;
  *summary = next;
  summary->seconds_commit = since(t0);
  return Status::OK();
}

Status count_night(PatternDb& db, const CountOptions& options, CountSummary* summary, std::string* full_reason) {
  try {
    return count_night_unguarded(db, options, summary, full_reason);
  } catch (...) {  // the tables' allocations (bad_alloc, length_error)
    return status_from_exception("counting");
  }
}

}  // namespace sgfpat

#include "train/game_sample.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <queue>
#include <unordered_map>

#include "board/replay.h"
#include "features/position_features.h"
#include "pattern/tracking_observer.h"
#include "store/game_record.h"

namespace sgfpat {

namespace {
constexpr int G = TrainingSet::kGroups;

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t sample_hash(const Fingerprint& fp, uint64_t seed) {
  uint64_t a, b;
  std::memcpy(&a, fp.data(), 8);
  std::memcpy(&b, fp.data() + 8, 8);
  return mix64(a ^ mix64(b ^ mix64(seed + 0x9e3779b97f4a7c15ULL)));
}

// Every position of one game: its candidates' keys and tactical features.
struct GameCollector : TrackingObserver {
  int top;
  bool allow_suicide = false;
  RecentMoves recent;
  sgfpat_priors::Tactics tactics;
  std::vector<uint64_t> keys;      // candidate c's level-l key at keys[c * top + l - 1]
  std::vector<uint8_t> levels;     // candidate c's groups at levels[c * G ..]
  std::vector<uint32_t> first{0};  // position p: candidates first[p] .. first[p+1]-1
  std::vector<uint32_t> played;

  GameCollector(const KeyScheme& scheme, int top_level) : TrackingObserver(scheme), top(top_level) {}
  void start(int size, bool suicide) {
    start_game(size);
    allow_suicide = suicide;
    recent = RecentMoves{};
    keys.clear();
    levels.clear();
    first.assign(1, 0);
    played.clear();
  }
  void before_move(const Board& board, Color mover, Point move, int) override {
    if (move.is_pass()) {
      recent.push(move);
      return;
    }
    setup_tactics(board, mover, recent, &tactics);
    recent.push(move);
    const uint32_t begin = first.back();
    int64_t mine = -1;
    for (int y = 0; y < board.size(); ++y)
      for (int x = 0; x < board.size(); ++x) {
        const Point p{int8_t(x), int8_t(y)};
        const int idx = board.index(p);
        if (!board.is_legal_index(idx, mover, allow_suicide)) continue;
        if (p == move) mine = int64_t(levels.size() / G) - begin;
        keys.resize(keys.size() + size_t(top));
        uint64_t* k = &keys[keys.size() - size_t(top)];
        tracker.walk(idx, mover, [&](int level, uint64_t key) {
          k[level - 1] = key;
          return true;
        }, top);
        levels.resize(levels.size() + G);
        tactics.compute(feature_point(p, board.size()), &levels[levels.size() - G]);
      }
    if (mine < 0) {  // cannot happen in a legal replay; keep the game consistent anyway
      keys.resize(size_t(begin) * size_t(top));
      levels.resize(size_t(begin) * G);
      return;
    }
    played.push_back(begin + uint32_t(mine));
    first.push_back(uint32_t(levels.size() / G));
  }
};

struct Own {
  uint32_t seen = 0;
  uint32_t played = 0;
};

// Appends the collected game to `out`, scoring patterns leave-one-out.
void add_game(const GameCollector& g, const sgfpat_priors::Priors& priors, double a, TrainingSet* out) {
  const int top = g.top;
  const size_t n = g.levels.size() / G;
  std::vector<std::unordered_map<uint64_t, Own>> own(static_cast<size_t>(top));
  for (auto& m : own) m.reserve(n / 4 + 16);
  for (size_t c = 0; c < n; ++c)
    for (int l = 0; l < top; ++l) own[size_t(l)][g.keys[c * size_t(top) + size_t(l)]].seen++;
  for (uint32_t c : g.played)
    for (int l = 0; l < top; ++l) own[size_t(l)][g.keys[size_t(c) * size_t(top) + size_t(l)]].played++;

  std::vector<int> largest(n);
  priors.largest_levels(g.keys.data(), size_t(top), top, n, largest.data());
  const uint64_t min_played = std::max<uint64_t>(priors.header().min_played, 1);
  const double base = priors.base_rate() > 0 ? priors.base_rate() : 1e-3;
  sgfpat_priors::Counts counts[sgfpat_priors::kMaxLevels];
  uint8_t lv[G];
  size_t pos = 0;
  for (size_t c = 0; c < n; ++c) {
    int m = 0;
    for (int l = 1; l <= largest[c]; ++l) {
      const uint64_t key = g.keys[c * size_t(top) + size_t(l) - 1];
      sgfpat_priors::Counts k;
      if (!priors.lookup(l, key, &k)) break;
      const Own& o = own[size_t(l) - 1].at(key);
      k.seen -= std::min<uint64_t>(k.seen, o.seen);
      k.played -= std::min<uint64_t>(k.played, o.played);
      if (k.played < min_played) break;
      counts[l - 1] = k;
      m = l;
    }
    const double p = sgfpat_priors::smoothed_estimate(counts, m, base, a);
    std::memcpy(lv, &g.levels[c * G], G);
    sgfpat_priors::set_pattern_groups(p, m, lv);
    out->add_candidate(lv, std::log(p));
    if (c + 1 == g.first[pos + 1]) {
      out->end_position(g.played[pos] - g.first[pos]);
      ++pos;
    }
  }
}
}  // namespace

Status sample_training_set(PatternDb& db, const sgfpat_priors::Priors& priors, const SampleOptions& options,
                           TrainingSet* out, SampleSummary* summary,
                           const std::function<void(const SampleSummary&)>& progress) {
  *summary = SampleSummary{};
  const KeyScheme& scheme = db.settings().scheme;
  if (scheme.seed != priors.seed() || scheme.symmetry != priors.symmetry() || scheme.levels < priors.levels())
    return Status::InvalidArgument("the priors file was not exported from a database with this key scheme (" +
                         scheme.describe() + ")");
  // The games of least hash: a max-heap of the best so far.
  using Entry = std::pair<uint64_t, std::string>;
  auto cmp = [](const Entry& x, const Entry& y) { return x.first < y.first; };
  std::priority_queue<Entry, std::vector<Entry>, decltype(cmp)> heap(cmp);
  Status st = db.for_each_game([&](const Fingerprint& fp, std::string_view record) {
    ++summary->stored_games;
    const uint64_t h = sample_hash(fp, options.seed);
    if (heap.size() < options.games) heap.emplace(h, std::string(record));
    else if (options.games > 0 && h < heap.top().first) {
      heap.pop();
      heap.emplace(h, std::string(record));
    }
    return true;
  });
  if (!st.ok()) return st;
  std::vector<Entry> chosen;
  while (!heap.empty()) {
    chosen.push_back(heap.top());
    heap.pop();
  }
  std::reverse(chosen.begin(), chosen.end());

  GameCollector collector(scheme, priors.levels());
  Board board;
  ReplayResult rr;
  Game game;
  for (const Entry& e : chosen) {
    if (!decode_game(e.second, &game).ok() || !replay(game, &board, &rr).ok()) {
      ++summary->skipped_games;
      continue;
    }
    collector.start(game.info.size, game.info.suicide_allowed());
    replay(game, &board, &rr, &collector);
    const size_t before = out->positions();
    add_game(collector, priors, options.smoothing, out);
    ++summary->games;
    summary->positions += out->positions() - before;
    summary->candidates = out->candidates();
    if (progress) progress(*summary);
  }
  return Status::OK();
}

}  // namespace sgfpat

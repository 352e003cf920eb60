#include "search/nearest_scan.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>

#include "board/replay.h"
#include "core/tasks.h"
#include "search/k_smallest.h"
#include "search/stone_follower.h"
#include "search/symmetry.h"
#include "store/game_record.h"

namespace sgfpat {

bool hit_less(const PositionHit& a, const PositionHit& b) {
  if (a.distance != b.distance) return a.distance < b.distance;
  if (a.game != b.game) return a.game < b.game;
  return a.position < b.position;
}

namespace {

struct HitLess {
  bool operator()(const PositionHit& a, const PositionHit& b) const { return hit_less(a, b); }
};
using Selector = KSmallest<PositionHit, HitLess>;

// Lane l = 16 * query + 8 * (stored mover is White) + symmetry.  For each
// lane and stored point p: the colour the query expects there (its point
// sym(p), colours exchanged when the movers differ) and that point's weight.
struct Lanes {
  int size = 19;
  int lanes = 0;
  std::vector<uint8_t> want;    // [p * lanes + l]
  std::vector<int16_t> weight;  // [p * lanes + l]
  std::vector<int32_t> start;   // distances of the empty board

  Lanes(const std::vector<DistanceQuery>& queries, int size_) : size(size_) {
    lanes = int(queries.size()) * 16;
    const int points = size * size;
    want.assign(size_t(points * lanes), 0);
    weight.assign(size_t(points * lanes), 0);
    start.assign(size_t(lanes), 0);
    for (size_t qi = 0; qi < queries.size(); ++qi) {
      const DistanceQuery& q = queries[qi];
      for (int m = 0; m < 2; ++m) {
        const Color mover = m ? Color::White : Color::Black;
        for (int s = 0; s < kSymmetries; ++s) {
          const int l = int(qi) * 16 + m * 8 + s;
          for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
              const Point image = apply_symmetry(s, Point{int8_t(x), int8_t(y)}, size);
              Color c = q.board.at(image);
              if (mover != q.to_move) c = opponent(c);
              const size_t at = size_t((y * size + x) * lanes + l);
              want[at] = uint8_t(c);
              weight[at] = q.weight[size_t(image.y * size + image.x)];
              if (c != Color::Empty) start[size_t(l)] += weight[at];
            }
        }
      }
    }
  }
};

class Scanner : public StoneFollower {
 public:
  Scanner(const Lanes& lanes, const std::vector<DistanceQuery>& queries, int k)
      : lanes_(lanes), queries_(queries), dist_(size_t(lanes.lanes)) {
    for (size_t i = 0; i < queries.size(); ++i) selectors_.emplace_back(size_t(k));
  }
  void begin(const Fingerprint& fp, Color winner) {
    start(lanes_.size);
    std::memcpy(game_.data(), fp.data(), 8);
    winner_ = winner;
    dist_ = lanes_.start;
  }
  void before_move(const Board&, Color mover, Point move, int number) override {
    ++positions;
    const int m = mover == Color::White ? 8 : 0;
    for (size_t qi = 0; qi < queries_.size(); ++qi) {
      const int32_t* d = &dist_[qi * 16 + size_t(m)];
      int s = 0;
      for (int t = 1; t < kSymmetries; ++t)
        if (d[t] < d[s]) s = t;
      PositionHit hit;
      hit.distance = d[s];
      hit.game = game_;
      hit.position = number - 1;
      if (!selectors_[qi].admits(hit)) continue;
      hit.sym = s;
      hit.swap = mover != queries_[qi].to_move;
      hit.mover = mover;
      hit.winner = winner_;
      hit.has_next = true;
      hit.next = apply_symmetry(s, move, lanes_.size);
      selectors_[qi].offer(hit);
    }
  }
  std::vector<Selector> selectors_;
  uint64_t positions = 0;

 protected:
  void on_stone(Point p, Color from, Color to) override {
    const int n = lanes_.lanes;
    const size_t base = size_t((p.y * lanes_.size + p.x) * n);
    const uint8_t* want = &lanes_.want[base];
    const int16_t* w = &lanes_.weight[base];
    const uint8_t a = uint8_t(from), b = uint8_t(to);
    int32_t* d = dist_.data();
    for (int l = 0; l < n; ++l) d[l] += w[l] * (int32_t(b != want[l]) - int32_t(a != want[l]));
  }

 private:
  const Lanes& lanes_;
  const std::vector<DistanceQuery>& queries_;
  std::vector<int32_t> dist_;
  std::array<uint8_t, 8> game_{};
  Color winner_ = Color::Empty;
};

}  // namespace

Status scan_nearest(PatternDb* db, const std::vector<DistanceQuery>& queries, const ScanOptions& options,
                    std::vector<std::vector<PositionHit>>* hits, ScanStats* stats) {
  *stats = ScanStats{};
  hits->assign(queries.size(), {});
  if (queries.empty()) return Status::OK();
  const int size = queries[0].board.size();
  for (const auto& q : queries)
    if (q.board.size() != size || q.weight.size() != size_t(size * size))
      return Status::InvalidArgument("queries of one scan must share a board size and have a weight per point");
  const Lanes lanes(queries, size);
  // Work in 64 slices of the fingerprint space, taken in turn by the threads.
  constexpr int kSlices = 64;
  std::atomic<int> next_slice{0};
  std::atomic<uint64_t> games_done{0};
  std::mutex mu;
  Status failed;
  const int threads = std::max(1, options.threads);
  std::vector<std::unique_ptr<Scanner>> scanners;
  for (int t = 0; t < threads; ++t) scanners.push_back(std::make_unique<Scanner>(lanes, queries, options.k));
  std::vector<ScanStats> per_thread(static_cast<size_t>(threads));
  auto work = [&](int t) {
    Scanner& scanner = *scanners[size_t(t)];
    ScanStats& st = per_thread[size_t(t)];
    Game game;
    Board board;
    ReplayResult rr;
    for (int slice; (slice = next_slice.fetch_add(1)) < kSlices;) {
      Status s = db->for_each_game(slice * 256 / kSlices, (slice + 1) * 256 / kSlices,
                                   [&](const Fingerprint& fp, std::string_view record) {
                                     const uint64_t done = games_done.fetch_add(1) + 1;
                                     if (options.progress && done % 4096 == 0) options.progress(done, db->game_count());
                                     if (!decode_game(record, &game).ok()) {
                                       ++st.skipped;
                                       return true;
                                     }
                                     if (game.info.size != size) return true;
                                     scanner.begin(fp, game.info.winner());
                                     if (!replay(game, &board, &rr, &scanner).ok()) ++st.skipped;
                                     ++st.games;
                                     return true;
                                   });
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        failed = s;
        return;
      }
    }
  };
  run_on_threads(threads, work);
  if (!failed.ok()) return failed;
  for (int t = 0; t < threads; ++t) {
    stats->games += per_thread[size_t(t)].games;
    stats->skipped += per_thread[size_t(t)].skipped;
    stats->positions += scanners[size_t(t)]->positions;
  }
  for (size_t qi = 0; qi < queries.size(); ++qi) {
    Selector all(size_t(options.k));
    for (auto& sc : scanners) all.merge(sc->selectors_[qi]);
    (*hits)[qi] = all.sorted();
  }
  return Status::OK();
}

}  // namespace sgfpat

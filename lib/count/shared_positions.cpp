#include "count/shared_positions.h"

#include <algorithm>

namespace sgfpat {

int shared_positions(const Game& a, const Game& b, int cap) {
  if (a.info.size != b.info.size || a.info.suicide_allowed() != b.info.suicide_allowed()) return 0;
  int last = 0, number = 0;
  const size_t n = std::min(a.actions.size(), b.actions.size());
  for (size_t i = 0; i < n; ++i) {
    const Action& x = a.actions[i];
    const Action& y = b.actions[i];
    if (x.kind == Action::Kind::Play && y.kind == Action::Kind::Play) {
      // Everything before this move was the same: position number + 1 is.
      if (number + 1 > cap) break;
      if (!x.point.is_pass() && !y.point.is_pass()) last = number + 1;
    }
    if (!(x == y)) break;
    if (x.kind == Action::Kind::Play) ++number;
  }
  return last;
}

namespace {

// The mover of every position of `g` (index n), Empty at index 0.
void movers_of(const Game& g, std::vector<Color>* out) {
  out->assign(1, Color::Empty);
  for (const Action& a : g.actions)
    if (a.kind == Action::Kind::Play) out->push_back(a.color);
}

}  // namespace

void plan_shared_positions(std::span<const Game> games, int cap, std::vector<SharedPlan>* plans) {
  const size_t count = games.size();
  plans->resize(count);
  std::vector<int> share(count, 0);  // share[i]: with game i - 1
  for (size_t i = 1; i < count; ++i) share[i] = shared_positions(games[i - 1], games[i], cap);
  std::vector<Color> movers, winners(count);
  for (size_t i = 0; i < count; ++i) winners[i] = games[i].info.winner();
  // Difference arrays over positions, for the games that share with game i.
  std::vector<int64_t> seen_d, played_d, black_d, white_d;
  for (size_t i = 0; i < count; ++i) {
    SharedPlan& p = (*plans)[i];
    movers_of(games[i], &movers);
    const int moves = int(movers.size()) - 1;
    const Color winner = winners[i];
    p.restore_at = share[i];
    // The next game to share no more than this one restores the same
    // state if it shares as much.
    p.restore_last = true;
    for (size_t j = i + 1; j < count && p.restore_at > 0; ++j)
      if (share[j] <= p.restore_at) {
        p.restore_last = share[j] < p.restore_at;
        break;
      }
    p.keep.clear();
    seen_d.assign(size_t(moves) + 2, 0);
    played_d.assign(size_t(moves) + 2, 0);
    black_d.assign(size_t(moves) + 2, 0);
    white_d.assign(size_t(moves) + 2, 0);
    // Game h (after i) shares positions 1..chain with game i, chain the
    // least share between them; the later ones share no more than that.
    int chain = moves;
    for (size_t h = i + 1; h < count; ++h) {
      chain = std::min(chain, share[h]);
      if (chain <= p.restore_at) break;
      // Seen of positions restore_at + 1 .. chain; played at positions
      // restore_at .. chain - 1 (the move after them is the same).
      ++seen_d[size_t(p.restore_at) + 1];
      --seen_d[size_t(chain) + 1];
      const int from = std::max(p.restore_at, 1);
      if (from <= chain - 1) {
        ++played_d[size_t(from)];
        --played_d[size_t(chain)];
        std::vector<int64_t>& w = winners[h] == Color::Black ? black_d : white_d;
        if (winners[h] != Color::Empty) {
          ++w[size_t(from)];
          --w[size_t(chain)];
        }
      }
      if (p.keep.empty() || p.keep.back() != chain) p.keep.push_back(chain);
    }
    std::reverse(p.keep.begin(), p.keep.end());  // chains only fall: ascending now
    p.seen.assign(size_t(moves) + 1, 1);
    p.played.assign(size_t(moves) + 1, 1);
    p.wins.assign(size_t(moves) + 1, 0);
    int64_t s = 0, pl = 0, bw = 0, ww = 0;
    for (int n = 1; n <= moves; ++n) {
      s += seen_d[size_t(n)];
      pl += played_d[size_t(n)];
      bw += black_d[size_t(n)];
      ww += white_d[size_t(n)];
      p.seen[size_t(n)] = uint32_t(1 + s);
      p.played[size_t(n)] = uint32_t(1 + pl);
      const Color m = movers[size_t(n)];
      p.wins[size_t(n)] = uint32_t((m == winner ? 1 : 0) + (m == Color::Black ? bw : m == Color::White ? ww : 0));
    }
  }
}

}  // namespace sgfpat

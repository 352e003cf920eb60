#include "mcts/playout.h"

#include <algorithm>

#include "mcts/ladder.h"
#include "mcts/patterns3x3.h"
#include "pattern/tracker.h"

namespace sgfpat::mcts {

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  uint64_t x = seed;
  for (auto& s : s_) s = splitmix64(x);
}

bool is_own_eye(const Board& board, int idx, Color c) {
  if (board.at_index(idx) != Color::Empty) return false;
  const int s = board.stride();
  const int nb[4] = {idx - 1, idx + 1, idx - s, idx + s};
  for (int q : nb) {
    const Color v = board.at_index(q);
    if (v != Color::OffBoard && v != c) return false;
  }
  const int dg[4] = {idx - s - 1, idx - s + 1, idx + s - 1, idx + s + 1};
  int opp = 0, off = 0;
  const Color o = opponent(c);
  for (int q : dg) {
    const Color v = board.at_index(q);
    if (v == Color::OffBoard) ++off;
    else if (v == o) ++opp;
  }
  return off > 0 ? opp == 0 : opp <= 1;
}

MoveCheck check_move(const Board& board, int idx, Color c) {
  MoveCheck m;
  const int s = board.stride();
  const int nb[4] = {idx - s, idx + 1, idx + s, idx - 1};
  int libs[8];
  int found = 0;
  int captured[4];
  int ncaptured = 0;
  auto add = [&](int l) {
    if (l == idx || found >= 3) return;
    for (int k = 0; k < found; ++k)
      if (libs[k] == l) return;
    libs[found++] = l;
  };
  const Color opp = opponent(c);
  for (int n : nb) {
    const Color v = board.at_index(n);
    if (v == Color::Empty) {
      add(n);
    } else if (v == c) {
      m.joins = true;
      int chain_libs[4];
      int k = board.chain_liberties(n, chain_libs, 4);
      if (k == 1) m.saves = true;  // provisional: confirmed by the liberty count below
      for (int i = 0; i < k; ++i) add(chain_libs[i]);
    } else if (v == opp && board.in_atari_index(n)) {
      // Count each captured chain once (two neighbours may share one).
      bool counted = false;
      for (int k = 0; k < ncaptured; ++k) {
        int t = captured[k];
        do {
          counted |= t == n;
          t = board.next_stone(t);
        } while (t != captured[k] && !counted);
      }
      if (!counted) {
        captured[ncaptured++] = n;
        int t = n;
        do {
          ++m.captured_stones;
          t = board.next_stone(t);
        } while (t != n);
      }
      m.captures = true;
      add(n);  // the captured stone's point becomes a liberty
    }
  }
  m.libs = found;
  m.saves = m.saves && m.libs >= 2;
  return m;
}

double tactical_factor(const Board& board, int idx, Color c) {
  const MoveCheck m = check_move(board, idx, c);
  double f = 1;
  if (m.captures) f *= 3 + std::min(m.captured_stones, 6);
  if (m.saves) {
    // An extension to two liberties that a ladder takes only feeds it.
    bool laddered = false;
    if (m.libs == 2) {
      Board after = board;
      laddered = after.play(board.point(idx), c) == MoveError::None && ladder_captures(after, idx, opponent(c));
    }
    f *= laddered ? 0.2 : 5;
  }
  if (m.self_atari()) f *= m.joins ? 0.03 : 0.15;
  // Ataris on chains of two liberties (not self-atari) are often urgent,
  // the more when the chain cannot get away (a ladder that works).
  if (!m.self_atari() && !m.captures) {
    const int s = board.stride();
    const int nb[4] = {idx - s, idx + 1, idx + s, idx - 1};
    for (int n : nb)
      if (board.at_index(n) == opponent(c)) {
        int l[3];
        if (board.chain_liberties(n, l, 3) == 2) {
          f *= 1.5;
          Board after = board;
          if (after.play(board.point(idx), c) == MoveError::None && atari_holds(after, n)) f *= 3;
          break;
        }
      }
  }
  const int size = board.size();
  if (size >= 9) {
    const Point p = board.point(idx);
    const int line = std::min({int(p.x), int(p.y), size - 1 - p.x, size - 1 - p.y});
    if (line <= 1) {
      bool near = false;
      for (int dy = -2; dy <= 2 && !near; ++dy)
        for (int dx = -2; dx <= 2 && !near; ++dx) {
          if (std::abs(dx) + std::abs(dy) > 2) continue;
          Point q{int8_t(p.x + dx), int8_t(p.y + dy)};
          if (board.on_board(q) && board.at(q) != Color::Empty) near = true;
        }
      if (!near) f *= line == 0 ? 0.1 : 0.5;
    }
  }
  return f;
}

int score_area(const Board& b, double komi, Owners* owners) {
  const int size = b.size();
  const int stride = b.stride();
  std::array<uint8_t, Board::kMaxIndex> done{};
  int stack[Board::kMaxIndex], region[Board::kMaxIndex];
  int black = 0, white = 0;
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const int idx = (y + 1) * stride + x + 1;
      const Color v = b.at_index(idx);
      if (v == Color::Black || v == Color::White) {
        (v == Color::Black ? black : white)++;
        if (owners) (*owners)[size_t(idx)] = uint8_t(v);
        continue;
      }
      if (done[size_t(idx)]) continue;
      int sp = 0, count = 0;
      bool tb = false, tw = false;
      stack[sp++] = idx;
      done[size_t(idx)] = 1;
      while (sp > 0) {
        const int s = stack[--sp];
        region[count++] = s;
        const int nb[4] = {s - stride, s + 1, s + stride, s - 1};
        for (int n : nb) {
          const Color nc = b.at_index(n);
          if (nc == Color::Empty) {
            if (!done[size_t(n)]) {
              done[size_t(n)] = 1;
              stack[sp++] = n;
            }
          } else if (nc == Color::Black) {
            tb = true;
          } else if (nc == Color::White) {
            tw = true;
          }
        }
      }
      const Color owner = tb && !tw ? Color::Black : tw && !tb ? Color::White : Color::Empty;
      if (owner == Color::Black) black += count;
      else if (owner == Color::White) white += count;
      if (owners)
        for (int k = 0; k < count; ++k) (*owners)[size_t(region[k])] = uint8_t(owner);
    }
  const double margin = double(black) - double(white) - komi;
  return margin > 0 ? 2 : margin < 0 ? 0 : 1;
}

// --- the default policy ---

Playout::Playout(PlayoutOptions options, const Evaluator* weigher, const KeyScheme* playout_scheme)
    : options_(options), weigher_(weigher), playout_scheme_(playout_scheme) {}
Playout::Playout(Playout&&) noexcept = default;
Playout::~Playout() = default;

void Playout::add(int idx) {
  pos_[size_t(idx)] = int16_t(empties_.size());
  empties_.push_back(int16_t(idx));
}

void Playout::remove(int idx) {
  int p = pos_[size_t(idx)];
  int last = empties_.back();
  empties_[size_t(p)] = int16_t(last);
  pos_[size_t(last)] = int16_t(p);
  empties_.pop_back();
}

void Playout::swap_slots(int a, int b) {
  std::swap(empties_[size_t(a)], empties_[size_t(b)]);
  pos_[size_t(empties_[size_t(a)])] = int16_t(a);
  pos_[size_t(empties_[size_t(b)])] = int16_t(b);
}

// A capture of an opponent chain in atari near the last move, or an escape
// of one of the mover's chains that the last move put in atari (capturing
// a neighbour in atari, or extending to two liberties or more); -1 if none
// (or if the dice say to play at random this time).
int Playout::tactical_move(const Board& b, Color c, int last, Rng& rng) {
  if (last < 0) return -1;
  candidates_.clear();
  const int s = b.stride();
  const int around[9] = {last, last - s, last + 1, last + s, last - 1, last - s - 1, last - s + 1, last + s - 1, last + s + 1};
  const Color opp = opponent(c);
  auto push = [&](int m) {
    if (std::find(candidates_.begin(), candidates_.end(), m) == candidates_.end() && b.is_legal_index(m, c))
      candidates_.push_back(m);
  };
  for (int q : around) {
    const Color v = b.at_index(q);
    if ((v != Color::Black && v != Color::White) || !b.in_atari_index(q)) continue;
    int lib;
    if (b.chain_liberties(q, &lib, 1) != 1) continue;
    if (v == opp) {
      push(lib);
      continue;
    }
    // Our chain in atari: capture a neighbour in atari, or extend.
    int t = q;
    do {
      const int nb[4] = {t - s, t + 1, t + s, t - 1};
      for (int n : nb)
        if (b.at_index(n) == opp && b.in_atari_index(n)) {
          int l;
          if (b.chain_liberties(n, &l, 1) == 1) push(l);
        }
      t = b.next_stone(t);
    } while (t != q);
    if (b.is_legal_index(lib, c) && check_move(b, lib, c).libs >= 2) push(lib);
  }
  if (candidates_.empty() || rng.unit() >= options_.tactic_probability) return -1;
  return candidates_[rng.below(uint32_t(candidates_.size()))];
}

// A move next to the last one that completes a 3x3 shape of
// patterns3x3.h (a hane, a cut, an edge block), is legal, does not fill an
// own eye and is not a self-atari (of several stones never, of one stone
// most of the time); -1 if none or if the dice say to play at random.
int Playout::pattern_move(const Board& b, Color c, int last, Rng& rng) {
  if (last < 0) return -1;
  candidates_.clear();
  const int s = b.stride();
  const int around[8] = {last - s - 1, last - s, last - s + 1, last - 1, last + 1, last + s - 1, last + s, last + s + 1};
  for (int q : around) {
    if (b.at_index(q) != Color::Empty || !is_pattern3x3_move(b, q) || is_own_eye(b, q, c) || !b.is_legal_index(q, c))
      continue;
    const MoveCheck m = check_move(b, q, c);
    if (m.self_atari() && (m.joins || rng.unit() < options_.tactic_probability)) continue;
    candidates_.push_back(q);
  }
  if (candidates_.empty() || rng.unit() >= options_.pattern_probability) return -1;
  return candidates_[rng.below(uint32_t(candidates_.size()))];
}

// A random legal move that does not fill the mover's own eye (nor, with
// tactics, put a chain in atari most of the time), or -1.  Candidates are
// drawn from the first `left` slots; a rejected one is swapped behind them.
int Playout::random_move(const Board& b, Color c, Rng& rng) {
  int left = int(empties_.size());
  int weight_rejections = 0;
  while (left > 0) {
    int slot = int(rng.below(uint32_t(left)));
    int idx = empties_[size_t(slot)];
    if (is_own_eye(b, idx, c) || !b.is_legal_index(idx, c)) {
      swap_slots(slot, --left);
      continue;
    }
    if (options_.tactics) {
      const MoveCheck m = check_move(b, idx, c);
      if (m.self_atari() && (m.joins || rng.unit() < options_.tactic_probability)) {
        swap_slots(slot, --left);
        continue;
      }
    }
    if (tracker_ && weight_rejections < 16) {
      // Rejection sampling by the level 1..2 prior; wmax_ is the largest
      // score seen so far (a running bound), so acceptance <= 1.
      double w = weigher_->score(*tracker_, idx, c).score;
      if (w > wmax_) wmax_ = w;
      if (rng.unit() * wmax_ > w) {
        ++weight_rejections;
        continue;
      }
    }
    return idx;
  }
  return -1;
}

int Playout::run(Board& b, Color c, int last, double komi, Rng& rng, Owners* owners,
                 std::array<uint8_t, Board::kMaxIndex>* first_mover) {
  const int size = b.size();
  empties_.clear();
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      int idx = b.index(Point{int8_t(x), int8_t(y)});
      if (b.at_index(idx) == Color::Empty) add(idx);
    }
  tracker_.reset();
  if (weigher_) {
    if (!tracker_template_ || tracker_size_ != size) {
      tracker_template_ = std::make_unique<PatternTracker>(*playout_scheme_, size);
      tracker_size_ = size;
      if (wmax_ <= 0) wmax_ = 1e-9;
    }
    tracker_ = std::make_unique<PatternTracker>(*tracker_template_);
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        int idx = b.index(Point{int8_t(x), int8_t(y)});
        if (b.at_index(idx) != Color::Empty) tracker_->set(idx, b.at_index(idx));
      }
  }
  const int cap = 3 * size * size;
  int passes = 0;
  for (int moves = 0; moves < cap && passes < 2; ++moves) {
    int idx = options_.tactics ? tactical_move(b, c, last, rng) : -1;
    if (idx < 0 && options_.tactics && options_.pattern_probability > 0) idx = pattern_move(b, c, last, rng);
    if (idx < 0) idx = random_move(b, c, rng);
    if (idx < 0) {
      b.pass();
      ++passes;
    } else {
      b.play(b.point(idx), c);
      passes = 0;
      remove(idx);
      for (int r : b.last_removed()) add(r);
      if (tracker_) tracker_->after_play(b, idx);
      if (first_mover && (*first_mover)[size_t(idx)] == 0) (*first_mover)[size_t(idx)] = uint8_t(c);
    }
    last = idx;
    c = opponent(c);
  }
  return score_area(b, komi, owners);
}

Ownership playout_ownership(const Board& board, Color to_move, double komi, int64_t playouts, uint64_t seed) {
  const int n = board.size();
  Ownership o;
  o.black.assign(size_t(n * n), 0);
  o.white.assign(size_t(n * n), 0);
  Playout p(PlayoutOptions{}, nullptr, nullptr);
  Rng rng(seed);
  Owners owners{};
  for (int64_t k = 0; k < playouts; ++k) {
    Board b = board;
    p.run(b, to_move, -1, komi, rng, &owners);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const uint8_t v = owners[size_t(board.index(Point{int8_t(x), int8_t(y)}))];
        if (v == uint8_t(Color::Black)) o.black[size_t(y * n + x)] += 1;
        else if (v == uint8_t(Color::White)) o.white[size_t(y * n + x)] += 1;
      }
  }
  for (size_t i = 0; i < o.black.size() && playouts > 0; ++i) {
    o.black[i] /= float(playouts);
    o.white[i] /= float(playouts);
  }
  return o;
}

int random_playout(const Board& board, Color to_move, double komi, Rng& rng) {
  Board b = board;
  PlayoutOptions o;
  o.tactics = false;
  Playout p(o, nullptr, nullptr);
  return p.run(b, to_move, -1, komi, rng);
}

}  // namespace sgfpat::mcts

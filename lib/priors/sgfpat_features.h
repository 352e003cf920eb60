// sgfpat_features.h: the features the learned model of a priors file scores,
// and the one implementation of them (sgfpat itself computes them with this
// header: lib/features feeds it from the rules engine's board, and
// `sgfpat train`, `eval`, `accuracy`, `gtp` and `suggest` all go through it).
//
// Copy it beside sgfpat_priors.h (which it includes); standard library only.
//
//   sgfpat_priors::Tactics tactics;             // one per thread
//   tactics.setup(board, size, to_move, prev1, prev2);   // once per position
//   uint8_t levels[sgfpat_priors::kFeatureGroups];
//   tactics.compute(point, levels);             // capture .. ko of a legal move
//   sgfpat_priors::set_pattern_groups(p, m, levels);   // pattern bin, level
//   double strength = p * std::exp(sgfpat_priors::log_strength(*priors.model(), levels));
#pragma once
#include <cmath>
#include <cstdint>

#include "sgfpat_priors.h"

namespace sgfpat_priors {
// ---------------------------------------------------------------------------
// The learned model (format version 3) and the features it scores.
//
// A candidate move's strength is
//     p * exp(sum over groups g of weight[g][level_g])
// and its probability is its strength over the sum of the strengths of all
// the legal moves of the position.  p is the smoothed play rate of the
// candidate's patterns (smoothed_estimate(): levels 1..m, m the largest
// level known, a = ModelSection::smoothing; the base rate when m = 0), and
// level_g is the candidate's level in feature group g, all defined below on
// the position *before* the move, for the player to move ("own" stones are
// that player's).  A chain is a maximal set of same-colored stones connected
// through their 4 neighbours; its liberties are the distinct empty points
// next to it.  "After the move" means after the stone is placed and the
// opponent chains left without a liberty are removed.
//
//   pattern    bin of p: min(79, floor(-4 log2 p)) (4 bins an octave)
//   level      m, the largest known pattern level (0..16)
//   capture    0 none; else by the stones removed by the move, 1: 1 stone,
//              2: 2-3, 3: 4 or more; plus 3 (4..6) when one of the removed
//              chains touched an own chain that had one liberty (the
//              capture saves it)
//   extension  the move touches an own chain with one liberty and the
//              move's chain has 2 or more liberties after the move:
//              1: that chain (the largest such) is 1 stone and 2 liberties
//              after, 2: 1 stone and 3+, 3: 2+ stones and 2, 4: 2+ stones
//              and 3+; otherwise 0
//   atari      the move touches an opponent chain with exactly two
//              liberties (it is left with one): 1 when the largest such is
//              1 stone, 2 when 2 or more; otherwise 0
//   self-atari the move's chain has at most one liberty after the move and
//              the move does not take a ko (below): 1 when that chain is
//              1 stone, 2 when it is 2 or more; otherwise 0.  The throw-in
//              of a snapback is 1, the capture that walks into it too.
//   liberties  the move's chain's liberties after the move: 0: 0 or 1,
//              1: 2, 2: 3, 3: 4 or more
//   dist-prev  d = |dx| + |dy| + max(|dx|, |dy|) from the previous move
//              (Coulom's distance): max(1, min(d, 17) - 1) (d = 0 happens
//              when that stone was captured), or 0 when there is no
//              previous move or it was a pass
//   dist-prev2 the same for the move before the previous one
//   edge       min(x, y, size-1-x, size-1-y) capped at 4 (0: first line)
//   ko         1 when the move takes a ko: it removes exactly one stone,
//              touches no own stone, and is left with exactly one
//              liberty; otherwise 0
//
// Weights are natural logarithms; an engine may drop a group by treating
// its weights as 0.  Tactics computes the tactical groups from a board
// array; set_pattern_groups() sets the other two, and log_strength()
// scores a candidate.
inline constexpr int kPatternBinsPerOctave = 4;

inline int pattern_bin(double p) {
  if (!(p > 0)) return kGroupLevels[kPatternBin] - 1;
  double b = -double(kPatternBinsPerOctave) * std::log2(p);
  if (b < 0) return 0;
  return b >= double(kGroupLevels[kPatternBin] - 1) ? kGroupLevels[kPatternBin] - 1 : int(b);
}

// Sets the two pattern groups of a candidate: the bin of its smoothed play
// rate p and its largest known pattern level m (0..16).
inline void set_pattern_groups(double p, int m, uint8_t* out) {
  out[kPatternBin] = uint8_t(pattern_bin(p));
  out[kLevel] = uint8_t(m);
}

// Sum of the weights of a candidate's levels (levels[g] for every group),
// leaving out the groups whose bit is set in `skip` (ablation).
inline double log_strength(const ModelSection& m, const uint8_t* levels, uint32_t skip = 0) {
  double s = 0;
  int o = 0;
  for (int g = 0; g < kFeatureGroups; ++g) {
    if (!(skip >> g & 1u)) s += m.weights[o + levels[g]];
    o += kGroupLevels[g];
  }
  return s;
}

// Coulom's distance between two points of a size-wide board array.
inline int move_distance(int a, int b, int size) {
  int dx = a % size - b % size, dy = a / size - b / size;
  dx = dx < 0 ? -dx : dx;
  dy = dy < 0 ? -dy : dy;
  return dx + dy + (dx > dy ? dx : dy);
}

// The tactical feature groups (capture .. ko) of the moves of one position,
// from a board array: board[y * size + x] is 0 empty, 1 black, 2 white.
// setup() labels the chains once (O(points)); compute() then costs a few
// neighbour visits per candidate.  Not thread-safe; one per thread.
class Tactics {
 public:
  static constexpr int kMaxSize = 25;
  // prev1, prev2: points (y * size + x) of the previous move and the one
  // before, -1 for none or a pass.  to_move: 1 black, 2 white.
  void setup(const uint8_t* board, int size, int to_move, int prev1, int prev2) {
    n_ = size;
    s_ = size + 2;
    own_ = uint8_t(to_move);
    prev1_ = prev1;
    prev2_ = prev2;
    for (int i = 0; i < s_ * s_; ++i) color_[i] = kOff;
    for (int y = 0; y < n_; ++y)
      for (int x = 0; x < n_; ++x) color_[(y + 1) * s_ + x + 1] = board[y * n_ + x];
    int chains = 0;
    for (int i = 0; i < s_ * s_; ++i) mark_[i] = 0xFFFF;
    for (int i = s_; i < s_ * (s_ - 1); ++i) {
      if (color_[i] != 1 && color_[i] != 2) continue;
      if (mark_[i] != 0xFFFF) continue;
      // Flood the chain, linking its stones through next_.
      const uint16_t id = uint16_t(chains++);
      Chain& ch = chain_[id];
      ch = Chain{};
      ch.first = uint16_t(i);
      int stack[kPad * kPad];
      int top = 0, last = i;
      stack[top++] = i;
      mark_[i] = id;
      next_[i] = uint16_t(i);
      while (top > 0) {
        const int p = stack[--top];
        ch.stones++;
        const int nb[4] = {p - s_, p + 1, p + s_, p - 1};
        for (int q : nb)
          if (color_[q] == color_[i] && mark_[q] == 0xFFFF) {
            mark_[q] = id;
            next_[last] = uint16_t(q);
            next_[q] = uint16_t(i);
            last = q;
            stack[top++] = q;
          }
      }
    }
    // Liberties, each counted once: lib_mark_ remembers the last chain that counted it.
    for (int i = 0; i < s_ * s_; ++i) lib_mark_[i] = 0xFFFF;
    for (int id = 0; id < chains; ++id) {
      Chain& ch = chain_[id];
      int p = ch.first;
      do {
        const int nb[4] = {p - s_, p + 1, p + s_, p - 1};
        for (int q : nb)
          if (color_[q] == 0 && lib_mark_[q] != id) {
            lib_mark_[q] = uint16_t(id);
            if (ch.libs < 4) ch.lib[ch.libs] = uint16_t(q);
            ch.libs++;
          }
        p = next_[p];
      } while (p != ch.first);
    }
  }

  // Sets out[kCapture .. kKo] for a legal move of the player to move at
  // point (y * size + x); the other entries are left alone.
  void compute(int point, uint8_t* out) const {
    const int q = (point / n_ + 1) * s_ + point % n_ + 1;
    const uint8_t opp = uint8_t(3 - own_);
    uint16_t seen_ids[4];
    int n_seen = 0;
    uint16_t own_ids[4];
    int n_own = 0;
    uint16_t cap_ids[4];
    int n_cap = 0;
    int libs[24];
    int n_libs = 0;
    bool many = false;
    int merged = 1, captured = 0, own_atari = 0, atari = 0;
    auto add_lib = [&](int p) {
      if (p == q || many) return;
      for (int i = 0; i < n_libs; ++i)
        if (libs[i] == p) return;
      libs[n_libs++] = p;
      if (n_libs >= 4) many = true;
    };
    const int nb[4] = {q - s_, q + 1, q + s_, q - 1};
    for (int p : nb) {
      const uint8_t c = color_[p];
      if (c == 0) {
        add_lib(p);
        continue;
      }
      if (c == kOff) continue;
      const uint16_t id = mark_[p];
      bool dup = false;
      for (int i = 0; i < n_seen; ++i) dup |= seen_ids[i] == id;
      if (dup) continue;
      seen_ids[n_seen++] = id;
      const Chain& ch = chain_[id];
      if (c == own_) {
        own_ids[n_own++] = id;
        merged += ch.stones;
        if (ch.libs == 1 && ch.stones > own_atari) own_atari = ch.stones;
        if (ch.libs > 4) many = true;
        else
          for (int i = 0; i < ch.libs; ++i) add_lib(ch.lib[i]);
      } else if (c == opp) {
        if (ch.libs == 1) {
          cap_ids[n_cap++] = id;
          captured += ch.stones;
        } else if (ch.libs == 2 && ch.stones > atari) {
          atari = ch.stones;
        }
      }
    }
    bool saves = false;
    for (int k = 0; k < n_cap; ++k) {
      // A removed stone becomes a liberty when it touches the move's chain.
      int p = chain_[cap_ids[k]].first;
      do {
        const int nb2[4] = {p - s_, p + 1, p + s_, p - 1};
        for (int r : nb2) {
          if (r == q) add_lib(p);
          else if (color_[r] == own_) {
            const uint16_t id = mark_[r];
            if (chain_[id].libs == 1) saves = true;
            for (int i = 0; i < n_own; ++i)
              if (own_ids[i] == id) add_lib(p);
          }
        }
        p = next_[p];
      } while (p != chain_[cap_ids[k]].first);
    }
    const int after = many ? 4 : n_libs;
    const bool ko = captured == 1 && merged == 1 && after == 1;
    out[kCapture] = uint8_t(captured == 0 ? 0 : (captured == 1 ? 1 : captured <= 3 ? 2 : 3) + (saves ? 3 : 0));
    out[kExtension] =
        uint8_t(own_atari == 0 || after < 2 ? 0 : (own_atari == 1 ? 1 : 3) + (after >= 3 ? 1 : 0));
    out[kAtari] = uint8_t(atari == 0 ? 0 : atari == 1 ? 1 : 2);
    out[kSelfAtari] = uint8_t(after > 1 || ko ? 0 : merged == 1 ? 1 : 2);
    out[kLiberties] = uint8_t(after <= 1 ? 0 : after - 1);
    out[kDistPrev] = distance_level(point, prev1_);
    out[kDistPrev2] = distance_level(point, prev2_);
    const int x = point % n_, y = point / n_;
    out[kEdge] = uint8_t(std::min(std::min(std::min(x, y), std::min(n_ - 1 - x, n_ - 1 - y)), 4));
    out[kKo] = ko ? 1 : 0;
  }

 private:
  uint8_t distance_level(int point, int prev) const {
    if (prev < 0) return 0;
    const int d = move_distance(point, prev, n_);
    return uint8_t(d <= 2 ? 1 : d >= 17 ? 16 : d - 1);
  }
  static constexpr int kPad = kMaxSize + 2;
  static constexpr uint8_t kOff = 3;
  struct Chain {
    uint16_t first = 0;   // a stone; next_ links the others in a cycle
    uint16_t stones = 0;
    uint16_t libs = 0;    // exact liberty count
    uint16_t lib[4] = {};  // the first 4 liberties found
  };
  int n_ = 0, s_ = 0;
  uint8_t own_ = 1;
  int prev1_ = -1, prev2_ = -1;
  uint8_t color_[kPad * kPad];
  uint16_t mark_[kPad * kPad];      // chain id of a stone
  uint16_t lib_mark_[kPad * kPad];
  uint16_t next_[kPad * kPad];
  Chain chain_[kPad * kPad];
};

}  // namespace sgfpat_priors

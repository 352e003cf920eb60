// Pass 1 of a count: every played pattern into the count-min sketch, and
// the kept set listed as the sketch finds it (count/recount.h says why it
// is complete).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/game_feed.h"
#include "count/kept_set.h"
#include "count/sketch.h"
#include "pattern/key_scheme.h"

namespace sgfpat {

// What sketch_played() found.
struct SketchPass {
  explicit SketchPass(int levels) : kept(levels), extended(levels) {}
  KeySet kept;       // patterns whose estimate reached min_played at one of their moves
  KeySet extended;   // the level-below parts of those, at those moves
  bool complete = false;  // false: the sets grew past max_list_bytes and were dropped
  uint64_t games = 0;
  uint64_t items = 0;  // played (level, pattern) items added to the sketch
};

// Adds every level of every played pattern of the games of `source` to
// `sketch`, and lists the patterns whose estimate reaches min_played at
// one of their moves, as do the estimates of all their smaller levels at
// that move.  The sketch never lags a true count, so every
// pattern played min_played times in all (counting what the sketch held
// before) is listed, with its smaller levels marked extended.  The lists
// are dropped (out->complete false) when they would hold more than
// max_list_bytes (0: never kept).
Status sketch_played(const KeyScheme& scheme, const GameSource& source, uint64_t total, int threads,
                     CountMinSketch* sketch, unsigned min_played, size_t max_list_bytes, SketchPass* out,
                     const std::function<void(uint64_t)>& progress);

// How many levels of one played move (`keys[l - 1]` its level-l key) the
// finished `sketch` may keep: the levels 1..top up to the first of 1..last
// whose estimate is below min_played (a kept pattern's smaller parts were
// played at least as often, so they are kept too).
inline int levels_reaching(const CountMinSketch& sketch, const uint64_t* keys, int last, unsigned min_played) {
  int top = 0;
  while (top < last && sketch.estimate(level_item(top + 1, keys[top])) >= min_played) ++top;
  return top;
}

// Replays the stored game records of `batch` and appends to *keys the
// keys of every played move, L per move (levels 1..L).
Status played_keys(const KeyScheme& scheme, std::span<const std::string> batch, std::vector<uint64_t>* keys);

}  // namespace sgfpat

// The kept set as the sketch pass finds it: the keys of played patterns,
// and per-level sets of distinct keys.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "core/hash.h"
#include "core/radix_sort.h"
#include "count/part_range.h"
#include "count/sketch.h"
#include "pattern/tracking_observer.h"

namespace sgfpat {

// Pass 1: the keys of every level of every played pattern, L per move.
struct PlayedKeys : TrackingObserver {
  std::vector<uint64_t>* keys;
  // Only the played point is walked: no ring above the first is worth
  // keeping up to date.
  PlayedKeys(const KeyScheme& s, std::vector<uint64_t>* out) : TrackingObserver(s), keys(out) {
    tracker.set_incremental_rings(1);
  }
  void before_move(const Board& board, Color mover, Point move, int) override {
    if (move.is_pass()) return;
    tracker.walk(board.index(move), mover, [&](int, uint64_t key) {
      keys->push_back(key);
      return true;
    });
  }
};

// Distinct keys per level, kept compact by sorting and deduplicating
// whenever a level's list fills its room, which is then set to half as much
// again as its distinct keys: the memory stays within 1.5x of the distinct
// keys (bytes() says how much it is), where doubling growth could hold 4x.
class KeySet {
 public:
  // `min_room`: the fewest keys a level makes room for once it has any
  // (many sparse levels want it small).
  explicit KeySet(int levels, size_t min_room = size_t(1) << 12)
      : keys_(size_t(levels)), unique_(size_t(levels), 0), min_room_(min_room) {}
  void add(int level, uint64_t key) {
    auto& v = keys_[size_t(level - 1)];
    if (v.size() == v.capacity()) compact(level - 1, true);
    v.push_back(key);
  }
  void merge(KeySet&& other) {
    for (size_t l = 0; l < keys_.size(); ++l) {
      keys_[l].insert(keys_[l].end(), other.keys_[l].begin(), other.keys_[l].end());
      std::vector<uint64_t>().swap(other.keys_[l]);
      other.unique_[l] = 0;  // compact() trusts it: `other` stays usable
      compact(int(l), false);
    }
  }
  size_t distinct() {
    size_t n = 0;
    for (const auto& v : by_level()) n += v.size();
    return n;
  }
  // Memory held by the lists (of levels >= from_level).
  size_t bytes(int from_level = 1) const {
    size_t n = 0;
    for (size_t l = size_t(std::max(1, from_level)) - 1; l < keys_.size(); ++l)
      n += keys_[l].capacity() * sizeof(uint64_t);
    return n;
  }
  // The distinct keys of every level (no room left to add more).
  const std::vector<std::vector<uint64_t>>& by_level() {
    for (size_t l = 0; l < keys_.size(); ++l)
      if (keys_[l].size() != unique_[l] || keys_[l].capacity() != keys_[l].size()) compact(int(l), false);
    return keys_;
  }
  // by_level(), handed over: the set is left empty (with its levels).
  std::vector<std::vector<uint64_t>> release() {
    by_level();
    std::vector<std::vector<uint64_t>> out(keys_.size());
    out.swap(keys_);
    std::fill(unique_.begin(), unique_.end(), size_t(0));
    return out;
  }

 private:
  // `room`: leave space for half as many keys again (else none).  Keys are
  // only ever appended, so the first unique_ of a list are its sorted
  // distinct keys of the last compaction: only the keys added since are
  // sorted, then merged in (sorting the whole list each time was a quarter
  // of the sketch pass, all of it under the sketch's lock).
  void compact(int l, bool room) {
    auto& v = keys_[size_t(l)];
    const auto head_end = v.begin() + std::ptrdiff_t(unique_[size_t(l)]);
    if (v.end() - head_end <= head_end - v.begin()) {
      // The new keys are at most as many as the old (add()'s room is half
      // the distinct keys): the radix sort's scratch, freed before the
      // merged copy is made, is smaller than that copy.
      std::vector<uint64_t> scratch;
      radix_sort(std::span<uint64_t>(head_end, v.end()), &scratch);
    } else {
      std::sort(head_end, v.end());  // merge() of a longer list: in place
    }
    const auto tail_end = std::unique(head_end, v.end());
    // The size of the union first, to make the room from it.
    size_t common = 0;
    for (auto a = v.begin(), b = head_end; a != head_end && b != tail_end;) {
      if (*a < *b) {
        ++a;
      } else if (*b < *a) {
        ++b;
      } else {
        ++common;
        ++a;
        ++b;
      }
    }
    const size_t u = unique_[size_t(l)] + size_t(tail_end - head_end) - common;
    const size_t want = room ? std::max(min_room_, u + u / 2) : u;
    std::vector<uint64_t> merged;
    merged.reserve(want);
    std::set_union(v.begin(), head_end, head_end, tail_end, std::back_inserter(merged));
    v.swap(merged);
    unique_[size_t(l)] = u;
  }
  std::vector<std::vector<uint64_t>> keys_;
  std::vector<size_t> unique_;
  size_t min_room_;
};

// The kept set as pass 1 finds it.  A pattern is listed at
// each of its moves whose estimate has reached min_played (its first such
// move cannot be told from the others: other patterns' counts can lift the
// estimate past min_played before it is played again), so a small cache
// of recent listings drops the repeats of frequent patterns before they
// reach the key sets.
//
// With `by_bucket`, the patterns of the split level and above
// (count/part_range.h) are listed apart by the bucket of their split-level
// pattern, which the keys above it do not tell: kept and extended then hold
// levels * kPartBuckets lists, list_index() says which (the largest level's
// lists are then small, and so are the copies their compactions make).
class KeptCollector {
 public:
  explicit KeptCollector(int levels, bool by_bucket = false)
      : kept(by_bucket ? levels * kPartBuckets : levels, by_bucket ? 64 : size_t(1) << 12),
        extended(by_bucket ? levels * kPartBuckets : levels, by_bucket ? 64 : size_t(1) << 12),
        by_bucket_(by_bucket),
        recent_(kRecent, 0),
        valid_(kRecent, 0) {}
  // The list (1-based, as KeySet levels) of `level`'s patterns of `bucket`
  // (0 when not by bucket or below the split level).
  int list_index(int level, int bucket) const { return by_bucket_ ? (level - 1) * kPartBuckets + bucket + 1 : level; }
  bool by_bucket() const { return by_bucket_; }
  void add(int level, uint64_t key, bool is_extended, int bucket = 0) {
    const uint64_t tag = level_item(level, key) ^ (is_extended ? kExtendedTag : 0);
    const size_t i = fibonacci_slot(tag, kRecentBits);
    if (valid_[i] && recent_[i] == tag) return;
    recent_[i] = tag;
    valid_[i] = 1;
    (is_extended ? extended : kept).add(list_index(level, bucket), key);
  }
  // Lists the patterns of levels 1..top of one move (`keys[l - 1]` is the
  // level-l key), each but the last marked extended: the walks of pass 2
  // go on from it to the next level.  Levels above `max_level` are left out.
  void add_move(const uint64_t* keys, int top, int max_level = 255) {
    const int bucket = by_bucket_ && top >= kSplitLevel ? part_bucket(keys[kSplitLevel - 1]) : 0;
    for (int l = 1; l <= top && l <= max_level; ++l) {
      const int b = l >= kSplitLevel ? bucket : 0;
      add(l, keys[l - 1], false, b);
      if (l < top) add(l, keys[l - 1], true, b);
    }
  }
  size_t bytes() const { return kept.bytes() + extended.bytes() + kRecent * (sizeof(uint64_t) + 1); }

  KeySet kept, extended;

 private:
  bool by_bucket_;
  static constexpr int kRecentBits = 16;
  static constexpr uint64_t kExtendedTag = 0x5bd1e9955bd1e995ULL;  // any odd salt: extended listings apart
  static constexpr size_t kRecent = size_t(1) << kRecentBits;
  std::vector<uint64_t> recent_;
  std::vector<uint8_t> valid_;
};

}  // namespace sgfpat

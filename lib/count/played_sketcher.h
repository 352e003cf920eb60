// Pass 1 of a count (recount.h) over batches of stored game records that
// whoever holds them hands in: sketch_played() feeds it the stored games,
// an import can feed it the games it stores (sketch_alongside.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/sketch_pass.h"
#include "count/kept_set.h"
#include "count/sketch.h"
#include "pattern/key_scheme.h"

namespace sgfpat {

class PlayedSketcher {
 public:
  // Adds to `sketch` (not owned, outlives this) and lists as
  // sketch_played() says; the lists are dropped past `max_list_bytes`
  // (0: never kept), and once the moves listed reach 2^32 (the resident
  // table's played counts are 32-bit).
  PlayedSketcher(const KeyScheme& scheme, CountMinSketch* sketch, unsigned min_played, size_t max_list_bytes);

  // Replays the records of `batch` and adds their played patterns.  Safe
  // from several threads at once; the result does not depend on how the
  // games are split into batches or threads, beyond the sketch's false
  // positives.  An error means a record that does not replay.
  Status add(const std::vector<std::string>& batch);
  // Memory the lists hold now (a snapshot, any thread).
  size_t list_bytes() const { return list_bytes_.load(std::memory_order_relaxed); }
  // What the pass found, once every add() has returned.
  void finish(SketchPass* out);

 private:
  Status add_piece(std::span<const std::string> batch, std::vector<uint64_t>* keys, std::vector<uint8_t>* tops);

  const KeyScheme scheme_;
  CountMinSketch* sketch_;
  const unsigned min_played_;
  const size_t max_list_bytes_;
  // One list for all threads, filled under its own lock (threads' lists
  // would each hold the frequent patterns); the sketch under another, so
  // that one thread lists its moves while another adds to the sketch: both
  // are most of the pass, and each is one thread at a time.
  std::mutex sketch_mu_, collector_mu_;
  KeptCollector collector_;
  bool collect_;               // under collector_mu_
  uint64_t listed_moves_ = 0;  // under collector_mu_
  std::atomic<uint64_t> games_{0}, items_{0};
  std::atomic<size_t> list_bytes_{0};
};

}  // namespace sgfpat

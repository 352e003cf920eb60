// A shared transposition table for the proving search: proof and disproof
// numbers per Zobrist key, in buckets of four entries, safe to use from
// several threads (a spin lock per group of buckets).  A full bucket gives
// up the entry with the smallest subtree, a settled one counting a little
// more than its own.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <cstdlib>
#include <vector>

namespace sgfpat::solve {

struct TTEntry {
  uint64_t key = 0;
  uint32_t pn = 0;
  uint32_t dn = 0;
  uint32_t work = 0;  // nodes searched below the entry (saturated)
  int16_t best = -1;  // best move found, -1 if none
  uint8_t flags = 0;  // kCaptureSearched | kExpanded
  static constexpr uint8_t kCaptureSearched = 1;  // the mover's capture search failed here
  static constexpr uint8_t kExpanded = 2;         // the node's moves were screened for threats
};

class TranspositionTable {
 public:
  // Rounds down to a power of two of buckets, at least 1024.
  explicit TranspositionTable(size_t megabytes);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Copies the entry for `key` into *out; false if the table has none.
  bool lookup(uint64_t key, TTEntry* out) const;
  void store(const TTEntry& e);
  // Starts loading the bucket of `key` into the cache (a lookup soon after
  // then waits less on memory).
  void prefetch(uint64_t key) const {
    const char* b = reinterpret_cast<const char*>(&buckets_[key & mask_]);
    __builtin_prefetch(b);
    __builtin_prefetch(b + sizeof(Bucket) - 1);  // a bucket may straddle two cache lines
  }
  size_t capacity() const { return buckets_n_ * kWays; }

 private:
  static constexpr int kWays = 4;
  static constexpr size_t kLocks = 4096;
  struct Bucket {
    TTEntry e[kWays];
  };
  struct Lock {
    std::atomic_flag f = ATOMIC_FLAG_INIT;
    void lock() {
      while (f.test_and_set(std::memory_order_acquire)) {
      }
    }
    void unlock() { f.clear(std::memory_order_release); }
  };
  // Anonymous pages: the system hands them out zeroed as they are first
  // touched, so a large table costs nothing until the search fills it (a
  // vector would write every byte first: most of a short solve's time).
  Bucket* buckets_ = nullptr;
  size_t bytes_ = 0;
  size_t buckets_n_ = 0;
  size_t mask_;
  mutable std::unique_ptr<Lock[]> locks_;
};

}  // namespace sgfpat::solve

// A shared transposition table for the proving search: proof and disproof
// numbers per Zobrist key, in buckets of three entries (one cache line),
// safe to use from several threads: a bucket's version word makes it a
// sequence lock, so that a look-up writes nothing (a writer marks the
// bucket busy, readers retry a bucket that changed while they read it).  A
// full bucket gives up the entry with the smallest subtree, a settled one
// counting a little more than its own.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <cstdlib>
#include <vector>

#include "solve/page_memory.h"

namespace sgfpat::solve {

struct TTEntry {
  uint64_t key = 0;
  uint32_t pn = 0;
  uint32_t dn = 0;
  uint32_t work = 0;  // nodes searched below the entry (saturated)
  int16_t best = -1;  // best move found, -1 if none
  uint8_t flags = 0;  // kCaptureSearched, kNoCapture, kNoThreat2, or 0
  static constexpr uint8_t kCaptureSearched = 1;  // the mover's capture search failed here
  // The opponent's, moving here instead (screen()): its capture search
  // failed, and so did its two-move threat search.
  static constexpr uint8_t kNoCapture = 2;
  static constexpr uint8_t kNoThreat2 = 4;
};

class TranspositionTable {
 public:
  // As many buckets as fit `megabytes`, at least 1024.
  explicit TranspositionTable(size_t megabytes);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Entries per bucket.
  static constexpr int kWays = 3;

  // Copies the entry for `key` into *out; false if the table has none.
  // `work` comes back rounded down above 32,767 (it only ranks entries).
  bool lookup(uint64_t key, TTEntry* out) const;
  // Stores `e` over the key's entry, else over the bucket's least worth
  // keeping; an open `e` never replaces its key's settled entry.
  void store(const TTEntry& e);
  // Starts loading the bucket of `key` into the cache (a lookup soon after
  // then waits less on memory).
  void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[bucket_of(key)]); }
  // Loads the buckets of keys[i] for every i < n with !skip[i], all at
  // once, with plain loads whose values nothing waits for: the look-ups
  // that follow then wait for about one miss, not for each in turn.  A
  // node reads its children's entries one after the other, and prefetch()
  // a moment before did not spare those waits: C4+D5 (one thread, a 6 GB
  // table) 25.0-26.4 s of CPU without these loads, 20.0-21.6 s with them.
  void load_buckets(const uint64_t* keys, const bool* skip, int n) const {
    uint32_t any = 0;
    for (int i = 0; i < n; ++i)
      if (!skip[i]) any ^= std::atomic_ref<uint32_t>(buckets_[bucket_of(keys[i])].version).load(std::memory_order_relaxed);
    asm volatile("" ::"r"(any));  // the loads are kept, and nothing waits for them
  }
  size_t capacity() const { return buckets_n_ * kWays; }
  // How many GB of the table are on 1 GB pages (those the system had
  // reserved when it was made; the rest is on 2 MB pages where offered).
  size_t gb_pages() const { return memory_->gb_pages(); }
  // The share of the slots in use (0 to 1), estimated from 64 buckets
  // picked by `seed`; a fresh seed each call samples other buckets.
  double fill_estimate(uint64_t seed) const;
  // The bucket of `key`: its low 32 bits scaled to the number of buckets
  // (any number, not only powers of two, so that the whole size is used).
  size_t bucket_of(uint64_t key) const { return size_t((uint64_t(uint32_t(key)) * buckets_n_) >> 32); }

 private:
  // An entry as stored: 20 bytes, three to a cache line, where 24-byte
  // entries made buckets of four straddle two lines: an eighth more entries
  // in the same memory, one line to fetch per look-up.  Words only, each
  // read and written as an atomic (a reader may meet a writer).
  struct Slot {
    uint32_t key_lo, key_hi;
    uint32_t pn, dn;
    uint32_t meta;  // encode_work() in the low 16 bits, the best move (int8) and the flags above
  };
  // The version is even while nobody writes the bucket; a writer makes it
  // odd, writes, and makes it even again, one step on.  The lock of the
  // look-ups was an exchange on a shared array of flags: with two threads
  // those lines moved between the cores at nearly every look-up, and the
  // exchange took a tenth of the full 6x6 run's time (perf, two threads).
  struct alignas(64) Bucket {
    Slot e[kWays];
    uint32_t version;
  };
  static_assert(sizeof(Slot) == 20 && sizeof(Bucket) == 64, "a bucket is one cache line");
  // Marks bucket `b` busy for a writer (spins while another writes it).
  void begin_write(Bucket& b);
  void end_write(Bucket& b);
  // Copies bucket `b` as it stood between two writes.
  void read(const Bucket& b, Slot* out) const;
  // Anonymous pages: the system hands them out zeroed as they are first
  // touched, so a large table costs nothing until the search fills it (a
  // vector would write every byte first: most of a short solve's time).
  std::unique_ptr<PageMemory> memory_;
  Bucket* buckets_ = nullptr;
  size_t buckets_n_ = 0;
};

}  // namespace sgfpat::solve

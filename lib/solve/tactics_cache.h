// The answers of the proving search's bounded tactical searches
// (capture_search(), threat2_search()), kept per search thread, and the
// pool that lends them to a Solver's searches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "solve/page_memory.h"

namespace sgfpat::solve {

// Answers by the key of the position with the attacker to move (a threat's
// key salted), with the zone when one was asked for.  A node screens its
// moves at every visit (nothing of the screening is kept in the table) and
// a node's own capture search is the one its parent ran when it screened
// that move, so each is run about once while the cache holds it.
// Direct-mapped, one per thread (no locks); a collision only costs a search
// again, never a wrong answer, so the size changes the moves played and
// the time, not the nodes.
template <class W>
class TacticsCache {
 public:
  // The largest power of two of slots that fits `megabytes` (at least
  // 1,024).  1 MB (2^15 slots on boards of up to 64 points) stays in the
  // processor's own caches: 2^16 and 2^17 took 2-4% more CPU on 6x6
  // searches; 2^22 plays 3-4% fewer moves but took some 9% more time when
  // the cache was on 4 KB pages.
  // The slots are zeroed pages from the system (page_memory.h: large
  // pages, each touched only when used) and all-zero bytes are an empty
  // slot.  A large cache on 4 KB pages paid an address translation miss at
  // nearly every look-up.
  explicit TacticsCache(size_t megabytes) {
    size_t n = 1024;
    while (n * 2 * sizeof(Slot) <= (megabytes << 20)) n *= 2;
    memory_ = std::make_unique<PageMemory>(n * sizeof(Slot));
    slots_ = static_cast<Slot*>(memory_->data());
    mask_ = n - 1;
  }

  // False when the key's answer is not here, or is without the zone asked for.
  bool find(uint64_t key, bool* hit, int* first_move, W* zone) const {
    const Slot& s = slots_[key & mask_];
    if (s.key != key || !s.used || (zone && !s.has_zone)) return false;
    *hit = s.hit;
    *first_move = s.first_move;
    if (zone) *zone |= s.zone;
    return true;
  }
  void prefetch(uint64_t key) const { __builtin_prefetch(&slots_[key & mask_]); }
  void put(uint64_t key, bool hit, int first_move, const W* zone) {
    slots_[key & mask_] = Slot{zone ? *zone : W(0), key, int16_t(first_move), hit, true, zone != nullptr};
  }
  size_t slots() const { return mask_ + 1; }

 private:
  struct Slot {  // all zero bytes: unused
    W zone;
    uint64_t key;
    int16_t first_move;
    bool hit;
    bool used;
    bool has_zone;
  };
  static_assert(std::is_trivially_copyable_v<Slot> && std::is_trivially_destructible_v<Slot>,
                "slots are fresh anonymous pages");
  std::unique_ptr<PageMemory> memory_;
  Slot* slots_ = nullptr;
  size_t mask_ = 0;
};

// The caches of one Solver's searches: each search thread borrows one for
// the length of its search and gives it back, answers kept, for the next.
// A split solve runs many short searches one after another; each would
// otherwise start empty (and pay to clear a large cache).  The answers
// hold for any search of the same board.
template <class W>
class TacticsCachePool {
 public:
  explicit TacticsCachePool(size_t megabytes) : megabytes_(megabytes) {}
  TacticsCachePool(const TacticsCachePool&) = delete;
  TacticsCachePool& operator=(const TacticsCachePool&) = delete;

  // One cache, the borrower's alone until the lease is destroyed.
  class Lease {
   public:
    Lease(TacticsCachePool* pool, std::unique_ptr<TacticsCache<W>> cache) : pool_(pool), cache_(std::move(cache)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (cache_) pool_->give_back(std::move(cache_));
    }
    TacticsCache<W>* operator->() const { return cache_.get(); }

   private:
    TacticsCachePool* pool_;
    std::unique_ptr<TacticsCache<W>> cache_;
  };

  // A cache given back earlier if there is one, else a new empty one.
  Lease lease() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return Lease(this, std::make_unique<TacticsCache<W>>(megabytes_));
    std::unique_ptr<TacticsCache<W>> c = std::move(free_.back());
    free_.pop_back();
    return Lease(this, std::move(c));
  }

 private:
  void give_back(std::unique_ptr<TacticsCache<W>> c) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(c));
  }
  size_t megabytes_;
  std::mutex mu_;
  std::vector<std::unique_ptr<TacticsCache<W>>> free_;
};

}  // namespace sgfpat::solve

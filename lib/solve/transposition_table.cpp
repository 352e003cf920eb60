#include "solve/transposition_table.h"

#include <sys/mman.h>

#include <new>
#include <type_traits>

namespace sgfpat::solve {

TranspositionTable::TranspositionTable(size_t megabytes) : locks_(new Lock[kLocks]) {
  size_t want = megabytes * (size_t(1) << 20) / sizeof(Bucket);
  size_t n = 1024;
  while (n * 2 <= want) n *= 2;
  static_assert(std::is_aggregate_v<Bucket> && std::is_trivially_destructible_v<Bucket>,
                "buckets are fresh anonymous pages: all-zero bytes must be an empty bucket");
  bytes_ = n * sizeof(Bucket);
  void* mem = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  // Every look-up lands on a random page: with 2 MB pages the address
  // translations stay cached (a third of the search's time went to them).
  // Where the system offers none this changes nothing.
  madvise(mem, bytes_, MADV_HUGEPAGE);
  buckets_ = static_cast<Bucket*>(mem);
  buckets_n_ = n;
  mask_ = n - 1;
}

TranspositionTable::~TranspositionTable() { munmap(buckets_, bytes_); }

bool TranspositionTable::lookup(uint64_t key, TTEntry* out) const {
  size_t b = key & mask_;
  Lock& l = locks_[b & (kLocks - 1)];
  l.lock();
  const Bucket& bk = buckets_[b];
  bool found = false;
  for (const TTEntry& e : bk.e)
    if (e.key == key && (e.pn | e.dn)) {
      *out = e;
      found = true;
      break;
    }
  l.unlock();
  return found;
}

namespace {
// Replacement priority: the larger subtree, a settled entry counting as a
// few more nodes than its own (a settled leaf is cheap to find again but
// not free: its parent no longer screens its moves).  Preferring every
// settled entry to every open one, as this table once did, lets a full
// table fill with one-node leaves while the open nodes of the search's
// frontier, each the root of thousands of nodes, are thrown out: with a
// table 1/30 of the search, positions took 2-3x the nodes or did not finish.
constexpr uint64_t kSettledBonus = 8;
uint64_t keep_value(const TTEntry& e) {
  if ((e.pn | e.dn) == 0) return 0;  // empty slot
  const bool settled = e.pn == 0 || e.dn == 0;
  // Any entry above an empty slot: a node that stopped at once (its
  // children's numbers already over its thresholds) has work 0, and was
  // overwritten while its bucket still had room.
  return 1 + uint64_t(e.work) + (settled ? kSettledBonus : 0);
}
}  // namespace

void TranspositionTable::store(const TTEntry& entry) {
  size_t b = entry.key & mask_;
  Lock& l = locks_[b & (kLocks - 1)];
  l.lock();
  Bucket& bk = buckets_[b];
  TTEntry* victim = nullptr;
  for (TTEntry& e : bk.e)
    if (e.key == entry.key && (e.pn | e.dn)) victim = &e;
  if (!victim) {
    victim = &bk.e[0];
    for (TTEntry& e : bk.e)
      if (keep_value(e) < keep_value(*victim)) victim = &e;
  }
  *victim = entry;
  l.unlock();
}

}  // namespace sgfpat::solve

#include "solve/transposition_table.h"

#include <algorithm>
#include <type_traits>

namespace sgfpat::solve {

TranspositionTable::TranspositionTable(size_t megabytes) : locks_(new Lock[kLocks]) {
  size_t want = megabytes * (size_t(1) << 20) / sizeof(Bucket);
  // At most 2^32 buckets: bucket_of() scales 32 bits of the key.
  const size_t n = std::clamp<size_t>(want, 1024, size_t(1) << 32);
  static_assert(std::is_aggregate_v<Bucket> && std::is_trivially_destructible_v<Bucket>,
                "buckets are fresh anonymous pages: all-zero bytes must be an empty bucket");
  memory_ = std::make_unique<PageMemory>(n * sizeof(Bucket));
  buckets_ = static_cast<Bucket*>(memory_->data());
  buckets_n_ = n;
}

TranspositionTable::~TranspositionTable() = default;

namespace {

// Work up to 32,767 exactly, then in steps of 1,024 up to about 33.5M:
// the order of two entries' work survives, which is all it is used for.
uint16_t encode_work(uint32_t w) {
  if (w < 32768) return uint16_t(w);
  return uint16_t(std::min<uint32_t>(65535, 32768 + ((w - 32768) >> 10)));
}
uint32_t decode_work(uint16_t c) { return c < 32768 ? c : 32768 + (uint32_t(c - 32768) << 10); }

// Replacement priority: the larger subtree, a settled entry counting as a
// few more nodes than its own (a settled leaf is cheap to find again but
// not free: a capture search or a small search).  Preferring every
// settled entry to every open one, as this table once did, lets a full
// table fill with one-node leaves while the open nodes of the search's
// frontier, each the root of thousands of nodes, are thrown out: with a
// table 1/30 of the search, positions took 2-3x the nodes or did not finish.
constexpr uint64_t kSettledBonus = 8;
template <class S>  // the table's private Slot
uint64_t keep_value(const S& e) {
  if (!e.used()) return 0;
  const bool settled = e.pn == 0 || e.dn == 0;
  // Any entry above an empty slot: a node that stopped at once (its
  // children's numbers already over its thresholds) has work 0, and was
  // overwritten while its bucket still had room.
  return 1 + uint64_t(decode_work(e.work)) + (settled ? kSettledBonus : 0);
}

}  // namespace

bool TranspositionTable::lookup(uint64_t key, TTEntry* out) const {
  size_t b = bucket_of(key);
  const uint32_t lo = uint32_t(key), hi = uint32_t(key >> 32);
  Lock& l = locks_[b & (kLocks - 1)];
  l.lock();
  const Bucket& bk = buckets_[b];
  bool found = false;
  for (const Slot& e : bk.e)
    if (e.holds(lo, hi)) {
      out->key = key;
      out->pn = e.pn;
      out->dn = e.dn;
      out->work = decode_work(e.work);
      out->best = e.best;
      out->flags = e.flags;
      found = true;
      break;
    }
  l.unlock();
  return found;
}

double TranspositionTable::fill_estimate(uint64_t seed) const {
  constexpr int kSample = 64;
  int used = 0;
  for (int i = 0; i < kSample; ++i) {
    uint64_t x = (seed + uint64_t(i)) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    const size_t b = bucket_of(x >> 16);
    Lock& l = locks_[b & (kLocks - 1)];
    l.lock();
    for (const Slot& e : buckets_[b].e) used += e.used();
    l.unlock();
  }
  return double(used) / (kSample * kWays);
}

void TranspositionTable::store(const TTEntry& entry) {
  size_t b = bucket_of(entry.key);
  const uint32_t lo = uint32_t(entry.key), hi = uint32_t(entry.key >> 32);
  const Slot slot{lo, hi, entry.pn, entry.dn, encode_work(entry.work), int8_t(entry.best), entry.flags};
  Lock& l = locks_[b & (kLocks - 1)];
  l.lock();
  Bucket& bk = buckets_[b];
  Slot* victim = nullptr;
  for (Slot& e : bk.e)
    if (e.holds(lo, hi)) victim = &e;
  if (!victim) {
    victim = &bk.e[0];
    for (Slot& e : bk.e)
      if (keep_value(e) < keep_value(*victim)) victim = &e;
  }
  *victim = slot;
  l.unlock();
}

}  // namespace sgfpat::solve

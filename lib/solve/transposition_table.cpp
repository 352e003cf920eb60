#include "solve/transposition_table.h"

#include <algorithm>
#include <atomic>
#include <type_traits>

namespace sgfpat::solve {

TranspositionTable::TranspositionTable(size_t megabytes) {
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

uint32_t load(const uint32_t& w, std::memory_order o = std::memory_order_relaxed) {
  return std::atomic_ref<uint32_t>(const_cast<uint32_t&>(w)).load(o);
}
void store_word(uint32_t& w, uint32_t v, std::memory_order o = std::memory_order_relaxed) {
  std::atomic_ref<uint32_t>(w).store(v, o);
}

// Replacement priority: the larger subtree, a settled entry counting as a
// few more nodes than its own (a settled leaf is cheap to find again but
// not free: a capture search or a small search).  Preferring every
// settled entry to every open one, as this table once did, lets a full
// table fill with one-node leaves while the open nodes of the search's
// frontier, each the root of thousands of nodes, are thrown out: with a
// table 1/30 of the search, positions took 2-3x the nodes or did not finish.
constexpr uint64_t kSettledBonus = 8;
template <class S>  // the table's private Slot
bool used(const S& e) {
  return (e.pn | e.dn) != 0;  // pn = dn = 0 is an empty slot
}
// A live entry of the key with these halves.
template <class S>
bool holds(const S& e, uint32_t lo, uint32_t hi) {
  return e.key_lo == lo && e.key_hi == hi && used(e);
}
template <class S>
uint64_t keep_value(const S& e) {
  if (!used(e)) return 0;
  const bool settled = e.pn == 0 || e.dn == 0;
  // Any entry above an empty slot: a node that stopped at once (its
  // children's numbers already over its thresholds) has work 0, and was
  // overwritten while its bucket still had room.
  return 1 + uint64_t(decode_work(uint16_t(e.meta))) + (settled ? kSettledBonus : 0);
}

}  // namespace

void TranspositionTable::begin_write(Bucket& b) {
  std::atomic_ref<uint32_t> v(b.version);
  for (;;) {
    uint32_t now = v.load(std::memory_order_relaxed);
    if (!(now & 1) && v.compare_exchange_weak(now, now + 1, std::memory_order_acquire)) return;
  }
}

void TranspositionTable::end_write(Bucket& b) {
  std::atomic_ref<uint32_t>(b.version).store(b.version + 1, std::memory_order_release);
}

void TranspositionTable::read(const Bucket& b, Slot* out) const {
  for (;;) {
    const uint32_t before = load(b.version, std::memory_order_acquire);
    if (before & 1) continue;  // a writer is at it
    for (int i = 0; i < kWays; ++i) {
      const Slot& e = b.e[i];
      out[i] = Slot{load(e.key_lo), load(e.key_hi), load(e.pn), load(e.dn), load(e.meta)};
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (load(b.version) == before) return;
  }
}

bool TranspositionTable::lookup(uint64_t key, TTEntry* out) const {
  const uint32_t lo = uint32_t(key), hi = uint32_t(key >> 32);
  Slot bk[kWays];
  read(buckets_[bucket_of(key)], bk);
  for (const Slot& e : bk)
    if (holds(e, lo, hi)) {
      out->key = key;
      out->pn = e.pn;
      out->dn = e.dn;
      out->work = decode_work(uint16_t(e.meta));
      out->best = int8_t(e.meta >> 16);
      out->flags = uint8_t(e.meta >> 24);
      return true;
    }
  return false;
}

double TranspositionTable::fill_estimate(uint64_t seed) const {
  constexpr int kSample = 64;
  int n = 0;
  for (int i = 0; i < kSample; ++i) {
    uint64_t x = (seed + uint64_t(i)) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    Slot bk[kWays];
    read(buckets_[bucket_of(x >> 16)], bk);
    for (const Slot& e : bk) n += used(e);
  }
  return double(n) / (kSample * kWays);
}

void TranspositionTable::store(const TTEntry& entry) {
  Bucket& bk = buckets_[bucket_of(entry.key)];
  const uint32_t lo = uint32_t(entry.key), hi = uint32_t(entry.key >> 32);
  const uint32_t meta =
      encode_work(entry.work) | uint32_t(uint8_t(int8_t(entry.best))) << 16 | uint32_t(entry.flags) << 24;
  begin_write(bk);
  // Only writers change a bucket, and this one holds it: plain reads.
  Slot* victim = nullptr;
  for (Slot& e : bk.e)
    if (holds(e, lo, hi)) victim = &e;
  // A settled entry is a proof, final in a game without repetitions: a
  // search that comes back up through a node another thread settled
  // meanwhile (Worker::walk_line()) would store its stale open numbers.
  const bool settles = entry.pn == 0 || entry.dn == 0;
  if (victim && !settles && (victim->pn == 0 || victim->dn == 0)) {
    end_write(bk);
    return;
  }
  if (!victim) {
    victim = &bk.e[0];
    for (Slot& e : bk.e)
      if (keep_value(e) < keep_value(*victim)) victim = &e;
  }
  store_word(victim->key_lo, lo);
  store_word(victim->key_hi, hi);
  store_word(victim->pn, entry.pn);
  store_word(victim->dn, entry.dn);
  store_word(victim->meta, meta);
  end_write(bk);
}

}  // namespace sgfpat::solve

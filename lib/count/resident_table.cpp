#include "count/resident_table.h"

#include <algorithm>
#include <stdexcept>

namespace sgfpat {

// Buckets 70% full: a key then lies in its home bucket but for about one
// in 40, and the table takes ~29 bytes per pattern (13 of keys, 16 of counts).
size_t ResidentTable::buckets_for(size_t keys) { return keys * 10 / (kBucketKeys * 7) + 1; }

size_t ResidentTable::bytes_for(size_t keys) { return buckets_for(keys) * sizeof(Bucket) + keys * sizeof(Counts); }

size_t ResidentTable::build_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended) {
  const size_t L = keys.size();
  // lists[l]: the lists of levels l.. still held while level l is built.
  std::vector<size_t> lists(L + 1, 0);
  for (size_t l = L; l-- > 0;)
    lists[l] = lists[l + 1] + sizeof(uint64_t) * (keys[l] + (l < extended.size() ? extended[l] : 0));
  size_t table = 0, peak = lists[0];
  for (size_t l = 0; l < L; ++l) {
    table += bytes_for(keys[l]);
    peak = std::max(peak, table + lists[l]);
  }
  return peak;
}

size_t ResidentTable::level_build_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended) {
  size_t table = 0, peak = 0;
  for (size_t l = 0; l < keys.size(); ++l) {
    table += bytes_for(keys[l]);
    peak = std::max(peak, table + sizeof(uint64_t) * (keys[l] + (l < extended.size() ? extended[l] : 0)));
  }
  return peak;
}

ResidentTable::ResidentTable(const std::vector<std::vector<uint64_t>>& keys,
                             const std::vector<std::vector<uint64_t>>& extended)
    : levels_(keys.size()) {
  for (size_t l = 0; l < keys.size(); ++l) build_level(l, keys[l], l < extended.size() ? &extended[l] : nullptr);
}

ResidentTable::ResidentTable(std::vector<std::vector<uint64_t>>&& keys,
                             std::vector<std::vector<uint64_t>>&& extended)
    : levels_(keys.size()) {
  for (size_t l = 0; l < keys.size(); ++l) {
    build_level(l, keys[l], l < extended.size() ? &extended[l] : nullptr);
    std::vector<uint64_t>().swap(keys[l]);
    if (l < extended.size()) std::vector<uint64_t>().swap(extended[l]);
  }
}

void ResidentTable::build_level(size_t l, const std::vector<uint64_t>& keys, const std::vector<uint64_t>* extended) {
  Level& lv = levels_[l];
  const size_t n = keys.size();
  if (n >= (size_t(1) << 30)) throw std::length_error("resident table: too many patterns in one level");
  const size_t nb = buckets_for(n);
  lv.buckets = HugeArray<Bucket>(nb);
  lv.counts = HugeArray<Counts>(n);
  for (uint64_t key : keys) {
    // A key already placed lies on the path this one takes: skip repeats.
    size_t b = home(key, nb);
    bool repeat = false;
    for (;; b = b + 1 == nb ? 0 : b + 1) {
      Bucket& bk = lv.buckets[b];
      for (unsigned i = 0; i < bk.used; ++i) repeat |= bk.keys[i] == key;
      if (repeat || bk.used < kBucketKeys) break;
      bk.overflow = 1;
    }
    if (repeat) continue;
    lv.buckets[b].keys[lv.buckets[b].used++] = key;
    ++size_;
  }
  uint32_t base = 0;
  for (size_t b = 0; b < nb; ++b) {
    lv.buckets[b].base = base;
    base += lv.buckets[b].used;
  }
  if (!extended) return;
  for (uint64_t key : *extended) {
    const int32_t s = find(int(l + 1), key);
    if (s < 0) continue;
    // The handle's counts index is base + i of the key's bucket; find
    // that bucket again to set its bit.
    for (size_t b = home(key, nb);; b = b + 1 == nb ? 0 : b + 1) {
      Bucket& bk = lv.buckets[b];
      const uint32_t i = uint32_t(s >> 1) - bk.base;
      if (i < bk.used && bk.keys[i] == key) {
        bk.extended = uint8_t(bk.extended | (1u << i));
        break;
      }
    }
  }
}

int32_t ResidentTable::find(int level, uint64_t key) const {
  const Level& lv = levels_[size_t(level - 1)];
  const size_t nb = lv.buckets.size();
  for (size_t b = home(key, nb);; b = b + 1 == nb ? 0 : b + 1) {
    const Bucket& bk = lv.buckets[b];
    // All seven compares, without branches: where a key matches is random,
    // so an early exit would mispredict on most look-ups.
    unsigned match = 0;
    for (unsigned i = 0; i < kBucketKeys; ++i) match |= unsigned(bk.keys[i] == key) << i;
    match &= (1u << bk.used) - 1;
    if (match) {
      const unsigned i = unsigned(__builtin_ctz(match));
      return int32_t(((bk.base + i) << 1) | ((bk.extended >> i) & 1u));
    }
    // A bucket never filled ends every search that reaches it.
    if (!bk.overflow) return -1;
  }
}

size_t ResidentTable::bytes() const {
  size_t b = 0;
  for (const Level& lv : levels_) b += lv.buckets.bytes() + lv.counts.bytes();
  return b;
}

}  // namespace sgfpat

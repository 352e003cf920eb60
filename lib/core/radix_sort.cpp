#include "core/radix_sort.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace sgfpat {

void radix_sort(std::span<uint64_t> keys, std::vector<uint64_t>* scratch) {
  const size_t n = keys.size();
  if (n < 512) {  // the counting passes cost more than the comparisons
    std::sort(keys.begin(), keys.end());
    return;
  }
  // All eight histograms in one read of the keys.
  std::vector<std::array<size_t, 256>> count(8);  // zeros
  for (const uint64_t k : keys)
    for (int d = 0; d < 8; ++d) ++count[size_t(d)][(k >> (8 * d)) & 0xff];
  scratch->resize(n);
  uint64_t* from = keys.data();
  uint64_t* to = scratch->data();
  for (int d = 0; d < 8; ++d) {
    auto& c = count[size_t(d)];
    // A byte that is the same in every key orders nothing.
    if (std::any_of(c.begin(), c.end(), [n](size_t x) { return x == n; })) continue;
    size_t at = 0;
    for (size_t& x : c) {
      const size_t here = x;
      x = at;
      at += here;
    }
    for (size_t i = 0; i < n; ++i) {
      const uint64_t k = from[i];
      to[c[(k >> (8 * d)) & 0xff]++] = k;
    }
    std::swap(from, to);
  }
  if (from != keys.data()) std::memcpy(keys.data(), from, n * sizeof(uint64_t));
}

}  // namespace sgfpat

// Sorting 64-bit keys by their bytes (least significant first): linear in
// their number, where a comparison sort of the millions of pattern keys a
// pass lists spent most of its time on branches it could not predict.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace sgfpat {

// Sorts `keys` ascending.  *scratch is resized to keys.size() (reuse it
// across calls to keep its memory); short spans are left to std::sort.
void radix_sort(std::span<uint64_t> keys, std::vector<uint64_t>* scratch);

}  // namespace sgfpat

#include "count/count_budget.h"

#include <algorithm>
#include <cstdint>
#include <functional>

#include "count/resident_table.h"

namespace sgfpat {

size_t CountBudget::pass1_list_bytes(size_t sketch_bytes) const {
  return bytes_ > sketch_bytes ? (bytes_ - sketch_bytes) / 10 * 9 : 0;
}

size_t CountBudget::listing_list_bytes(size_t sketch_bytes) const {
  const size_t rest = left() > sketch_bytes ? left() - sketch_bytes : 0;
  return std::max(rest / 4 * 3, kMinListBytes);
}

size_t resident_count_peak_bytes(const std::vector<std::vector<uint64_t>>& keys,
                                 const std::vector<std::vector<uint64_t>>& extended, int writers) {
  std::vector<size_t> k, e;
  for (const auto& level : keys) k.push_back(level.size());
  for (const auto& level : extended) e.push_back(level.size());
  return resident_count_peak_bytes(k, e, writers);
}

size_t resident_count_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended, int writers,
                                 bool level_by_level) {
  size_t table = 0;
  for (const size_t n : keys) table += ResidentTable::bytes_for(n);
  std::vector<size_t> sizes = keys;
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  size_t sorting = 0;
  for (size_t i = 0; i < sizes.size() && i < size_t(std::max(1, writers)); ++i) sorting += sizes[i];
  const size_t build = level_by_level ? ResidentTable::level_build_peak_bytes(keys, extended)
                                     : ResidentTable::build_peak_bytes(keys, extended);
  return std::max(build, table + ResidentTable::kSortedEntryBytes * sorting);
}

}  // namespace sgfpat

#include "count/part_sources.h"

#include <algorithm>

namespace sgfpat {

ListedKeys::ListedKeys(std::vector<std::vector<uint64_t>> keys, std::vector<std::vector<uint64_t>> extended)
    : keys_(std::move(keys)), extended_(std::move(extended)), parts_(1) {}

Status ListedKeys::table(size_t, std::unique_ptr<ResidentTable>* out) {
  *out = std::make_unique<ResidentTable>(std::move(keys_), std::move(extended_));
  keys_.clear();
  extended_.clear();
  return Status::OK();
}

Status plan_parts(const KeptFileSizes& sizes, int levels, int first, int last, uint64_t from, size_t room,
                  int writers, int number, std::vector<Part>* parts) {
  parts->clear();
  for (int at = first; at <= last;) {
    int end = at - 1;
    while (end + 1 <= last && kept_part_peak_bytes(sizes, levels, at, end + 1, writers) <= room) ++end;
    if (end < at) {
      const size_t need = (size_t(1) << 20) - 1 + kept_part_peak_bytes(sizes, levels, at, at, writers);
      return Status::NotSupported(
          "the kept set (" + std::to_string(sizes.records) + " patterns) cannot be counted in " +
          std::to_string(room >> 20) + " MiB, what --memory-mb leaves for a part's table: its smallest part (the " +
          std::to_string(sizes.base_keys) + " patterns below level " + std::to_string(kSplitLevel) + " and one " +
          std::to_string(kPartBuckets) + "th of the others) needs " + std::to_string(need >> 20) +
          " MiB: give the count more memory");
    }
    Part p;
    p.number = number++;
    p.first = at;
    p.last = end;
    p.range = PartRange::buckets(at, end);
    if (parts->empty()) p.range.lo = std::max(p.range.lo, from);
    parts->push_back(p);
    at = end + 1;
  }
  return Status::OK();
}

}  // namespace sgfpat

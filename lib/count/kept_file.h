// The kept set on disk, read back a part at a time.
//
// A kept record file (count/record_file.h) lists the patterns a sketch
// keeps, by level and key, marked kept and/or extended and, above the split
// level, with the bucket of their split-level pattern (count/part_range.h).
// It is written from a by-bucket KeptCollector (the shards' kept step; the
// one listing of a count in parts, in sorted runs merged at the end) and
// read back a part at a time: the base (the levels below the split level,
// in every part) and a run of buckets, built into a resident table level by
// level as the file is read, so that only one level's lists are ever beside
// the table.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/kept_set.h"
#include "count/record_file.h"
#include "count/resident_table.h"

namespace sgfpat {

// A kept file's patterns per level and bucket.
struct KeptFileSizes {
  uint64_t records = 0;
  uint64_t base_keys = 0;  // kept, of all base levels
  // Index at(level, bucket); the base's are at bucket 0.
  std::vector<uint64_t> keys, extended;
  static size_t at(int level, int bucket) { return size_t(level - 1) * kPartBuckets + size_t(bucket); }
  // Per level, the kept and extended keys of the base and buckets
  // first..last.
  void range(int levels, int first, int last, std::vector<size_t>* keys, std::vector<size_t>* extended) const;
};

// Reads the kept file at `path` through (checking it) to measure it.
Status measure_kept_file(const std::string& path, int levels, KeptFileSizes* sizes);

// The most memory counting the base and buckets first..last holds: the
// table's build by load_kept_table() or its writing by `writers` threads
// (resident_count_peak_bytes()).
size_t kept_part_peak_bytes(const KeptFileSizes& sizes, int levels, int first, int last, int writers);

// The resident table of the base and buckets first..last of the kept file
// `sizes` measured, built level by level as the file is read.
Status load_kept_table(const std::string& path, const KeptFileSizes& sizes, int levels, int first, int last,
                       std::unique_ptr<ResidentTable>* table);

// Writes the patterns `collector` (by bucket) lists into `out`, in order:
// one record a pattern, its flags or-ed over the lists.  The collector's
// lists are compacted, not emptied.
void write_kept_records(KeptCollector* collector, int levels, RecordWriter* out);

}  // namespace sgfpat

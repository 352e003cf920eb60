// Where a count's parts come from (count/count_driver.h): pass 1's lists
// in memory, one part; or a kept file, runs of buckets that fit the
// budget, packed by the one part loop (plan_parts()).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/count_driver.h"
#include "count/kept_file.h"

namespace sgfpat {

// The whole kept set from lists in memory (distinct keys per level, as
// KeySet::release() gives them): one part.  Its table is built from the
// lists, each level's lists freed once that level is built.
class ListedKeys : public PartSource {
 public:
  ListedKeys(std::vector<std::vector<uint64_t>> keys, std::vector<std::vector<uint64_t>> extended);
  const std::vector<Part>& parts() const override { return parts_; }
  Status table(size_t i, std::unique_ptr<ResidentTable>* out) override;

 private:
  std::vector<std::vector<uint64_t>> keys_, extended_;
  std::vector<Part> parts_;
};

// The one part loop: the buckets first..last of the kept file `sizes`
// measured, packed in order into runs whose base and buckets fit `room` at
// their peak (kept_part_peak_bytes(), a writing on `writers` threads),
// numbered from `number`.  The first part's range starts at `from` (a
// part_hash() in bucket `first`: a count resumed there).  NotSupported,
// saying how much memory the smallest part needs, when the base and one
// bucket do not fit.
Status plan_parts(const KeptFileSizes& sizes, int levels, int first, int last, uint64_t from, size_t room,
                  int writers, int number, std::vector<Part>* parts);

// The parts of a kept file: each table read from the file, level by level.
class KeptFileParts : public PartSource {
 public:
  // `sizes` as measure_kept_file() measured the file at `path`; `parts`
  // from plan_parts().
  KeptFileParts(std::string path, const KeptFileSizes& sizes, int levels, std::vector<Part> parts)
      : path_(std::move(path)), sizes_(sizes), levels_(levels), parts_(std::move(parts)) {}
  const std::vector<Part>& parts() const override { return parts_; }
  Status table(size_t i, std::unique_ptr<ResidentTable>* out) override {
    return load_kept_table(path_, sizes_, levels_, parts_[i].first, parts_[i].last, out);
  }

 private:
  std::string path_;
  KeptFileSizes sizes_;
  int levels_;
  std::vector<Part> parts_;
};

}  // namespace sgfpat

// The one place a count's memory budget is divided.
//
// The budget is what counting gets of --memory-mb (MemorySplit::count_bytes,
// ingest/ingest_policy.h: RocksDB and a fixed reserve take the rest).  Pass
// 1 holds the sketch of played patterns and the kept lists beside it; then
// the count holds, all along, what it needs besides its tables (the games'
// fingerprints in opening order, and whatever the caller adds with hold()),
// and each part's table (count/count_driver.h) takes at its peak (its build
// or its writing: resident_count_peak_bytes()) at most table_room().
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sgfpat {

class CountBudget {
 public:
  explicit CountBudget(size_t bytes) : bytes_(bytes) {}
  size_t bytes() const { return bytes_; }

  // Pass 1's sketch: at most half the budget (it shrinks for small corpora).
  size_t sketch_max() const { return bytes_ / 2; }
  // Pass 1's kept lists beside a sketch of `sketch_bytes`: a tenth of the
  // rest is left for the copy a list makes of itself when it is compacted
  // (count/kept_set.h).
  size_t pass1_list_bytes(size_t sketch_bytes) const;
  // The listing of a count in parts (count/key_parts.h) beside a sketch of
  // `sketch_bytes` and what is held: its lists fill their share before
  // each run is written, growing by half again at a time, so three
  // quarters of what is left keeps the process within its budget (at
  // 1,000 MB and 128k games, 0.9 of it passed the budget by 1%).  Never
  // less than kMinListBytes: below that the listing writes a run after
  // nearly every batch (and the budget is one no run of sgfpat holds).
  size_t listing_list_bytes(size_t sketch_bytes) const;
  static constexpr size_t kMinListBytes = size_t(3) << 19;

  // Memory held from now on beside the tables (the games' order, ...).
  void hold(size_t bytes) { held_ += bytes; }
  size_t held() const { return held_; }
  // The budget less what is held.
  size_t left() const { return bytes_ > held_ ? bytes_ - held_ : 0; }
  // What one part's table may take at its peak: what is left.  The peak
  // is exact (resident_count_peak_bytes()); the counting threads' own
  // buffers are in the reserve the budget was cut from (kIngestFixedBytes).
  size_t table_room() const { return left(); }
  bool table_fits(size_t peak_bytes) const { return peak_bytes <= table_room(); }

 private:
  size_t bytes_;
  size_t held_ = 0;
};

// The most memory a resident count of these lists (by_level(): distinct
// keys) holds: its table's build (ResidentTable::build_peak_bytes()) or
// its writing on `writers` threads (the whole table beside the sorted keys
// of the `writers` largest levels, ResidentTable::kSortedEntryBytes a
// pattern).
size_t resident_count_peak_bytes(const std::vector<std::vector<uint64_t>>& keys,
                                 const std::vector<std::vector<uint64_t>>& extended, int writers);
// The same from the lists' sizes (keys[l], extended[l]: level l + 1's),
// for a writing that sorts `writers` levels at once; with
// `level_by_level`, for a table built by ResidentTable::add_level().
size_t resident_count_peak_bytes(const std::vector<size_t>& keys, const std::vector<size_t>& extended, int writers,
                                 bool level_by_level = false);

}  // namespace sgfpat

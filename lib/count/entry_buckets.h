// Frontier entries (store/frontier_entry.h) spilled to files by bucket of
// their key, as replay threads find them: how a night holds its moves'
// frontiers when they do not fit in memory (count/night.h crosses them a
// part, a run of buckets, at a time).
//
// A key's bucket is part_bucket() of it (count/part_range.h: 64 buckets,
// spread by hash).  Each thread buffers 64 KB of entries a bucket and
// appends them to its own file of the bucket, "<prefix>-t<thread>-b<bucket>",
// so memory stays at threads x 64 small buffers whatever the night's size.
// An entry may carry a fixed number of keys with it (a move's played keys
// of every level).  The files are scratch: raw records, read back by the
// same process.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/part_range.h"
#include "store/frontier_entry.h"

namespace sgfpat {

class EntryBuckets {
 public:
  // Files under `prefix` (a path in an existing folder) for `threads`
  // threads, each entry with `keys_per_entry` keys.
  EntryBuckets(std::string prefix, int threads, size_t keys_per_entry = 0);
  // Thread `thread`'s entries, with keys_per_entry keys each in `keys`
  // (entry i's at i * keys_per_entry): buffered, a full buffer appended to
  // its file.
  Status add(int thread, const std::vector<FrontierEntry>& entries, std::span<const uint64_t> keys = {});
  // Writes every buffer out (after the last add()).
  Status flush();
  // Entries in bucket b, after flush().
  uint64_t size(int b) const { return sizes_[size_t(b)]; }
  uint64_t total() const;
  // Appends bucket b's entries (every thread's, in no order) to *out, and
  // their keys to *keys when keys_per_entry is not 0.  Corruption when a
  // file does not hold what was written to it.
  Status read(int b, std::vector<FrontierEntry>* out, std::vector<uint64_t>* keys = nullptr) const;

 private:
  std::string path(int thread, int b) const;
  Status write(int thread, int b);
  std::string prefix_;
  size_t keys_per_entry_, record_bytes_;
  std::vector<std::array<std::vector<char>, kPartBuckets>> buffers_;  // [thread][bucket]: records
  std::vector<std::array<uint64_t, kPartBuckets>> written_;          // [thread][bucket]: records
  std::array<uint64_t, kPartBuckets> sizes_{};
};

}  // namespace sgfpat

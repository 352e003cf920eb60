// How the counts family stores one pattern's counts, the one place of these
// bytes:
//   key    generation (4, BE) | level (1) | pattern key (8, BE): big-endian,
//          so that RocksDB's bytewise order is (generation, level, key)
//   value  played, seen, wins: three little-endian u64s
// and the merge operator ("sgfpat.add3") that adds values.  They have no
// version of their own: they exist only inside a pattern database, whose
// format version (core/format_version.h) covers them.
#pragma once
#include <rocksdb/slice.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/coding.h"
#include "store/pattern_db.h"

namespace rocksdb {
class MergeOperator;
}

namespace sgfpat {

inline constexpr size_t kCountsKeyBytes = 13;
inline constexpr size_t kCountsValueBytes = 24;

// Inline: a count's writing and reading run once per stored pattern.
// Level 0 of a generation holds marks, not patterns: a night's, keyed by
// its number, and a catch-up's, keyed by its number with this bit set.
inline constexpr uint64_t kCatchupMark = uint64_t(1) << 63;

inline std::string counts_key(uint32_t gen, int level, uint64_t key) {
  std::string k(kCountsKeyBytes, '\0');
  encode_fixed32_be(k.data(), gen);
  k[4] = char(level);
  encode_fixed64_be(k.data() + 5, key);
  return k;
}
// `k` must be kCountsKeyBytes long.
inline void parse_counts_key(const rocksdb::Slice& k, int* level, uint64_t* key) {
  *level = uint8_t(k[4]);
  *key = decode_fixed64_be(k.data() + 5);
}

// A counts value's bytes, made without allocating.
struct CountsValue {
  char bytes[kCountsValueBytes];
  explicit CountsValue(const PatternCounts& c) {
    encode_fixed64(bytes, c.played);
    encode_fixed64(bytes + 8, c.seen);
    encode_fixed64(bytes + 16, c.wins);
  }
  rocksdb::Slice slice() const { return rocksdb::Slice(bytes, kCountsValueBytes); }
};
// False for a value of any other size (damage: never read as zero counts).
inline bool parse_counts(const rocksdb::Slice& v, PatternCounts* c) {
  if (v.size() != kCountsValueBytes) return false;
  *c = {decode_fixed64(v.data()), decode_fixed64(v.data() + 8), decode_fixed64(v.data() + 16)};
  return true;
}

// The counts family's merge operator: adds values; a damaged operand fails
// the merge, so that RocksDB reports the key as corrupt instead of summing
// around it.
std::shared_ptr<rocksdb::MergeOperator> counts_merge_operator();

}  // namespace sgfpat

// Files of (level, key) records in strictly increasing order, either a kept
// list (flags) or counts: what the shard steps hand each other, and the
// kept set a count in parts lists once and reads back a part at a time.
//
// Layout: a 64-byte header, then the records.
//   header  magic "SGFPREC" and the format's version as a digit ("SGFPREC2";
//           core/format_version.h: kRecordFileFormat) | kind fixed32 (1 kept, 2 counts) | levels
//           fixed32 | records fixed64 | checksum fixed64 (record_checksum()
//           folded over every record) | games, positions, candidates, items
//           fixed64 (what the step that wrote the file went through)
//   record  level (1 byte) | key fixed64 | kept: flags (1 byte: 1 kept,
//           2 extended), bucket (1 byte: above the split level, the
//           part_bucket() of the pattern's split-level pattern, else 0) ;
//           counts: played, seen, wins as varints
// All fixed-width numbers little-endian (core/coding.h).  A reader checks
// the magic, the version (check_format_version(): another one is
// NotSupported), the kind, the order of the records, their number, the
// checksum and that nothing follows: a damaged or truncated file is an
// error (Corruption), never a shorter list.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "io/atomic_file.h"
#include "store/pattern_db.h"

namespace sgfpat {

enum class RecordKind : uint32_t { kKept = 1, kCounts = 2 };

inline constexpr uint8_t kRecordKept = 1;      // a pattern the summed sketch may keep
inline constexpr uint8_t kRecordExtended = 2;  // the level-below part of such a pattern

struct ShardRecord {
  int level = 0;
  uint64_t key = 0;
  uint8_t flags = 0;     // kept lists
  uint8_t bucket = 0;    // kept lists: see the layout above
  PatternCounts counts;  // counts files
};

struct RecordMeta {
  uint64_t games = 0, positions = 0, candidates = 0, items = 0;
};

// Writes a record file atomically: nothing is at `path` until commit().
class RecordWriter {
 public:
  Status open(const std::string& path, RecordKind kind, int levels);
  // Records must come in strictly increasing (level, key) order.
  void add(const ShardRecord& r);
  Status commit(const RecordMeta& meta);
  uint64_t records() const { return records_; }
  uint64_t bytes() const { return file_.offset(); }

 private:
  AtomicFile file_;
  RecordKind kind_ = RecordKind::kKept;
  int levels_ = 0;
  uint64_t records_ = 0, checksum_ = 0;
  int last_level_ = 0;
  uint64_t last_key_ = 0;
  bool out_of_order_ = false;
  std::string buf_;
};

// What an open RecordReader buffers (a merge holds one per file).
inline constexpr size_t kRecordReaderBufferBytes = size_t(1) << 20;

class RecordReader {
 public:
  RecordReader() = default;
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;
  ~RecordReader();
  // Opens and checks the header.  NotFound when there is no file.
  Status open(const std::string& path, RecordKind kind, int levels);
  // The next record: true with *r filled; false at the end or on an error
  // (status() says which; the checks of the whole file are made at the end).
  bool next(ShardRecord* r);
  const Status& status() const { return status_; }
  const RecordMeta& meta() const { return meta_; }
  uint64_t records() const { return records_; }

 private:
  bool fail(const std::string& why);
  bool read_byte(uint8_t* b);
  bool read_varint(uint64_t* v);
  std::string path_;
  std::FILE* f_ = nullptr;
  RecordKind kind_ = RecordKind::kKept;
  int levels_ = 0;
  RecordMeta meta_;
  uint64_t records_ = 0, expected_checksum_ = 0, done_ = 0, checksum_ = 0;
  int last_level_ = 0;
  uint64_t last_key_ = 0;
  Status status_;
};

// Merges the record files `paths` (all of `kind`) in (level, key) order:
// calls emit once per distinct (level, key) with the flags or-ed, the
// counts summed and the largest bucket (every list names the same one: a
// pattern has one split-level pattern).  *meta gets the files' metas summed.
Status merge_records(const std::vector<std::string>& paths, RecordKind kind, int levels,
                     const std::function<Status(const ShardRecord&)>& emit, RecordMeta* meta);

// merge_records() into the record file `out_path` (written atomically,
// with the metas summed); *meta and *records (either may be null) say
// what it holds.
Status merge_record_files(const std::vector<std::string>& paths, RecordKind kind, int levels,
                          const std::string& out_path, RecordMeta* meta, uint64_t* records);

}  // namespace sgfpat

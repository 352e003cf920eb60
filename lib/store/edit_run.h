// Sorted runs of one family's edits in a file: what a commit too large to
// hold in memory takes in (PatternDb::commit_night(), a night's crossing
// written a part at a time), merged at the commit into the family's one
// table file.
//
// Layout (docs/formats.md, "Edit runs"): the magic "SGFPRUN1", then per
// edit  op (1 byte: 0 put, 1 merge, 2 delete) | key length varint | key |
// value length varint | value,  then the end: 0xFF | edits fixed64 |
// checksum fixed64 (zlib's crc32 of every byte before the end).  Keys
// strictly increase (bytewise, RocksDB's order).  A reader checks the
// magic, the order, the end, the number and the checksum: a truncated or
// damaged run is an error (Corruption), never a shorter one.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/status.h"
#include "store/frontier_entry.h"
#include "store/pattern_db.h"
#include "store/pending_pattern.h"
#include "store/table_files.h"

namespace sgfpat {

class EditRunWriter {
 public:
  EditRunWriter() = default;
  EditRunWriter(const EditRunWriter&) = delete;
  EditRunWriter& operator=(const EditRunWriter&) = delete;
  ~EditRunWriter();
  // Creates (or truncates) the file.
  Status open(const std::string& path);
  // Keys must strictly increase; a key out of order fails finish().
  void add(TableOp op, std::string_view key, std::string_view value);
  // Writes the end and closes: the first error of any write, or Internal
  // for a key out of order.
  Status finish();
  uint64_t edits() const { return edits_; }

 private:
  void flush();
  std::string path_;
  std::FILE* f_ = nullptr;
  std::string buf_, last_key_;
  uint64_t edits_ = 0;
  unsigned long crc_ = 0;
  bool out_of_order_ = false, failed_ = false;
  int error_ = 0;
};

// A night's edits, encoded as the families hold them: counts added to a
// pattern of generation `gen` (merged), a pending pattern's whole value
// (put), a frontier entry put or deleted.
void add_counts_edit(EditRunWriter* run, uint32_t gen, int level, uint64_t key, const PatternCounts& counts);
void add_pending_edit(EditRunWriter* run, const PendingPattern& p);
void add_frontier_edit(EditRunWriter* run, const FrontierEntry& e, bool put);

// A run read in order; the stream KWayMerge (core/kway_merge.h) merges.
class EditRunReader {
 public:
  EditRunReader() = default;
  EditRunReader(const EditRunReader&) = delete;
  EditRunReader& operator=(const EditRunReader&) = delete;
  ~EditRunReader();
  // Opens the run and reads its first edit.
  Status open(const std::string& path);
  bool valid() const { return valid_; }
  std::string_view key() const { return key_; }
  TableOp op() const { return op_; }
  std::string_view value() const { return value_; }
  // The next edit; at the end, the run's checks (status() says what failed).
  void next();
  const Status& status() const { return status_; }

 private:
  bool read(void* dst, size_t n);
  bool read_varint(uint64_t* v);
  void fail(const std::string& why);
  std::string path_;
  std::FILE* f_ = nullptr;
  bool valid_ = false;
  TableOp op_ = TableOp::kPut;
  std::string key_, value_, last_key_;
  uint64_t edits_ = 0;
  unsigned long crc_ = 0;
  Status status_;
};

}  // namespace sgfpat

#include "store/edit_run.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "core/coding.h"
#include "io/atomic_file.h"
#include "store/count_entry.h"

namespace sgfpat {

namespace {
constexpr char kMagic[] = "SGFPRUN1";
constexpr size_t kMagicBytes = 8;
constexpr uint8_t kEnd = 0xFF;
constexpr size_t kBufferBytes = size_t(1) << 20;

unsigned long crc_of(unsigned long crc, const void* data, size_t n) {
  return crc32(crc, static_cast<const Bytef*>(data), uInt(n));
}
}  // namespace

EditRunWriter::~EditRunWriter() {
  if (f_) std::fclose(f_);
}

Status EditRunWriter::open(const std::string& path) {
  path_ = path;
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) return write_error_status(errno, "writing " + path);
  buf_.assign(kMagic, kMagicBytes);
  crc_ = crc32(0L, Z_NULL, 0);
  return Status::OK();
}

void EditRunWriter::flush() {
  if (buf_.empty() || failed_) return;
  crc_ = crc_of(crc_, buf_.data(), buf_.size());
  if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) {
    failed_ = true;
    error_ = errno;
  }
  buf_.clear();
}

void EditRunWriter::add(TableOp op, std::string_view key, std::string_view value) {
  if (edits_ > 0 && !(std::string_view(last_key_) < key)) out_of_order_ = true;
  last_key_.assign(key);
  buf_.push_back(char(op));
  put_length_prefixed(&buf_, key);
  put_length_prefixed(&buf_, value);
  ++edits_;
  if (buf_.size() >= kBufferBytes) flush();
}

Status EditRunWriter::finish() {
  if (!f_) return Status::Internal("edit run " + path_ + " was not opened");
  flush();
  std::string end(1, char(kEnd));
  put_fixed64(&end, edits_);
  put_fixed64(&end, uint64_t(crc_));
  if (!failed_ && std::fwrite(end.data(), 1, end.size(), f_) != end.size()) {
    failed_ = true;
    error_ = errno;
  }
  if (std::fclose(f_) != 0 && !failed_) {
    failed_ = true;
    error_ = errno;
  }
  f_ = nullptr;
  if (failed_) return write_error_status(error_, "writing " + path_);
  if (out_of_order_) return Status::Internal("edit run " + path_ + ": keys out of order");
  return Status::OK();
}

void add_counts_edit(EditRunWriter* run, uint32_t gen, int level, uint64_t key, const PatternCounts& counts) {
  const CountsValue v(counts);
  run->add(TableOp::kMerge, counts_key(gen, level, key), std::string_view(v.bytes, kCountsValueBytes));
}

void add_pending_edit(EditRunWriter* run, const PendingPattern& p) {
  run->add(TableOp::kPut, pending_pattern_key(p.level, p.key), pending_pattern_value(p));
}

void add_frontier_edit(EditRunWriter* run, const FrontierEntry& e, bool put) {
  if (put)
    run->add(TableOp::kPut, frontier_key(e), frontier_value(e));
  else
    run->add(TableOp::kDelete, frontier_key(e), {});
}

EditRunReader::~EditRunReader() {
  if (f_) std::fclose(f_);
}

void EditRunReader::fail(const std::string& why) {
  valid_ = false;
  if (status_.ok()) status_ = Status::Corruption("edit run " + path_ + ": " + why);
}

bool EditRunReader::read(void* dst, size_t n) {
  if (n == 0) return true;
  if (std::fread(dst, 1, n, f_) != n) {
    fail("truncated");
    return false;
  }
  crc_ = crc_of(crc_, dst, n);
  return true;
}

bool EditRunReader::read_varint(uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b;
    if (!read(&b, 1)) return false;
    *v |= uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  fail("a damaged length");
  return false;
}

Status EditRunReader::open(const std::string& path) {
  path_ = path;
  f_ = std::fopen(path.c_str(), "rb");
  if (!f_) return Status::IOError("cannot read " + path + ": " + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, kBufferBytes);
  crc_ = crc32(0L, Z_NULL, 0);
  char magic[kMagicBytes];
  if (!read(magic, kMagicBytes) || std::memcmp(magic, kMagic, kMagicBytes) != 0) {
    fail("not an edit run");
    return status_;
  }
  valid_ = true;
  next();
  return status_;
}

void EditRunReader::next() {
  if (!status_.ok()) return;
  last_key_.swap(key_);
  const unsigned long crc = crc_;  // of every byte before the end's
  uint8_t op;
  if (!read(&op, 1)) return;
  if (op == kEnd) {
    valid_ = false;
    char end[16];
    if (std::fread(end, 1, sizeof end, f_) != sizeof end) return fail("truncated");
    if (decode_fixed64(end) != edits_) return fail("the number of edits differs from its end's");
    if (decode_fixed64(end + 8) != uint64_t(crc)) return fail("checksum mismatch");
    if (std::fgetc(f_) != EOF) return fail("bytes after its end");
    return;
  }
  if (op > uint8_t(TableOp::kDelete)) return fail("an unknown edit");
  uint64_t n;
  if (!read_varint(&n) || n > (uint64_t(1) << 20)) return fail("a damaged key");
  key_.resize(n);
  if (!read(key_.data(), n)) return;
  if (!read_varint(&n) || n > (uint64_t(1) << 26)) return fail("a damaged value");
  value_.resize(n);
  if (!read(value_.data(), n)) return;
  if (edits_ > 0 && !(last_key_ < key_)) return fail("keys out of order");
  op_ = TableOp(op);
  ++edits_;
  valid_ = true;
}

}  // namespace sgfpat

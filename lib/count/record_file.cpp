#include "count/record_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "core/coding.h"
#include "core/format_version.h"
#include "core/hash.h"
#include "core/kway_merge.h"
#include "count/part_range.h"

namespace sgfpat {

namespace {
// The magic is these 7 bytes and the format's version as a digit
// (kRecordFileFormat: "SGFPREC2").
constexpr char kMagic[7] = {'S', 'G', 'F', 'P', 'R', 'E', 'C'};
constexpr size_t kHeaderBytes = 64;

uint64_t record_checksum(uint64_t h, const ShardRecord& r, RecordKind kind) {
  h = mix64(h ^ uint64_t(r.level)) + r.key;
  if (kind == RecordKind::kKept) return mix64(h ^ r.flags ^ (uint64_t(r.bucket) << 8));
  h = mix64(h ^ r.counts.played) + r.counts.seen;
  return mix64(h ^ r.counts.wins);
}

bool in_order(int last_level, uint64_t last_key, const ShardRecord& r) {
  return r.level > last_level || (r.level == last_level && r.key > last_key);
}
}  // namespace

Status RecordWriter::open(const std::string& path, RecordKind kind, int levels) {
  kind_ = kind;
  levels_ = levels;
  Status st = file_.open(path);
  if (!st.ok()) return st;
  const std::string zeros(kHeaderBytes, '\0');
  file_.write(zeros.data(), zeros.size());  // filled in by commit()
  return Status::OK();
}

void RecordWriter::add(const ShardRecord& r) {
  if (!in_order(last_level_, last_key_, r) || r.level < 1 || r.level > levels_) out_of_order_ = true;
  last_level_ = r.level;
  last_key_ = r.key;
  buf_.push_back(char(uint8_t(r.level)));
  put_fixed64(&buf_, r.key);
  if (kind_ == RecordKind::kKept) {
    buf_.push_back(char(r.flags));
    buf_.push_back(char(r.bucket));
  } else {
    put_varint64(&buf_, r.counts.played);
    put_varint64(&buf_, r.counts.seen);
    put_varint64(&buf_, r.counts.wins);
  }
  checksum_ = record_checksum(checksum_, r, kind_);
  ++records_;
  if (buf_.size() >= (size_t(1) << 20)) {
    file_.write(buf_.data(), buf_.size());
    buf_.clear();
  }
}

Status RecordWriter::commit(const RecordMeta& meta) {
  if (out_of_order_) return Status::Internal("record file " + file_.path() + ": records out of order");
  file_.write(buf_.data(), buf_.size());
  buf_.clear();
  std::string h(kMagic, 7);
  h.push_back(char('0' + kRecordFileFormat.current));
  put_fixed32(&h, uint32_t(kind_));
  put_fixed32(&h, uint32_t(levels_));
  put_fixed64(&h, records_);
  put_fixed64(&h, checksum_);
  for (uint64_t v : {meta.games, meta.positions, meta.candidates, meta.items}) put_fixed64(&h, v);
  file_.write_at(0, h.data(), h.size());
  return file_.commit();
}

RecordReader::~RecordReader() {
  if (f_) std::fclose(f_);
}

bool RecordReader::fail(const std::string& why) {
  if (status_.ok()) status_ = Status::Corruption("record file " + path_ + " is damaged (" + why + ")");
  return false;
}

Status RecordReader::open(const std::string& path, RecordKind kind, int levels) {
  path_ = path;
  kind_ = kind;
  levels_ = levels;
  f_ = std::fopen(path.c_str(), "rb");
  if (!f_) {
    if (errno == ENOENT) return Status::NotFound(path + " is missing (did the step that writes it finish?)");
    return Status::IOError("cannot open " + path + ": " + std::strerror(errno));
  }
  std::setvbuf(f_, nullptr, _IOFBF, kRecordReaderBufferBytes);
  char h[kHeaderBytes];
  if (std::fread(h, 1, kHeaderBytes, f_) != kHeaderBytes) {
    fail("truncated header");
    return status_;
  }
  // The version is checked before anything else of the header: another
  // version's header may mean something else.
  const uint32_t version = uint32_t(uint8_t(h[7])) - uint32_t('0');
  if (std::memcmp(h, kMagic, 7) != 0) {
    fail("not a record file");
  } else if (Status v = check_format_version(kRecordFileFormat, version, path); !v.ok()) {
    status_ = v;
  } else if (decode_fixed32(h + 8) != uint32_t(kind)) {
    fail("another kind of record file");
  } else if (decode_fixed32(h + 12) != uint32_t(levels)) {
    fail("made for another number of levels");
  }
  records_ = decode_fixed64(h + 16);
  expected_checksum_ = decode_fixed64(h + 24);
  meta_ = {decode_fixed64(h + 32), decode_fixed64(h + 40), decode_fixed64(h + 48), decode_fixed64(h + 56)};
  return status_;
}

bool RecordReader::read_byte(uint8_t* b) {
  const int c = getc_unlocked(f_);
  if (c == EOF) return std::ferror(f_) ? fail(std::string("read error: ") + std::strerror(errno)) : fail("truncated");
  *b = uint8_t(c);
  return true;
}

bool RecordReader::read_varint(uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b;
    if (!read_byte(&b)) return false;
    result |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = result;
      return true;
    }
  }
  return fail("bad varint");
}

bool RecordReader::next(ShardRecord* r) {
  if (!status_.ok() || !f_) return false;
  if (done_ == records_) {
    if (checksum_ != expected_checksum_) return fail("checksum mismatch");
    if (getc_unlocked(f_) != EOF) return fail("bytes after the last record");
    return false;
  }
  uint8_t level;
  char key[8];
  if (!read_byte(&level)) return false;
  if (std::fread(key, 1, 8, f_) != 8) return fail("truncated");
  r->level = level;
  r->key = decode_fixed64(key);
  r->flags = 0;
  r->bucket = 0;
  r->counts = PatternCounts{};
  if (kind_ == RecordKind::kKept) {
    if (!read_byte(&r->flags) || !read_byte(&r->bucket)) return false;
    if (r->bucket >= kPartBuckets) return fail("bad bucket");
  } else if (!read_varint(&r->counts.played) || !read_varint(&r->counts.seen) || !read_varint(&r->counts.wins)) {
    return false;
  }
  if (r->level < 1 || r->level > levels_ || !in_order(last_level_, last_key_, *r)) return fail("records out of order");
  last_level_ = r->level;
  last_key_ = r->key;
  checksum_ = record_checksum(checksum_, *r, kind_);
  ++done_;
  return true;
}

namespace {
// A record file as a stream of the one k-way merge (core/kway_merge.h).
struct RecordStream {
  RecordReader reader;
  ShardRecord head;
  bool at = false;
  bool valid() const { return at; }
  std::pair<int, uint64_t> key() const { return {head.level, head.key}; }
  void next() { at = reader.next(&head); }
  Status status() const { return reader.status(); }
};
}  // namespace

Status merge_records(const std::vector<std::string>& paths, RecordKind kind, int levels,
                     const std::function<Status(const ShardRecord&)>& emit, RecordMeta* meta) {
  *meta = RecordMeta{};
  std::vector<std::unique_ptr<RecordStream>> files;
  std::vector<RecordStream*> streams;
  for (const std::string& path : paths) {
    files.push_back(std::make_unique<RecordStream>());
    RecordStream& f = *files.back();
    Status st = f.reader.open(path, kind, levels);
    if (!st.ok()) return st;
    const RecordMeta& m = f.reader.meta();
    meta->games += m.games;
    meta->positions += m.positions;
    meta->candidates += m.candidates;
    meta->items += m.items;
    f.next();
    if (!f.reader.status().ok()) return f.reader.status();
    streams.push_back(&f);
  }
  KWayMerge<RecordStream> merge(std::move(streams));
  while (merge.valid()) {
    ShardRecord sum;
    sum.level = merge.top().head.level;
    sum.key = merge.top().head.key;
    while (merge.valid() && merge.top().key() == std::make_pair(sum.level, sum.key)) {
      const ShardRecord& r = merge.top().head;
      sum.flags |= r.flags;
      sum.bucket = std::max(sum.bucket, r.bucket);
      sum.counts.played += r.counts.played;
      sum.counts.seen += r.counts.seen;
      sum.counts.wins += r.counts.wins;
      Status st = merge.next();
      if (!st.ok()) return st;
    }
    Status st = emit(sum);
    if (!st.ok()) return st;
  }
  return merge.status();
}

Status merge_record_files(const std::vector<std::string>& paths, RecordKind kind, int levels,
                          const std::string& out_path, RecordMeta* meta, uint64_t* records) {
  RecordWriter out;
  Status st = out.open(out_path, kind, levels);
  if (!st.ok()) return st;
  RecordMeta summed;
  st = merge_records(
      paths, kind, levels,
      [&](const ShardRecord& r) {
        out.add(r);
        return Status::OK();
      },
      &summed);
  if (st.ok()) st = out.commit(summed);
  if (!st.ok()) return st;
  if (meta) *meta = summed;
  if (records) *records = out.records();
  return Status::OK();
}

}  // namespace sgfpat

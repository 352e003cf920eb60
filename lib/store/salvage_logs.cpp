// salvage_logs(): RocksDB's write-ahead log format read without RocksDB
// (its reader is not public, and its recovery stops at or skips damage in
// ways that lose whole families), record by record.
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <filesystem>
#include <fstream>

#include "store/salvage.h"

namespace sgfpat {

namespace {
// RocksDB's log format (db/log_format.h): 32 KiB blocks of physical
// records, each a 7-byte header (masked crc32c of type and data 4, length
// 2 little-endian, type 1) and its data; a logical record is one full
// fragment or a first, middles and a last.  A block's last bytes, too few
// for a header, are padding.
constexpr size_t kBlock = 32768, kHeader = 7;
enum : unsigned { kZero = 0, kFull = 1, kFirst = 2, kMiddle = 3, kLast = 4 };

uint32_t crc32c(const char* data, size_t n) {
  boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true> crc;
  crc.process_bytes(data, n);
  return crc.checksum();
}
uint32_t unmask(uint32_t masked) {  // util/crc32c.h
  const uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}
uint32_t fixed32(const char* p) {
  return uint32_t(uint8_t(p[0])) | uint32_t(uint8_t(p[1])) << 8 | uint32_t(uint8_t(p[2])) << 16 |
         uint32_t(uint8_t(p[3])) << 24;
}
uint64_t fixed64(const char* p) { return uint64_t(fixed32(p)) | uint64_t(fixed32(p + 4)) << 32; }

// The writes of one batch, kept only when the whole batch parses.
class BatchReader : public rocksdb::WriteBatch::Handler {
 public:
  explicit BatchReader(uint64_t seq) : seq_(seq) {}
  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    if (cf == 0) {
      meta_.emplace_back(key.ToString(), value.ToString());
    } else if (key.size() == sizeof(Fingerprint)) {
      Fingerprint fp;
      std::copy_n(reinterpret_cast<const uint8_t*>(key.data()), fp.size(), fp.begin());
      if (is_game_record(fp, std::string_view(value.data(), value.size())))
        games_.emplace_back(fp, value.ToString());
    }
    return rocksdb::Status::OK();
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    if (cf == 0) meta_.emplace_back(key.ToString(), std::nullopt);
    return rocksdb::Status::OK();
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& key) override { return DeleteCF(cf, key); }
  rocksdb::Status DeleteRangeCF(uint32_t, const rocksdb::Slice&, const rocksdb::Slice&) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status MergeCF(uint32_t, const rocksdb::Slice&, const rocksdb::Slice&) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status PutBlobIndexCF(uint32_t, const rocksdb::Slice&, const rocksdb::Slice&) override {
    return rocksdb::Status::OK();
  }
  void LogData(const rocksdb::Slice&) override {}
  rocksdb::Status MarkNoop(bool) override { return rocksdb::Status::OK(); }

  // Adds the batch to `out`; `newest` holds the sequence of each meta key's
  // write kept so far.
  void keep(Salvaged* out, std::map<std::string, uint64_t>* newest) {
    for (auto& [fp, rec] : games_) out->games[fp] = std::move(rec);
    for (auto& [key, value] : meta_) {
      auto [it, fresh] = newest->emplace(key, seq_);
      if (!fresh && it->second > seq_) continue;
      it->second = seq_;
      out->meta[key] = std::move(value);
    }
  }

 private:
  uint64_t seq_;
  std::vector<std::pair<Fingerprint, std::string>> games_;
  std::vector<std::pair<std::string, std::optional<std::string>>> meta_;
};

uint64_t log_number(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  uint64_t n = 0;
  for (char c : stem) {
    if (c < '0' || c > '9') return UINT64_MAX;
    n = n * 10 + uint64_t(c - '0');
  }
  return n;
}

Status salvage_log(const std::string& path, Salvaged* out, std::map<std::string, uint64_t>* newest) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read " + path);
  const std::string name = std::filesystem::path(path).filename().string();
  std::string record;  // the logical record being assembled
  bool assembling = false;
  uint64_t record_at = 0;
  bool after_damage = false;  // no whole record read since the last damage
  auto damaged = [&](const std::string& what, uint64_t at) {
    out->damage.push_back(name + ": " + what + " at byte " + std::to_string(at));
    after_damage = true;
  };
  auto finish = [&](uint64_t at) {
    if (record.size() < 12) {
      damaged("a write batch too short to read", at);
      return;
    }
    BatchReader batch(fixed64(record.data()));
    rocksdb::WriteBatch wb(std::move(record));
    if (!wb.Iterate(&batch).ok()) {
      damaged("a write batch that does not parse", at);
      return;
    }
    batch.keep(out, newest);
    ++out->log_records;
    after_damage = false;
  };
  std::vector<char> block(kBlock);
  for (uint64_t offset = 0;; offset += kBlock) {
    in.read(block.data(), std::streamsize(kBlock));
    const size_t got = size_t(in.gcount());
    if (got == 0) break;
    // A physical record whose header and checksum hold at `pos`.
    auto intact_at = [&](size_t pos) {
      const char* h = block.data() + pos;
      const size_t length = size_t(uint8_t(h[4])) | size_t(uint8_t(h[5])) << 8;
      const unsigned type = uint8_t(h[6]);
      return type >= kFull && type <= kLast && pos + kHeader + length <= got &&
             unmask(fixed32(h)) == crc32c(h + 6, 1 + length);
    };
    for (size_t pos = 0; pos + kHeader <= got;) {
      const char* h = block.data() + pos;
      const size_t length = size_t(uint8_t(h[4])) | size_t(uint8_t(h[5])) << 8;
      const unsigned type = uint8_t(h[6]);
      if (type == kZero && length == 0) break;  // preallocated, never written
      if (!intact_at(pos)) {
        // Its length may be what is damaged: rather than drop the rest of
        // the block, as RocksDB's reader does, the next record whose
        // header and checksum hold is looked for byte by byte (a stretch
        // of damage passes a 32-bit checksum once in four billion).
        damaged(pos + kHeader + length > got && got < kBlock ? "a record cut short by the end of the file"
                                                              : "a record that fails its checksum",
                offset + pos);
        if (assembling) record.clear(), assembling = false;
        size_t next = pos + 1;
        while (next + kHeader <= got && !intact_at(next)) ++next;
        pos = next;
        continue;
      }
      const char* data = h + kHeader;
      if (type == kFull || type == kFirst) {
        if (assembling) damaged("a record whose last part is missing", record_at);
        record.assign(data, length);
        record_at = offset + pos;
        assembling = type == kFirst;
        if (type == kFull) finish(record_at);
      } else if (!assembling) {
        // The rest of a record whose beginning was damaged is that damage.
        if (!after_damage) damaged("a part of a record whose first part is missing", offset + pos);
      } else {
        record.append(data, length);
        if (type == kLast) {
          assembling = false;
          finish(record_at);
        }
      }
      pos += kHeader + length;
    }
    if (got < kBlock) break;
  }
  if (in.bad()) return Status::IOError("cannot read " + path);
  return Status::OK();
}
}  // namespace

Status salvage_logs(const std::vector<std::string>& paths, Salvaged* out) {
  std::vector<std::string> logs;
  for (const auto& p : paths)
    if (p.ends_with(".log")) logs.push_back(p);
  std::stable_sort(logs.begin(), logs.end(),
                   [](const std::string& a, const std::string& b) { return log_number(a) < log_number(b); });
  std::map<std::string, uint64_t> newest;
  for (const auto& p : logs) {
    Status st = salvage_log(p, out, &newest);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

bool is_game_record(const Fingerprint& fp, std::string_view record) {
  Game g;
  return decode_game(record, &g).ok() && game_fingerprint(g) == fp;
}

}  // namespace sgfpat

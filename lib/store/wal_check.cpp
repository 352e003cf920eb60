#include "store/wal_check.h"

#include <filesystem>
#include <fstream>
#include <vector>

namespace sgfpat {

namespace {
// RocksDB's log format (db/log_format.h): 32 KiB blocks of records, each a
// 7-byte header (checksum 4, length 2 little-endian, type 1) and its data;
// a block's last bytes, too few for a header, are padding.
constexpr size_t kBlock = 32768, kHeader = 7;
constexpr unsigned kZeroType = 0, kFirstRecyclable = 5, kLastRecyclable = 8;

// Offset of the first recyclable record header in one block, or npos.
size_t recyclable_in(const char* block, size_t size) {
  for (size_t pos = 0; pos + kHeader <= size;) {
    const unsigned length = unsigned(uint8_t(block[pos + 4])) | unsigned(uint8_t(block[pos + 5])) << 8;
    const unsigned type = uint8_t(block[pos + 6]);
    if (type >= kFirstRecyclable && type <= kLastRecyclable) return pos;
    if (type == kZeroType && length == 0) break;  // preallocated, never written
    pos += kHeader + length;  // past the block's end: damage RocksDB reports itself
  }
  return std::string::npos;
}
}  // namespace

Status check_log_record_types(const std::string& db_path) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(db_path, ec)) {
    if (entry.path().extension() != ".log") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    if (!in && !std::filesystem::exists(entry.path())) continue;  // deleted by the writer since listed
    if (!in) return Status::IOError("cannot read " + entry.path().string());
    std::vector<char> block(kBlock);
    for (size_t offset = 0;; offset += kBlock) {
      in.read(block.data(), std::streamsize(kBlock));
      const size_t got = size_t(in.gcount());
      if (got == 0) break;
      const size_t at = recyclable_in(block.data(), got);
      if (at != std::string::npos)
        return Status::Corruption("write-ahead log " + entry.path().string() + " is damaged (a record of a kind sgfpat never writes at byte " +
                                  std::to_string(offset + at) + ")");
      if (got < kBlock) break;
    }
    if (in.bad()) return Status::IOError("cannot read " + entry.path().string());
  }
  if (ec) return Status::IOError("cannot list " + db_path + ": " + ec.message());
  return Status::OK();
}

}  // namespace sgfpat

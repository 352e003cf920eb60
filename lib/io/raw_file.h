// Raw bytes of a file or of stdin, with a look at the first bytes before
// reading (to detect formats even on a pipe) and a count of the bytes
// consumed (for progress).
#pragma once
#include <cstdint>
#include <string>

#include "io/byte_source.h"

namespace sgfpat {

class RawFile : public ByteSource {
 public:
  RawFile() = default;
  ~RawFile() override;
  RawFile(const RawFile&) = delete;
  RawFile& operator=(const RawFile&) = delete;

  // Opens `path` ("-" means stdin); false with error() set if it cannot,
  // or if it is a device or a socket (stdin itself excepted), whose bytes
  // would never end.
  bool open(const std::string& path);
  void close();

  // The first up-to-n bytes (n <= kMaxPeek) without consuming them.
  static constexpr size_t kMaxPeek = 16;
  std::string peek(size_t n);

  size_t read(char* buf, size_t n) override;

  // Seeking works only on regular files (not pipes); false otherwise.
  bool seekable() const { return seekable_; }
  // lseek-style repositioning; returns the new offset or -1.
  int64_t seek(int64_t offset, int whence);

  // Bytes read from the file so far (skips by seek() are not counted).
  uint64_t consumed() const { return consumed_; }
  // File size for regular files, 0 when unknown (pipes).
  uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  bool owns_fd_ = false;
  bool seekable_ = false;
  uint64_t size_ = 0;
  uint64_t consumed_ = 0;
  std::string head_;  // peeked bytes not yet returned by read()
  size_t head_pos_ = 0;
};

}  // namespace sgfpat

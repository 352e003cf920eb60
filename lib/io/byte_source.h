// The one interface every input layer speaks: a pull stream of bytes that
// reports failure as a message instead of throwing.
#pragma once
#include <cstddef>
#include <string>

namespace sgfpat {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes into buf; returns 0 only at the end or on failure.
  virtual size_t read(char* buf, size_t n) = 0;
  // Empty unless a read failed; then says why (without the file name).
  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }

 protected:
  std::string error_;
};

}  // namespace sgfpat

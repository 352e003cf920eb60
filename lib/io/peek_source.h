// Lets a reader look at the first bytes of a stream (to detect its format)
// and then read the stream from its start, without seeking.
#pragma once
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace sgfpat {

class PeekSource : public ByteSource {
 public:
  PeekSource() = default;
  explicit PeekSource(ByteSource* inner) { reset(inner); }
  // Wraps `inner` (not owned) from its current position.
  void reset(ByteSource* inner);
  // The first up-to-n bytes (fewer only at the end of the stream).
  std::string_view peek(size_t n);
  size_t read(char* buf, size_t n) override;

 private:
  ByteSource* inner_ = nullptr;
  std::string head_;
  size_t head_pos_ = 0;
};

}  // namespace sgfpat

#include "io/zstd_frame_tracker.h"

#include <algorithm>

namespace sgfpat {

void ZstdFrameTracker::feed(const unsigned char* p, size_t n) {
  while (n > 0) {
    if (skip_ > 0) {
      size_t k = size_t(std::min<uint64_t>(skip_, n));
      skip_ -= k;
      p += k;
      n -= k;
      if (skip_ == 0 && state_ == State::Checksum) state_ = State::Magic;
      continue;
    }
    if (got_ < 8) field_ |= uint64_t(*p) << (8 * got_);  // longer fields are only counted
    ++p;
    --n;
    if (++got_ < need()) continue;
    step();
    got_ = 0;
    field_ = 0;
  }
}

size_t ZstdFrameTracker::need() const {
  switch (state_) {
    case State::Magic: return 4;
    case State::SkipSize: return 4;
    case State::Descriptor: return 1;
    case State::HeaderRest: return rest_;
    case State::Block: return 3;
    case State::Checksum: return 1;  // never read as a field: skipped
  }
  return 1;
}

void ZstdFrameTracker::step() {
  switch (state_) {
    case State::Magic:
      // A wrong magic number is zstd's own error to report; go on as if fine.
      state_ = (field_ & 0xFFFFFFF0u) == 0x184D2A50u ? State::SkipSize : State::Descriptor;
      break;
    case State::SkipSize:
      skip_ = field_;
      state_ = State::Magic;
      break;
    case State::Descriptor: {
      unsigned fcs = unsigned(field_ >> 6), single = unsigned(field_ >> 5) & 1, did = unsigned(field_) & 3;
      checksum_ = (field_ >> 2) & 1;
      static const size_t kDictIdBytes[] = {0, 1, 2, 4}, kSizeBytes[] = {0, 2, 4, 8};
      rest_ = (single ? 0 : 1) + kDictIdBytes[did] + (fcs == 0 ? single : kSizeBytes[fcs]);
      state_ = rest_ ? State::HeaderRest : State::Block;
      break;
    }
    case State::HeaderRest:
      state_ = State::Block;
      break;
    case State::Block: {
      bool last = field_ & 1;
      unsigned type = unsigned(field_ >> 1) & 3;
      skip_ = type == 1 ? 1 : field_ >> 3;  // an RLE block stores one byte
      if (last) {
        state_ = checksum_ ? State::Checksum : State::Magic;
        if (checksum_) skip_ += 4;
      }
      break;
    }
    case State::Checksum:
      state_ = State::Magic;
      break;
  }
}

}  // namespace sgfpat

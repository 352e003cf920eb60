// Boost's zstd filter takes the end of its input for the end of the data, so
// a cut .zst file would pass as complete.  This follows the zstd frame layout
// (RFC 8878: frame header, block headers and sizes, checksum; skippable
// frames) over the compressed bytes to tell whether they stop on a frame
// boundary.
#pragma once
#include <cstddef>
#include <cstdint>

namespace sgfpat {

class ZstdFrameTracker {
 public:
  // Follows the next n compressed bytes.
  void feed(const unsigned char* p, size_t n);
  // True when the bytes fed so far end exactly after a complete frame.
  bool at_boundary() const { return state_ == State::Magic && got_ == 0 && skip_ == 0; }

 private:
  enum class State { Magic, SkipSize, Descriptor, HeaderRest, Block, Checksum };
  size_t need() const;  // bytes of the field being read in this state
  void step();          // a field is complete: act on it

  State state_ = State::Magic;
  size_t got_ = 0;       // bytes of the current field read so far
  uint64_t field_ = 0;   // its value, little-endian
  uint64_t skip_ = 0;    // bytes to pass over (block body, checksum, skippable frame)
  size_t rest_ = 0;      // frame header bytes after the descriptor
  bool checksum_ = false;
};

}  // namespace sgfpat

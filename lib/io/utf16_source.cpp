#include "io/utf16_source.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace sgfpat {

bool starts_utf16(std::string_view head) {
  return head.size() >= 2 && ((uint8_t(head[0]) == 0xFF && uint8_t(head[1]) == 0xFE) ||
                              (uint8_t(head[0]) == 0xFE && uint8_t(head[1]) == 0xFF));
}

namespace {

class Utf16Source : public ByteSource {
 public:
  explicit Utf16Source(ByteSource* inner) : inner_(inner) {}

  size_t read(char* buf, size_t n) override {
    size_t done = 0;
    while (done < n) {
      if (out_pos_ < out_.size()) {
        const size_t k = std::min(n - done, out_.size() - out_pos_);
        std::memcpy(buf + done, out_.data() + out_pos_, k);
        out_pos_ += k;
        done += k;
        continue;
      }
      if (!fill()) break;
    }
    return done;
  }

 private:
  // Decodes the next piece of input into out_; false at the end or on error.
  bool fill() {
    out_.clear();
    out_pos_ = 0;
    if (ended_) return false;
    char raw[kChunk];
    size_t have = pending_.size();
    std::memcpy(raw, pending_.data(), have);
    pending_.clear();
    const size_t got = inner_->read(raw + have, sizeof raw - have);
    if (got == 0) {
      ended_ = true;
      if (inner_->failed()) {
        error_ = inner_->error();
        return false;
      }
      if (have % 2 != 0) {
        error_ = "UTF-16 text ends in the middle of a character";
        return false;
      }
      if (have == 0 || !bom_done_) return false;
      append(0xFFFD);  // a high surrogate with nothing after it
      return true;
    }
    have += got;
    size_t i = 0;
    if (!bom_done_) {
      if (have < 2) {
        pending_.assign(raw, have);
        return true;
      }
      big_endian_ = uint8_t(raw[0]) == 0xFE;
      bom_done_ = true;
      i = 2;
    }
    for (; i + 2 <= have; i += 2) {
      const uint32_t u = unit(raw + i);
      if (u >= 0xD800 && u <= 0xDBFF) {
        if (i + 4 > have) break;  // its pair is in the next piece
        const uint32_t v = unit(raw + i + 2);
        if (v >= 0xDC00 && v <= 0xDFFF) {
          append(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00));
          i += 2;
        } else {
          append(0xFFFD);
        }
      } else if (u >= 0xDC00 && u <= 0xDFFF) {
        append(0xFFFD);
      } else {
        append(u);
      }
    }
    pending_.assign(raw + i, have - i);
    return true;
  }

  uint32_t unit(const char* p) const {
    const uint32_t a = uint8_t(p[0]), b = uint8_t(p[1]);
    return big_endian_ ? (a << 8 | b) : (b << 8 | a);
  }

  void append(uint32_t c) {
    if (c < 0x80) {
      out_ += char(c);
    } else if (c < 0x800) {
      out_ += char(0xC0 | (c >> 6));
      out_ += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out_ += char(0xE0 | (c >> 12));
      out_ += char(0x80 | ((c >> 6) & 0x3F));
      out_ += char(0x80 | (c & 0x3F));
    } else {
      out_ += char(0xF0 | (c >> 18));
      out_ += char(0x80 | ((c >> 12) & 0x3F));
      out_ += char(0x80 | ((c >> 6) & 0x3F));
      out_ += char(0x80 | (c & 0x3F));
    }
  }

  static constexpr size_t kChunk = 64 * 1024;
  ByteSource* inner_;
  std::string out_;
  size_t out_pos_ = 0;
  std::string pending_;  // undecoded bytes carried to the next piece (at most 3)
  bool bom_done_ = false;
  bool big_endian_ = false;
  bool ended_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> make_utf16_decoder(ByteSource* inner) { return std::make_unique<Utf16Source>(inner); }

}  // namespace sgfpat

#include "io/decompress.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace sgfpat {

Compression compression_from_magic(std::string_view h) {
  auto starts = [&](std::string_view m) { return h.substr(0, m.size()) == m; };
  if (starts("\x1f\x8b")) return Compression::Gzip;
  if (starts("BZh")) return Compression::Bzip2;
  if (starts(std::string_view("\xfd" "7zXZ\0", 6))) return Compression::Xz;
  if (starts("\x28\xb5\x2f\xfd")) return Compression::Zstd;
  return Compression::None;
}

Compression compression_from_name(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = char(std::tolower((unsigned char)c));
  auto ends = [&](std::string_view e) {
    return lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".gz") || ends(".tgz")) return Compression::Gzip;
  if (ends(".bz2") || ends(".tbz2") || ends(".tbz")) return Compression::Bzip2;
  if (ends(".xz") || ends(".txz")) return Compression::Xz;
  if (ends(".zst") || ends(".tzst")) return Compression::Zstd;
  return Compression::None;
}

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Bzip2: return "bzip2";
    case Compression::Xz: return "xz";
    case Compression::Zstd: return "zstd";
    case Compression::None: break;
  }
  return "plain";
}

namespace {

// One step of a codec: consume from [*in, in_end), produce into
// [*out, out_end).  The libraries are driven directly (not through a
// filter chain that throws) so that everything decoded before damage or a
// cut reaches the caller before the error does: a truncated file keeps the
// games before the cut, whatever its compression.
enum class Step { More, StreamEnd, Error };

class Codec {
 public:
  virtual ~Codec() = default;
  // `eof`: no input follows what is in [in, in_end).
  virtual Step step(const uint8_t** in, const uint8_t* in_end, uint8_t** out, uint8_t* out_end, bool eof) = 0;
  // Starts the next concatenated stream (gzip members, bzip2 streams).
  virtual bool restart() { return false; }
  std::string why;  // set with Step::Error
};

class GzipCodec : public Codec {
 public:
  GzipCodec() { ok_ = inflateInit2(&z_, 15 + 16) == Z_OK; }
  ~GzipCodec() override { inflateEnd(&z_); }
  Step step(const uint8_t** in, const uint8_t* in_end, uint8_t** out, uint8_t* out_end, bool eof) override {
    if (!ok_) return why = "out of memory", Step::Error;
    z_.next_in = const_cast<Bytef*>(*in);
    z_.avail_in = uInt(in_end - *in);
    z_.next_out = *out;
    z_.avail_out = uInt(out_end - *out);
    int r = inflate(&z_, Z_NO_FLUSH);
    const bool moved = z_.next_in != *in || z_.next_out != *out;
    *in = z_.next_in;
    *out = z_.next_out;
    if (r == Z_STREAM_END) return Step::StreamEnd;
    if (r == Z_OK) return Step::More;
    if (r == Z_BUF_ERROR && (!eof || moved)) return Step::More;
    if (r == Z_BUF_ERROR) return why = "truncated data", Step::Error;
    if (r == Z_DATA_ERROR && z_.msg && std::strcmp(z_.msg, "incorrect data check") == 0) why = "CRC mismatch";
    else if (r == Z_DATA_ERROR && z_.msg && std::strcmp(z_.msg, "incorrect length check") == 0) why = "length mismatch";
    else if (r == Z_DATA_ERROR && z_.msg && std::strcmp(z_.msg, "incorrect header check") == 0) why = "bad header";
    else if (r == Z_DATA_ERROR) why = "invalid compressed data";
    else why = "zlib error " + std::to_string(r);
    return Step::Error;
  }
  bool restart() override { return inflateReset(&z_) == Z_OK; }

 private:
  z_stream z_{};
  bool ok_ = false;
};

class Bzip2Codec : public Codec {
 public:
  Bzip2Codec() { ok_ = BZ2_bzDecompressInit(&b_, 0, 0) == BZ_OK; }
  ~Bzip2Codec() override {
    if (ok_) BZ2_bzDecompressEnd(&b_);
  }
  Step step(const uint8_t** in, const uint8_t* in_end, uint8_t** out, uint8_t* out_end, bool eof) override {
    if (!ok_) return why = "out of memory", Step::Error;
    b_.next_in = reinterpret_cast<char*>(const_cast<uint8_t*>(*in));
    b_.avail_in = unsigned(in_end - *in);
    b_.next_out = reinterpret_cast<char*>(*out);
    b_.avail_out = unsigned(out_end - *out);
    int r = BZ2_bzDecompress(&b_);
    const bool moved = reinterpret_cast<uint8_t*>(b_.next_in) != *in || reinterpret_cast<uint8_t*>(b_.next_out) != *out;
    *in = reinterpret_cast<const uint8_t*>(b_.next_in);
    *out = reinterpret_cast<uint8_t*>(b_.next_out);
    if (r == BZ_STREAM_END) return Step::StreamEnd;
    if (r == BZ_OK) {
      if (eof && !moved && *in == in_end) return why = "truncated data", Step::Error;
      return Step::More;
    }
    if (r == BZ_DATA_ERROR_MAGIC) why = "bad magic";
    else if (r == BZ_DATA_ERROR) why = "invalid compressed data";
    else if (r == BZ_MEM_ERROR) why = "out of memory";
    else why = "bzip2 error " + std::to_string(r);
    return Step::Error;
  }
  bool restart() override {
    BZ2_bzDecompressEnd(&b_);
    b_ = bz_stream{};
    ok_ = BZ2_bzDecompressInit(&b_, 0, 0) == BZ_OK;
    return ok_;
  }

 private:
  bz_stream b_{};
  bool ok_ = false;
};

class XzCodec : public Codec {
 public:
  XzCodec() { ok_ = lzma_stream_decoder(&x_, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK; }
  ~XzCodec() override { lzma_end(&x_); }
  Step step(const uint8_t** in, const uint8_t* in_end, uint8_t** out, uint8_t* out_end, bool eof) override {
    if (!ok_) return why = "out of memory", Step::Error;
    x_.next_in = *in;
    x_.avail_in = size_t(in_end - *in);
    x_.next_out = *out;
    x_.avail_out = size_t(out_end - *out);
    lzma_ret r = lzma_code(&x_, eof ? LZMA_FINISH : LZMA_RUN);
    *in = x_.next_in;
    *out = x_.next_out;
    if (r == LZMA_STREAM_END) return Step::StreamEnd;
    if (r == LZMA_OK) return Step::More;
    switch (r) {
      case LZMA_FORMAT_ERROR: why = "bad header"; break;
      case LZMA_DATA_ERROR: why = "invalid compressed data"; break;
      case LZMA_BUF_ERROR: why = "truncated data"; break;
      case LZMA_MEM_ERROR: why = "out of memory"; break;
      default: why = "lzma error " + std::to_string(int(r));
    }
    return Step::Error;
  }

 private:
  lzma_stream x_ = LZMA_STREAM_INIT;
  bool ok_ = false;
};

class ZstdCodec : public Codec {
 public:
  ZstdCodec() : d_(ZSTD_createDStream()) {}
  ~ZstdCodec() override { ZSTD_freeDStream(d_); }
  Step step(const uint8_t** in, const uint8_t* in_end, uint8_t** out, uint8_t* out_end, bool eof) override {
    if (!d_) return why = "out of memory", Step::Error;
    if (*in == in_end && eof) return at_boundary_ ? Step::StreamEnd : (why = "truncated data", Step::Error);
    ZSTD_inBuffer ib{*in, size_t(in_end - *in), 0};
    ZSTD_outBuffer ob{*out, size_t(out_end - *out), 0};
    size_t r = ZSTD_decompressStream(d_, &ob, &ib);
    *in += ib.pos;
    *out += ob.pos;
    if (ZSTD_isError(r)) {
      switch (ZSTD_getErrorCode(r)) {
        case ZSTD_error_prefix_unknown: why = "bad header"; break;
        case ZSTD_error_checksum_wrong: why = "checksum mismatch"; break;
        case ZSTD_error_corruption_detected: why = "invalid compressed data"; break;
        default: why = std::string("zstd error: ") + ZSTD_getErrorName(r);
      }
      return Step::Error;
    }
    // 0: a frame ended exactly here; zstd then takes any following frame by itself.
    if (ib.pos > 0 || ob.pos > 0) at_boundary_ = r == 0;
    return Step::More;
  }

 private:
  ZSTD_DStream* d_;
  bool at_boundary_ = false;  // the bytes so far end a whole frame
};

std::unique_ptr<Codec> make_codec(Compression c) {
  switch (c) {
    case Compression::Gzip: return std::make_unique<GzipCodec>();
    case Compression::Bzip2: return std::make_unique<Bzip2Codec>();
    case Compression::Xz: return std::make_unique<XzCodec>();
    case Compression::Zstd: return std::make_unique<ZstdCodec>();
    case Compression::None: break;
  }
  return nullptr;
}

class DecodedSource : public ByteSource {
 public:
  DecodedSource(Compression c, ByteSource* raw, size_t buffer_bytes)
      : kind_(c), raw_(raw), codec_(make_codec(c)), in_(std::max<size_t>(buffer_bytes, 4096)) {}

  size_t read(char* buf, size_t n) override {
    uint8_t* out = reinterpret_cast<uint8_t*>(buf);
    uint8_t* const out_end = out + n;
    while (out == reinterpret_cast<uint8_t*>(buf) && !done_ && n > 0) {
      if (pos_ == end_ && !eof_) {
        pos_ = 0;
        end_ = raw_->read(reinterpret_cast<char*>(in_.data()), in_.size());
        if (end_ == 0) {
          if (raw_->failed()) return fail_now(raw_->error()), 0;
          eof_ = true;
        }
      }
      const uint8_t* p = in_.data() + pos_;
      Step s = codec_->step(&p, in_.data() + end_, &out, out_end, eof_ && pos_ == end_);
      pos_ = size_t(p - in_.data());
      if (s == Step::Error) {
        // What was decoded before the damage goes out first.
        error_after_ = "corrupt " + std::string(compression_name(kind_)) + " stream: " + codec_->why;
        done_ = true;
      } else if (s == Step::StreamEnd) {
        if (!more_input()) {
          done_ = true;
        } else if (!codec_->restart()) {
          error_after_ = "corrupt " + std::string(compression_name(kind_)) + " stream: out of memory";
          done_ = true;
        }
      } else if (eof_ && pos_ == end_ && out == reinterpret_cast<uint8_t*>(buf) && kind_ != Compression::Xz &&
                 kind_ != Compression::Gzip) {
        // No progress possible: the codec waits for input that will not come.
        error_after_ = "corrupt " + std::string(compression_name(kind_)) + " stream: truncated data";
        done_ = true;
      }
    }
    size_t got = size_t(out - reinterpret_cast<uint8_t*>(buf));
    if (got == 0 && !error_after_.empty()) error_ = error_after_;
    return got;
  }

 private:
  // Whether another concatenated stream follows (trailing zero padding of
  // some gzip writers is not one).
  bool more_input() {
    for (;;) {
      while (pos_ < end_ && in_[pos_] == 0 && kind_ == Compression::Gzip) ++pos_;
      if (pos_ < end_) return true;
      if (eof_) return false;
      pos_ = 0;
      end_ = raw_->read(reinterpret_cast<char*>(in_.data()), in_.size());
      if (end_ == 0) {
        if (raw_->failed()) error_after_ = raw_->error();
        eof_ = true;
      }
    }
  }
  void fail_now(const std::string& why) {
    done_ = true;
    error_ = why;
  }

  Compression kind_;
  ByteSource* raw_;
  std::unique_ptr<Codec> codec_;
  std::vector<uint8_t> in_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  bool done_ = false;
  std::string error_after_;  // becomes error() once the bytes before it are read
};

}  // namespace

std::unique_ptr<ByteSource> make_decompressor(Compression c, ByteSource* raw, size_t buffer_bytes) {
  return std::make_unique<DecodedSource>(c, raw, buffer_bytes);
}

}  // namespace sgfpat

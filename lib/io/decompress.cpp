#include "io/decompress.h"

#include "io/zstd_frame_tracker.h"

#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/zlib.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_streambuf.hpp>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <ios>
#include <string>

namespace sgfpat {
namespace bio = boost::iostreams;

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

struct TruncatedInput : std::runtime_error {
  TruncatedInput() : std::runtime_error("truncated data") {}
};

// Boost devices report failure by throwing; this one carries the message of
// the underlying ByteSource up through the filter chain.
class SourceDevice {
 public:
  using char_type = char;
  using category = bio::source_tag;
  SourceDevice(ByteSource* src, std::shared_ptr<ZstdFrameTracker> zstd) : src_(src), zstd_(std::move(zstd)) {}
  std::streamsize read(char* s, std::streamsize n) {
    size_t got = src_->read(s, size_t(n));
    if (got > 0) {
      if (zstd_) zstd_->feed(reinterpret_cast<const unsigned char*>(s), got);
      return std::streamsize(got);
    }
    if (src_->failed()) throw std::ios_base::failure(src_->error());
    if (zstd_ && !zstd_->at_boundary()) throw TruncatedInput();
    return -1;
  }

 private:
  ByteSource* src_;
  std::shared_ptr<ZstdFrameTracker> zstd_;
};

std::string zlib_reason(int code) {
  if (code == bio::zlib::data_error) return "invalid compressed data";
  if (code == bio::zlib::buf_error) return "truncated data";
  if (code == bio::zlib::stream_error) return "stream error";
  return "zlib error " + std::to_string(code);
}

std::string gzip_reason(const bio::gzip_error& e) {
  switch (e.error()) {
    case bio::gzip::zlib_error: return zlib_reason(e.zlib_error_code());
    case bio::gzip::bad_crc: return "CRC mismatch";
    case bio::gzip::bad_length: return "length mismatch";
    case bio::gzip::bad_header: return "bad header";
    case bio::gzip::bad_footer: return "truncated data (bad footer)";
    case bio::gzip::bad_method: return "unsupported method";
  }
  return "error " + std::to_string(e.error());
}

std::string bzip2_reason(int code) {
  if (code == bio::bzip2::data_error) return "invalid compressed data";
  if (code == bio::bzip2::data_error_magic) return "bad magic";
  if (code == bio::bzip2::unexpected_eof) return "truncated data";
  return "bzip2 error " + std::to_string(code);
}

std::string lzma_reason(int code) {
  switch (code) {
    case 7: return "bad header";                  // LZMA_FORMAT_ERROR
    case 9: return "invalid compressed data";     // LZMA_DATA_ERROR
    case 10: return "truncated data";             // LZMA_BUF_ERROR
    default: return "lzma error " + std::to_string(code);
  }
}

std::string zstd_reason(int code) {
  switch (-code) {  // Boost keeps ZSTD's size_t error as a negative int
    case 10: return "bad header";                 // ZSTD_error_prefix_unknown
    case 20: return "invalid compressed data";    // ZSTD_error_corruption_detected
    case 22: return "checksum mismatch";          // ZSTD_error_checksum_wrong
    default: return "zstd error " + std::to_string(code);
  }
}

class FilteredSource : public ByteSource {
 public:
  FilteredSource(Compression c, ByteSource* raw, size_t buffer_bytes) : kind_(c), raw_(raw) {
    std::streamsize b = std::streamsize(buffer_bytes);
    switch (c) {
      case Compression::Gzip: chain_.push(bio::gzip_decompressor(bio::gzip::default_window_bits, b), b); break;
      case Compression::Bzip2: chain_.push(bio::bzip2_decompressor(false, b), b); break;
      case Compression::Xz: chain_.push(bio::lzma_decompressor(b), b); break;
      case Compression::Zstd: chain_.push(bio::zstd_decompressor(b), b); break;
      case Compression::None: break;
    }
    std::shared_ptr<ZstdFrameTracker> tracker;
    if (c == Compression::Zstd) tracker = std::make_shared<ZstdFrameTracker>();
    chain_.push(SourceDevice(raw, tracker), b);
  }

  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    try {
      std::streamsize got = chain_.sgetn(buf, std::streamsize(n));
      if (got <= 0) done_ = true;
      return got > 0 ? size_t(got) : 0;
    } catch (const TruncatedInput&) {
      fail("truncated data");
    } catch (const bio::gzip_error& e) {
      fail(gzip_reason(e));
    } catch (const bio::zlib_error& e) {
      fail(zlib_reason(e.error()));
    } catch (const bio::bzip2_error& e) {
      fail(bzip2_reason(e.error()));
    } catch (const bio::lzma_error& e) {
      fail(lzma_reason(e.error()));
    } catch (const bio::zstd_error& e) {
      fail(zstd_reason(e.error()));
    } catch (const std::exception& e) {
      done_ = true;
      error_ = raw_->failed() ? raw_->error() : e.what();
    }
    return 0;
  }

 private:
  void fail(const std::string& why) {
    done_ = true;
    error_ = std::string("corrupt ") + compression_name(kind_) + " stream: " + why;
  }

  Compression kind_;
  ByteSource* raw_;
  bool done_ = false;
  bio::filtering_streambuf<bio::input> chain_;
};

}  // namespace

std::unique_ptr<ByteSource> make_decompressor(Compression c, ByteSource* raw, size_t buffer_bytes) {
  return std::make_unique<FilteredSource>(c, raw, buffer_bytes);
}

}  // namespace sgfpat

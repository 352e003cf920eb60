#include "export/tsv_writer.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>

#include "export/text_format.h"
#include "io/atomic_file.h"

namespace sgfpat {

namespace {
// Buffered writes to a FILE*, remembering the first error.
class Out {
 public:
  explicit Out(std::FILE* f) : f_(f) { buf_.reserve(kFlushAt + 512); }
  void put(std::string_view s) {
    buf_ += s;
    if (buf_.size() >= kFlushAt) flush();
  }
  void put_u64(uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, size_t(r.ptr - tmp));
  }
  // Hands the buffer to stdio; with `to_os`, stdio's buffer to the system too.
  bool flush(bool to_os = false) {
    if (ok_ && ((!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) ||
                (to_os && std::fflush(f_) != 0))) {
      ok_ = false;
      error_ = errno;
    }
    buf_.clear();
    return ok_;
  }
  bool ok() const { return ok_; }
  int error() const { return error_; }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  std::FILE* f_;
  std::string buf_;
  bool ok_ = true;
  int error_ = 0;
};
}  // namespace

Status write_pattern_tsv(const PatternTable& table, std::FILE* f, std::vector<uint64_t>* written) {
  const int levels = table.levels();
  written->assign(size_t(levels), 0);
  Out out(f);
  out.put(kPatternTsvHeader);
  for (int l = 1; l <= levels && out.ok(); ++l) {
    for (size_t i = 0; i < table.size(l); ++i) {
      const PatternCounts& c = table.counts(l, i);
      out.put_u64(uint64_t(l));
      out.put("\t");
      out.put(key_hex(table.key(l, i)));
      out.put("\t");
      out.put_u64(c.played);
      out.put("\t");
      out.put_u64(c.seen);
      out.put("\t");
      out.put_u64(c.wins);
      out.put("\t");
      out.put(table.string(l, i));
      out.put("\n");
      ++(*written)[size_t(l - 1)];
    }
  }
  if (!out.flush(/*to_os=*/true))
    return write_error_status(out.error(), "writing the TSV failed");
  return Status::OK();
}

}  // namespace sgfpat

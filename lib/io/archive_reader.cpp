#include "io/archive_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <cerrno>

namespace sgfpat {

class ArchiveReader::MemberSource : public ByteSource {
 public:
  explicit MemberSource(struct archive* a) : a_(a) {}
  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    la_ssize_t got = archive_read_data(a_, buf, n);
    if (got > 0) return size_t(got);
    done_ = true;
    if (got < 0) {
      const char* why = archive_error_string(a_);
      error_ = why ? why : "read error";
    }
    return 0;
  }

 private:
  struct archive* a_;
  bool done_ = false;
};

struct ArchiveReader::Callbacks {
  static la_ssize_t read(struct archive* a, void* self, const void** out) {
    auto* r = static_cast<ArchiveReader*>(self);
    size_t got = r->src_->read(r->buf_.data(), r->buf_.size());
    if (got == 0 && r->src_->failed()) {
      archive_set_error(a, EIO, "%s", r->src_->error().c_str());
      return -1;
    }
    *out = r->buf_.data();
    return la_ssize_t(got);
  }
  static la_int64_t skip(struct archive*, void* self, la_int64_t request) {
    auto* r = static_cast<ArchiveReader*>(self);
    int64_t before = r->seekable_->seek(0, SEEK_CUR);
    int64_t after = before < 0 ? -1 : r->seekable_->seek(request, SEEK_CUR);
    return after < 0 ? 0 : after - before;  // 0: libarchive then reads through
  }
  static la_int64_t seek(struct archive*, void* self, la_int64_t offset, int whence) {
    auto* r = static_cast<ArchiveReader*>(self);
    int64_t pos = r->seekable_->seek(offset, whence);
    return pos < 0 ? ARCHIVE_FATAL : pos;
  }
};

ArchiveReader::ArchiveReader() : buf_(64 * 1024) {}
ArchiveReader::~ArchiveReader() { close(); }

void ArchiveReader::close() {
  member_.reset();
  if (a_) archive_read_free(a_);
  a_ = nullptr;
  src_ = nullptr;
  seekable_ = nullptr;
}

bool ArchiveReader::open(ByteSource* src, RawFile* seekable) {
  close();
  error_.clear();
  src_ = src;
  seekable_ = (seekable && seekable->seekable()) ? seekable : nullptr;
  a_ = archive_read_new();
  if (!a_) {
    error_ = "out of memory";
    return false;
  }
  archive_read_support_filter_all(a_);
  archive_read_support_format_tar(a_);
  archive_read_support_format_gnutar(a_);
  archive_read_support_format_zip(a_);
  archive_read_set_callback_data(a_, this);
  archive_read_set_read_callback(a_, &Callbacks::read);
  if (seekable_) {
    archive_read_set_skip_callback(a_, &Callbacks::skip);
    archive_read_set_seek_callback(a_, &Callbacks::seek);
  }
  if (archive_read_open1(a_) != ARCHIVE_OK) {
    const char* why = archive_error_string(a_);
    error_ = why ? why : "cannot open archive";
    close();
    return false;
  }
  return true;
}

bool ArchiveReader::next_member(std::string* name) {
  if (!a_) return false;
  member_.reset();
  for (;;) {
    struct archive_entry* e = nullptr;
    int r = archive_read_next_header(a_, &e);
    if (r == ARCHIVE_EOF) return false;
    if (r == ARCHIVE_RETRY || r == ARCHIVE_WARN) {
      // A damaged header that libarchive skips: what it skipped is said.
      const char* why = archive_error_string(a_);
      warnings_.push_back(std::string(why ? why : "damaged archive entry") +
                          (r == ARCHIVE_RETRY ? " (an entry was skipped)" : ""));
      if (r == ARCHIVE_RETRY) continue;
    }
    if (r < ARCHIVE_WARN || !e) {
      const char* why = archive_error_string(a_);
      error_ = why ? why : "corrupt archive";
      return false;
    }
    if (archive_entry_filetype(e) != AE_IFREG) continue;
    const char* path = archive_entry_pathname(e);
    if (!path) path = archive_entry_pathname_utf8(e);
    *name = path ? path : "<unnamed>";
    member_ = std::make_unique<MemberSource>(a_);
    return true;
  }
}

ByteSource* ArchiveReader::member() { return member_.get(); }

std::vector<std::string> ArchiveReader::take_warnings() {
  std::vector<std::string> w;
  w.swap(warnings_);
  return w;
}

}  // namespace sgfpat

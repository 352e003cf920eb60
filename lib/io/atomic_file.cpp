#include "io/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sgfpat {

Status write_error_status(int e, const std::string& what) {
  const std::string msg = what + ": " + (e ? std::strerror(e) : "write error");
  return e == ENOSPC || e == EDQUOT ? Status::NoSpace(msg) : Status::IOError(msg);
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
  if (f_) std::fclose(f_);
  f_ = nullptr;
  if (!tmp_.empty()) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
    tmp_.clear();
  }
}

Status AtomicFile::open(const std::string& path) {
  discard();
  path_ = path;
  failed_ = false;
  error_ = 0;
  offset_ = 0;
  tmp_ = path + ".tmp-" + std::to_string(::getpid());
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) {
    const int e = errno;
    tmp_.clear();
    return write_error_status(e, "cannot write " + path);
  }
  return Status::OK();
}

void AtomicFile::write(const void* data, size_t n) {
  if (f_ && !failed_ && std::fwrite(data, 1, n, f_) != n) {
    failed_ = true;
    error_ = errno;
  }
  offset_ += n;
}

void AtomicFile::write_at(uint64_t offset, const void* data, size_t n) {
  if (!f_ || failed_) return;
  if (std::fseek(f_, long(offset), SEEK_SET) != 0 || std::fwrite(data, 1, n, f_) != n ||
      std::fseek(f_, 0, SEEK_END) != 0) {
    failed_ = true;
    error_ = errno;
  }
}

Status AtomicFile::commit() {
  if (!f_) return Status::Internal("writing " + path_ + ": not open");
  bool good = !failed_ && !std::ferror(f_) && std::fflush(f_) == 0 && ::fsync(::fileno(f_)) == 0;
  if (!good && !error_) error_ = errno;
  good = std::fclose(f_) == 0 && good;
  if (!good && !error_) error_ = errno;
  f_ = nullptr;
  if (!good) {
    discard();
    return write_error_status(error_, "writing " + path_ + " failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) {
    discard();
    return Status::IOError("writing " + path_ + " failed: cannot rename the temporary file: " + ec.message());
  }
  tmp_.clear();
  return Status::OK();
}

}  // namespace sgfpat

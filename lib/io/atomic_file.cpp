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

Status AtomicFile::write_through() {
  Status st;
  std::FILE* in = std::fopen(tmp_.c_str(), "rb");
  std::FILE* out = in ? std::fopen(path_.c_str(), "wb") : nullptr;
  if (!in || !out) st = write_error_status(errno, "cannot write " + path_);
  char buf[1 << 16];
  size_t n;
  while (st.ok() && (n = std::fread(buf, 1, sizeof buf, in)) > 0)
    if (std::fwrite(buf, 1, n, out) != n) st = write_error_status(errno, "writing " + path_ + " failed");
  if (st.ok() && std::ferror(in)) st = Status::IOError("reading back " + tmp_ + " failed");
  if (out && std::fclose(out) != 0 && st.ok()) st = write_error_status(errno, "writing " + path_ + " failed");
  if (in) std::fclose(in);
  discard();
  return st;
}

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
  namespace fs = std::filesystem;
  discard();
  failed_ = false;
  error_ = 0;
  offset_ = 0;
  through_ = false;
  // A symlink is followed: its target gets the new content, the link stays.
  // Link by link, so that one whose target does not exist yet leads there
  // too (weakly_canonical would stop at the link and the rename replace it).
  std::error_code ec;
  fs::path target = path;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    const fs::path next = fs::read_symlink(target, ec);
    if (ec || hops == 40)
      return Status::IOError("cannot follow the symlink " + path + ": " +
                             (ec ? ec.message() : std::string("too many levels of links")));
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  path_ = target.string();
  ec.clear();
  // Never into a database: a file renamed among RocksDB's would stop it opening.
  const fs::path dir = fs::weakly_canonical(fs::absolute(path_, ec), ec).parent_path();
  if (!ec && fs::exists(dir / "CURRENT", ec) && fs::exists(dir / "IDENTITY", ec))
    return Status::InvalidArgument("refusing to write " + path + ": " + dir.string() +
                                   " is a database directory; write the output elsewhere");
  // A device, FIFO or socket cannot be replaced by a rename: the bytes are
  // gathered in a temporary file elsewhere and written through at commit().
  const fs::file_status st = fs::status(path_, ec);
  if (!ec && fs::exists(st) && !fs::is_regular_file(st)) {
    if (fs::is_directory(st)) return Status::InvalidArgument("cannot write " + path + ": it is a directory");
    through_ = true;
    tmp_ = (fs::temp_directory_path(ec) / ("sgfpat-out-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    std::string buf = tmp_;
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) {
      const int e = errno;
      tmp_.clear();
      return write_error_status(e, "cannot write a temporary file for " + path);
    }
    tmp_ = buf;
    f_ = ::fdopen(fd, "w+b");
  } else {
    tmp_ = path_ + ".tmp-" + std::to_string(::getpid());
    f_ = std::fopen(tmp_.c_str(), "wb");
  }
  if (!f_) {
    const int e = errno;
    std::error_code ignored;
    if (through_) fs::remove(tmp_, ignored);
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
  if (through_) return write_through();
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

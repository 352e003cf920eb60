#include "io/raw_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sgfpat {

RawFile::~RawFile() { close(); }

bool RawFile::open(const std::string& path) {
  close();
  error_.clear();
  if (path == "-") {
    fd_ = STDIN_FILENO;
    owns_fd_ = false;
  } else {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      error_ = std::strerror(errno);
      return false;
    }
    owns_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      error_ = "is a directory";
      close();
      return false;
    }
    // A device (/dev/zero, /dev/urandom, a disk) has no end an input could
    // reach: only files, pipes and stdin (as "-" or by a name of its own,
    // /dev/stdin) are read.
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && path != "-") {
      struct stat in {};
      const bool is_stdin = ::fstat(STDIN_FILENO, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino;
      if (!is_stdin) {
        error_ = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a file or a pipe"
                                                             : "is not a file or a pipe";
        close();
        return false;
      }
    }
    seekable_ = S_ISREG(st.st_mode);
    size_ = seekable_ ? uint64_t(st.st_size) : 0;
  }
#ifdef POSIX_FADV_SEQUENTIAL
  if (seekable_) ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return true;
}

void RawFile::close() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  owns_fd_ = false;
  seekable_ = false;
  size_ = 0;
  consumed_ = 0;
  head_.clear();
  head_pos_ = 0;
}

std::string RawFile::peek(size_t n) {
  if (n > kMaxPeek) n = kMaxPeek;
  while (head_.size() - head_pos_ < n && fd_ >= 0 && error_.empty()) {
    char buf[kMaxPeek];
    size_t want = n - (head_.size() - head_pos_);
    ssize_t got = ::read(fd_, buf, want);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      error_ = std::strerror(errno);
      break;
    }
    if (got == 0) break;
    consumed_ += uint64_t(got);
    head_.append(buf, size_t(got));
  }
  return head_.substr(head_pos_, n);
}

size_t RawFile::read(char* buf, size_t n) {
  if (fd_ < 0 || n == 0) return 0;
  size_t done = 0;
  if (head_pos_ < head_.size()) {
    done = std::min(n, head_.size() - head_pos_);
    std::memcpy(buf, head_.data() + head_pos_, done);
    head_pos_ += done;
    if (done == n) return done;
  }
  for (;;) {
    ssize_t got = ::read(fd_, buf + done, n - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      error_ = std::strerror(errno);
      return done;
    }
    consumed_ += uint64_t(got);
    return done + size_t(got);
  }
}

int64_t RawFile::seek(int64_t offset, int whence) {
  if (!seekable_ || fd_ < 0) return -1;
  // Peeked bytes were read from the fd but not yet handed out.
  if (whence == SEEK_CUR) offset -= int64_t(head_.size() - head_pos_);
  head_.clear();
  head_pos_ = 0;
  off_t r = ::lseek(fd_, off_t(offset), whence);
  return r < 0 ? -1 : int64_t(r);
}

}  // namespace sgfpat

#include "serve/game_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/fail_point.h"
#include "core/format_version.h"
#include "io/atomic_file.h"

namespace sgfpat::serve {

namespace {

uint32_t crc_of(std::string_view s) {
  return uint32_t(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(s.data()), uInt(s.size())));
}

Status sync_dir_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return write_error_status(errno, "opening the folder " + dir);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return write_error_status(err, "syncing the folder " + dir);
  return Status::OK();
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return write_error_status(errno, "writing " + path);
    }
    bytes.remove_prefix(size_t(n));
  }
  return Status::OK();
}

}  // namespace

std::string game_log_line(const Json& record) {
  std::string line = record.dump(-1, ' ', false, Json::error_handler_t::replace);
  char crc[16];
  std::snprintf(crc, sizeof crc, "\t%08x\n", crc_of(line));
  line += crc;
  return line;
}

GameLog::~GameLog() {
  if (fd_ >= 0) ::close(fd_);
}

Status GameLog::Create(const std::string& path, const Json& header, std::unique_ptr<GameLog>* out) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return write_error_status(errno, "creating " + path);
  std::unique_ptr<GameLog> log(new GameLog(path, fd, 0));
  Status st = log->append(header);
  if (st.ok()) st = sync_dir_of(path);
  if (!st.ok()) {
    log.reset();
    ::unlink(path.c_str());
    return st;
  }
  *out = std::move(log);
  return Status::OK();
}

Status GameLog::append(const Json& record) {
  const std::string line = game_log_line(record);
  Status st = write_all(fd_, line, path_);
  if (st.ok()) {
    fail_point("serve.log_written");  // written, not synced: a kill here loses nothing acknowledged
    if (::fdatasync(fd_) != 0) st = write_error_status(errno, "syncing " + path_);
  }
  if (!st.ok()) {
    // Cut back what a failed write may have left, so the next record
    // starts on a line of its own.
    if (::ftruncate(fd_, off_t(size_)) == 0) ::fdatasync(fd_);
    return st;
  }
  size_ += line.size();
  fail_point("serve.log_synced");  // on disk, not acknowledged yet
  return Status::OK();
}

Status GameLog::Read(const std::string& path, Contents* out) {
  *out = Contents();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("opening " + path + ": " + std::strerror(errno));
  struct stat sb;
  if (::fstat(fd, &sb) != 0 || uint64_t(sb.st_size) > kMaxGameLogBytes) {
    ::close(fd);
    return Status::Corruption(path + ": not a game record of at most " + std::to_string(kMaxGameLogBytes >> 20) + " MiB");
  }
  std::string text(size_t(sb.st_size), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      return Status::IOError("reading " + path + ": " + (n < 0 ? std::strerror(err) : "file shrank"));
    }
    got += size_t(n);
  }
  ::close(fd);

  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    ++line_no;
    const size_t nl = text.find('\n', pos);
    const bool last = nl == std::string::npos || nl + 1 == text.size();
    std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    const size_t tab = line.rfind('\t');
    bool ok = nl != std::string::npos && tab != std::string_view::npos && line.size() - tab == 9;
    Json record;
    if (ok) {
      unsigned long crc = 0;
      const std::string hex(line.substr(tab + 1));
      char* end = nullptr;
      crc = std::strtoul(hex.c_str(), &end, 16);
      ok = end == hex.c_str() + 8 && uint32_t(crc) == crc_of(line.substr(0, tab));
      if (ok) {
        record = Json::parse(line.substr(0, tab), nullptr, false);
        ok = record.is_object();
      }
    }
    if (!ok) {
      // Only the last line can be torn by a kill (nothing after it was
      // ever written); anything else is damage.
      if (last && line_no > 1) {
        out->torn_tail = true;
        break;
      }
      return Status::Corruption(path + ": line " + std::to_string(line_no) + " is damaged (its checksum does not match)");
    }
    if (line_no == 1) {
      auto v = record.find("version");
      if (record.value("k", "") != "game" || v == record.end() || !v->is_number_unsigned())
        return Status::Corruption(path + ": not a served game record (no header)");
      Status st = check_format_version(kServedGameFormat, v->get<uint32_t>(), path);
      if (!st.ok()) return st;
    }
    out->records.push_back(std::move(record));
    pos = nl + 1;
    out->valid_bytes = pos;
  }
  if (out->records.empty()) return Status::Corruption(path + ": empty game record");
  return Status::OK();
}

Status GameLog::OpenForAppend(const std::string& path, uint64_t valid_bytes, std::unique_ptr<GameLog>* out) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return write_error_status(errno, "opening " + path);
  struct stat sb;
  if (::fstat(fd, &sb) != 0) {
    const int err = errno;
    ::close(fd);
    return write_error_status(err, "reading the size of " + path);
  }
  if (uint64_t(sb.st_size) != valid_bytes) {
    if (::ftruncate(fd, off_t(valid_bytes)) != 0 || ::fdatasync(fd) != 0) {
      const int err = errno;
      ::close(fd);
      return write_error_status(err, "cutting the torn last line of " + path);
    }
  }
  out->reset(new GameLog(path, fd, valid_bytes));
  return Status::OK();
}

}  // namespace sgfpat::serve

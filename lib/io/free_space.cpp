#include "io/free_space.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sgfpat {

namespace {
std::string mib(uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }

std::filesystem::path existing_parent(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  while (!p.empty() && !fs::exists(p, ec) && p != p.parent_path()) p = p.parent_path();
  return p;
}
}  // namespace

Status free_bytes(const std::string& path, uint64_t* bytes) {
  struct statvfs v {};
  const std::string at = existing_parent(path).string();
  if (::statvfs(at.c_str(), &v) != 0)
    return Status::IOError("cannot ask how much space " + at + " has: " + std::strerror(errno));
  *bytes = uint64_t(v.f_bavail) * uint64_t(v.f_frsize);
  return Status::OK();
}

Status check_free_space(const std::string& path, uint64_t needed, const std::string& what) {
  uint64_t have = 0;
  if (!free_bytes(path, &have).ok() || have >= needed) return Status::OK();
  return Status::NoSpace("not enough space for " + what + " in " + existing_parent(path).string() + ": " +
                         mib(needed) + " needed, " + mib(have) + " free");
}

uint64_t directory_bytes(const std::string& dir) {
  namespace fs = std::filesystem;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

}  // namespace sgfpat

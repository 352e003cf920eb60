#include "store/scratch_dirs.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>

namespace sgfpat {

namespace {
const std::string kPrefix = "sgfpat-reader-";
}  // namespace

std::filesystem::path reader_scratch_path(const std::filesystem::path& temp_dir, const void* tag) {
  return temp_dir / (kPrefix + std::to_string(::getpid()) + "-" + std::to_string(reinterpret_cast<uintptr_t>(tag)));
}

void remove_stale_reader_dirs(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path path = it->path();
    const std::string name = path.filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const size_t dash = name.find('-', kPrefix.size());
    if (dash == std::string::npos) continue;
    long pid = 0;
    const char* first = name.data() + kPrefix.size();
    const char* last = name.data() + dash;
    auto [ptr, err] = std::from_chars(first, last, pid);
    if (err != std::errc() || ptr != last || pid <= 0 || pid > std::numeric_limits<pid_t>::max()) continue;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    for (fs::directory_iterator f(path, ignored), fend; !ignored && f != fend; f.increment(ignored)) {
      std::error_code e2;
      if (f->symlink_status(e2).type() == fs::file_type::regular) fs::remove(f->path(), e2);
    }
    fs::remove(path, ignored);  // fails, harmlessly, if something else was in it
  }
}

}  // namespace sgfpat

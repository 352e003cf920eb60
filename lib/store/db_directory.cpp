#include "store/db_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "store/pattern_db_internal.h"

namespace sgfpat {

Status being_created(const std::string& path) {
  return Status::Busy("database " + path + " is being created by another process; try again when it is done");
}

Status check_database_dir(const std::string& path, bool may_create, bool* creating) {
  namespace fs = std::filesystem;
  std::error_code ec;
  *creating = false;
  if (fs::exists(path + "/CURRENT", ec)) return Status::OK();
  const bool exists = fs::exists(path, ec);
  if (exists && !fs::is_directory(path, ec))
    return Status::InvalidArgument(path + " is not a directory; --db names a database directory");
  bool empty = true, rocks_files = false, only_debris = true;
  std::vector<fs::path> debris;
  if (exists) {
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      empty = false;
      const std::string name = it->path().filename().string();
      const bool log = name.ends_with(".log");
      if (name.rfind("MANIFEST-", 0) == 0 || name.ends_with(".sst") || log || name == "IDENTITY" ||
          name.rfind("OPTIONS-", 0) == 0)
        rocks_files = true;
      std::error_code size_ec;
      const bool is_debris = name == "LOG" || name == "LOG.old" || name == "LOCK" || name == "IDENTITY" ||
                             name == "MANIFEST-000001" || name.ends_with(".dbtmp") ||
                             (log && it->is_regular_file(size_ec) && fs::file_size(it->path(), size_ec) == 0 && !size_ec);
      if (is_debris) debris.push_back(it->path());
      else only_debris = false;
    }
    if (ec) return Status::IOError("cannot list " + path + ": " + ec.message());
  }
  if (!empty && only_debris) {
    if (!may_create) {
      if (locked_by_another_process(path)) return being_created(path);
      return Status::NotFound("no pattern database at " + path +
                              " (its creation was interrupted or has not finished: `sgfpat ingest --db " + path +
                              "` makes it)");
    }
    // Cleared under RocksDB's own lock (an fcntl lock on LOCK, which stays):
    // a process creating the database meanwhile either holds it (Busy
    // here) or waits for it (Busy there), never loses files to this one.
    const int fd = ::open((path + "/LOCK").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Status::IOError("cannot open " + path + "/LOCK: " + std::strerror(errno));
    struct flock fl {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (::fcntl(fd, F_SETLK, &fl) != 0) {
      ::close(fd);
      return being_created(path);
    }
    for (const fs::path& f : debris) {
      if (f.filename() == "LOCK") continue;
      fs::remove(f, ec);
      if (ec) break;
    }
    ::close(fd);  // releases the lock
    if (ec) return Status::IOError("cannot clear " + path + " (left by an interrupted creation): " + ec.message());
    *creating = true;
    return Status::OK();
  }
  if (rocks_files)
    return Status::Corruption("database " + path + " has lost its CURRENT file; nothing was changed (" + repair_hint(path) +
                              ")");
  if (!may_create)
    return Status::NotFound("no pattern database at " + path + " (create one with `sgfpat ingest --db " + path + "`)");
  if (!empty)
    return Status::InvalidArgument(path + " is not empty and holds no pattern database: refusing to create one among "
                                   "other files; give --db a new or empty directory");
  *creating = true;
  return Status::OK();
}

bool locked_by_another_process(const std::string& path) {
  const int fd = ::open((path + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  const bool held = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

}  // namespace sgfpat

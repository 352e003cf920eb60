// Writing an output file so that readers find the old file or the new one
// whole, never a part: the bytes go to a temporary file beside the target
// ("<path>.tmp-<pid>", same folder, so the final step is a rename), which
// commit() flushes, syncs and renames over the target.  Dropped without
// commit(), the temporary file is removed and the target left as it was.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/status.h"

namespace sgfpat {

// A failed write or open as a Status: NoSpace when the disk or a quota is
// full (errno ENOSPC, EDQUOT), IOError otherwise; the message is
// "<what>: <strerror>".
Status write_error_status(int errno_value, const std::string& what);

class AtomicFile {
 public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  // Creates the temporary file for `path`.
  Status open(const std::string& path);
  // Appends; a failure is remembered and reported by commit().
  void write(const void* data, size_t n);
  // Overwrites bytes already written (a header filled in at the end).
  void write_at(uint64_t offset, const void* data, size_t n);
  // Bytes appended so far.
  uint64_t offset() const { return offset_; }
  // The open stream, for writers that format into a FILE*; their errors are
  // caught by commit() (ferror).
  std::FILE* stream() const { return f_; }
  // Makes the written bytes the content of the target.
  Status commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return tmp_; }

 private:
  void discard();
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  bool failed_ = false;
  int error_ = 0;  // errno of the first failure
  uint64_t offset_ = 0;
};

}  // namespace sgfpat

// Members of a tar or zip archive (any compression libarchive knows) as
// byte streams, read sequentially without unpacking to disk.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/byte_source.h"
#include "io/raw_file.h"

struct archive;

namespace sgfpat {

class ArchiveReader {
 public:
  ArchiveReader();
  ~ArchiveReader();
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  // Starts reading the archive whose bytes `src` yields (not owned).  Pass
  // the same object as `seekable` when it is a regular RawFile, so zip can
  // use its central directory; else nullptr.  False with error() on failure.
  bool open(ByteSource* src, RawFile* seekable);
  void close();

  // Moves to the next regular file member; false at the end or on a
  // corrupt archive (then error() is set).
  bool next_member(std::string* name);
  // The current member's data; valid until the next next_member()/close().
  ByteSource* member();

  const std::string& error() const { return error_; }
  // Damage met and stepped over by next_member() since the last call
  // (a corrupt member header), for the caller to report.
  std::vector<std::string> take_warnings();

 private:
  class MemberSource;
  struct Callbacks;  // libarchive's read/skip/seek hooks
  friend struct Callbacks;

  struct archive* a_ = nullptr;
  ByteSource* src_ = nullptr;
  RawFile* seekable_ = nullptr;
  std::vector<char> buf_;
  std::unique_ptr<MemberSource> member_;
  std::string error_;
  std::vector<std::string> warnings_;
};

}  // namespace sgfpat

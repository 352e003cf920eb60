#include "store/rocks_status.h"

namespace sgfpat {

// RocksDB's InvalidArgument is about the database, not about how sgfpat was
// run (e.g. a RocksDB database without our column families): NotSupported.
Status from_rocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  std::string msg = what + ": " + s.ToString();
  if (s.IsNotFound() || s.IsPathNotFound()) return Status::NotFound(std::move(msg));
  if (s.IsCorruption()) return Status::Corruption(std::move(msg));
  if (s.IsNoSpace() || s.subcode() == rocksdb::Status::kSpaceLimit)
    return Status::NoSpace(msg + " (the disk is full: free some space and run the command again; the database "
                                 "keeps what earlier writes stored)");
  if (s.IsBusy() || s.IsTimedOut() || s.IsTryAgain()) return Status::Busy(std::move(msg));
  if (s.IsNotSupported() || s.IsInvalidArgument()) return Status::NotSupported(std::move(msg));
  if (s.IsMemoryLimit()) return Status::NoMemory(std::move(msg));
  return Status::IOError(std::move(msg));
}

}  // namespace sgfpat

// RocksDB's diary (the LOG file in a database directory), written by a
// logger that survives a full disk.  RocksDB's own file logger appends
// again after a failed write, and the Debian build (assertions on) aborts
// there: a full disk during an ingest ended in SIGABRT instead of the
// NoSpace status the write itself returns.  This one stops writing at the
// first failure and never fails its caller.
#pragma once
#include <memory>
#include <string>

namespace rocksdb {
class Logger;
}

namespace sgfpat {

// A logger appending to `dir`/LOG (the previous LOG becomes LOG.old), or
// nullptr when the file cannot be created (RocksDB then logs nowhere).
std::shared_ptr<rocksdb::Logger> open_diary_logger(const std::string& dir);

}  // namespace sgfpat

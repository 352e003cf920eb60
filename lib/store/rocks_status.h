// RocksDB's statuses as sgfpat's: one mapping of codes for every file of
// the store that calls RocksDB.
#pragma once
#include <rocksdb/status.h>

#include <string>

#include "core/status.h"

namespace sgfpat {

// OK for an ok `s`; else the code that matches RocksDB's code and subcode
// (NotFound, Corruption, NoSpace, Busy, NotSupported, NoMemory, IOError),
// with `what` and RocksDB's text as the message.
Status from_rocks(const rocksdb::Status& s, const std::string& what);

}  // namespace sgfpat

// A guard in front of RocksDB's reader of write-ahead logs.
//
// RocksDB 7.8's secondary instances (every sgfpat reader) read the logs
// with a reader that loops forever on a record whose type byte says
// "recyclable" with another log's number: one flipped bit in a log hangs
// `stats`, `query` and `export` (the writer's reader skips such a record).
// sgfpat never recycles log files, so a recyclable record type in one of
// its logs is damage; finding it first turns the hang into an error.
#pragma once
#include <string>

#include "core/status.h"

namespace sgfpat {

// Corruption naming the log file and byte when a complete record header in
// a *.log file of `db_path` has a recyclable type (5-8); OK otherwise,
// also for a record cut short at the end (a log being written).  I/O
// errors reading a log are IOError.
Status check_log_record_types(const std::string& db_path);

}  // namespace sgfpat

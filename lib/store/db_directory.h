// What is at a database's path before RocksDB opens it, and who holds it.
//
// A database directory (CURRENT present), a new or empty directory, what a
// creation killed before RocksDB wrote CURRENT left (cleared, under
// RocksDB's own lock, when the caller may create), or something else: a
// damaged database or somebody else's folder, refused with nothing
// changed.  The lock is the fcntl lock RocksDB's writer takes on the LOCK
// file.
#pragma once
#include <string>

#include "core/status.h"

namespace sgfpat {

// Where a database may be opened: one that exists (CURRENT present), or,
// when `may_create`, a new or empty directory (*creating set).  A directory
// that holds other files is refused: it is a damaged database (lost
// CURRENT: creating one would orphan, then delete, its table files) or
// somebody else's folder.  But what a creation killed before RocksDB wrote
// CURRENT leaves (the diary LOG, LOCK, IDENTITY, the first MANIFEST,
// temporary files, empty write-ahead logs; no table file) holds nothing:
// when `may_create` and no process holds its lock, those files are removed
// and the database made (Busy while a process holds it).
Status check_database_dir(const std::string& path, bool may_create, bool* creating);

// True when another process holds the write lock RocksDB takes on the
// database's LOCK file (an fcntl lock: RocksDB reports a failure to take it
// as a plain IOError, so this asks the kernel who holds it instead).
// Never called by a process holding that lock: fcntl locks are per process,
// and closing the probe's descriptor would release it.
bool locked_by_another_process(const std::string& path);

// What a process opening a database finds while another process is still
// making it (its lock held, no entry yet): Busy, so that a reader or a
// second writer is told to wait rather than that the database is damaged.
Status being_created(const std::string& path);

}  // namespace sgfpat

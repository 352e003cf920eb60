// The process exit codes of every subcommand, and the one place where a
// Status code becomes an exit code (README "Errors and exit codes").
#pragma once
#include <string_view>

#include "core/status.h"

namespace sgfpat::cli {

enum Exit : int {
  kOk = 0,
  kFailure = 1,   // the command could not do its job (database, I/O, memory)
  kUsage = 2,     // bad flags or arguments
  kBadInput = 3,  // the record, position or pattern asked for is rejected (an illegal game for `board`);
                  // `ingest`, `accuracy`: an input unreadable or holding no game (rejected records are counted)
  kUndecided = 4,  // `solve`: the budget ran out before a proof
  kDamaged = 5,   // the database is damaged or not sgfpat's: see `sgfpat repair`
  kNoSpace = 6,   // the disk (or a quota) is full: nothing half-written was left
  kBusy = 7,      // the database is in use by another writer
  kRepairedWithLoss = 8,  // `repair`: the database works again, but stored games were lost
};

// kOk for an ok status; kUsage for InvalidArgument, kBadInput for
// InvalidInput, kDamaged for Corruption, kNoSpace for NoSpace, kBusy for
// Busy, kFailure for every other code.
Exit exit_code(const Status& status);

// Prints "<prefix><message>" on stderr and returns exit_code(status).
// `prefix` is the command's "sgfpat NAME: ".
int fail(std::string_view prefix, const Status& status);

}  // namespace sgfpat::cli

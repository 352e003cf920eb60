// The process exit codes of every subcommand, and the one place where a
// Status code becomes an exit code (README "Exit codes").
#pragma once
#include <string_view>

#include "core/status.h"

namespace sgfpat::cli {

enum Exit : int {
  kOk = 0,
  kFailure = 1,   // the command could not do its job (database, I/O, memory)
  kUsage = 2,     // bad flags or arguments
  kBadInput = 3,  // input records rejected (e.g. an illegal game for `board`)
};

// kOk for an ok status; kUsage for InvalidArgument, kBadInput for
// InvalidInput, kFailure for every other code.
Exit exit_code(const Status& status);

// Prints "<prefix><message>" on stderr and returns exit_code(status).
// `prefix` is the command's "sgfpat NAME: ".
int fail(std::string_view prefix, const Status& status);

}  // namespace sgfpat::cli

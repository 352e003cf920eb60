// Opening a priors file inside sgfpat: the drop-in reader
// (priors/sgfpat_priors.h) with its refusals turned into a Status, and its
// format version checked against sgfpat's list of stored formats
// (core/format_version.h, kPriorsFormat) first.
#pragma once
#include <string>

#include "core/status.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat {

// Opens `path` into *priors (and with `verify` checks the data checksum).
// NotFound when there is no file; NotSupported (check_format_version's
// message) for a priors file of a version this sgfpat does not read;
// Corruption for a file that is there but is not a whole priors file.
Status open_priors(const std::string& path, bool verify, sgfpat_priors::Priors* priors);

}  // namespace sgfpat

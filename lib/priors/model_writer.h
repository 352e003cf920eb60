// Writes a priors file that carries a learned model (format version 3): the
// pattern tables of an existing priors file and a ModelSection after them.
#pragma once
#include <string>

#include "core/status.h"
#include "priors/sgfpat_priors.h"

namespace sgfpat {

// A ModelSection with its magic, feature set and group sizes filled in,
// every weight 0.
sgfpat_priors::ModelSection empty_model();

// Copies the tables of the priors file `in` (version 2 or 3; a model it has
// is replaced) to `out` with `model` appended, atomically (temporary file
// renamed).  `in` and `out` may be the same path.
Status write_priors_with_model(const std::string& in, const sgfpat_priors::ModelSection& model,
                               const std::string& out);

}  // namespace sgfpat

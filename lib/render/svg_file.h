// Writing a drawing to a file the way every output of sgfpat is written
// (io/atomic_file.h): whole or not at all, errors as a Status naming it.
#pragma once
#include <string>

#include "core/status.h"

namespace sgfpat {

Status write_svg_file(const std::string& path, const std::string& svg);

}  // namespace sgfpat

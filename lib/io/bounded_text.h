// Text typed or piped in (stdin: a board, GTP command lines, the position
// dialogue), read within a bound, so that an endless stream (/dev/zero, a
// runaway pipe) is refused instead of growing the process until the memory
// runs out.
#pragma once
#include <cstddef>
#include <istream>
#include <string>

#include "core/status.h"

namespace sgfpat {

// All of `in` into *out when it holds at most max_bytes; InvalidInput
// ("WHAT is longer than N bytes") otherwise, after reading max_bytes + 1.
Status read_all_bounded(std::istream& in, size_t max_bytes, const std::string& what, std::string* out);

// The next line of `in` (without its '\n') into *line, as std::getline;
// false at the end of `in`, and false with *too_long set when the line
// runs past max_bytes (then `in` is left in the middle of it).
bool read_line_bounded(std::istream& in, size_t max_bytes, std::string* line, bool* too_long);

}  // namespace sgfpat

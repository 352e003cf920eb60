// Checking that a file system has room before a large write, so that a
// command stops early with a clear message instead of half-way with a
// half-written file (or inside a library that does not expect a full disk).
#pragma once
#include <cstdint>
#include <string>

#include "core/status.h"

namespace sgfpat {

// Bytes available to this user on the file system holding `path` (the
// nearest existing parent of it).  IOError if it cannot be asked.
Status free_bytes(const std::string& path, uint64_t* bytes);

// OK when the file system holding `path` has at least `needed` bytes
// available; NoSpace otherwise: "not enough space for <what> in <dir>:
// <needed> needed, <free> free".  A file system that cannot be asked is
// not a reason to refuse (OK).
Status check_free_space(const std::string& path, uint64_t needed, const std::string& what);

// The bytes of the regular files under `dir` (recursively).
uint64_t directory_bytes(const std::string& dir);

}  // namespace sgfpat

// Fail points: named places where a test makes the process die, so that
// crash tests kill a run exactly where they say instead of at a moment
// guessed from a clock (RocksDB's SyncPoint plays the same part).
//
// SGFPAT_FAIL_POINT="name" kills the process (SIGKILL, as `kill -9` would)
// the first time fail_point("name") is reached; "name@N" the N-th time
// (N >= 1, counted over all threads).  Unset, a fail point costs one load
// of a flag.  Before dying the process writes "sgfpat: fail point NAME@N"
// to stderr, so a test can assert that the kill landed where it asked.
#pragma once

namespace sgfpat {

namespace fail_point_detail {
extern const bool kArmed;  // SGFPAT_FAIL_POINT is set
void reached(const char* name);
}  // namespace fail_point_detail

inline void fail_point(const char* name) {
  if (fail_point_detail::kArmed) fail_point_detail::reached(name);
}

}  // namespace sgfpat

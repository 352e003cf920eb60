// What this process has used so far, for the summaries of long commands
// (benchmarks and the sharded driver read them from --json).
#pragma once
#include <cstdint>

namespace sgfpat::cli {

// Peak resident set size of this process, bytes (getrusage).
uint64_t peak_rss_bytes();

// Bytes this process caused to be written to storage (/proc/self/io
// write_bytes); 0 where the kernel does not say.
uint64_t storage_bytes_written();

}  // namespace sgfpat::cli

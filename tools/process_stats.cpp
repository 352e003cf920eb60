#include "process_stats.h"

#include <sys/resource.h>

#include <fstream>
#include <string>

namespace sgfpat::cli {

uint64_t peak_rss_bytes() {
  struct rusage ru {};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return uint64_t(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

uint64_t storage_bytes_written() {
  std::ifstream in("/proc/self/io");
  std::string name;
  uint64_t value = 0;
  while (in >> name >> value)
    if (name == "write_bytes:") return value;
  return 0;
}

}  // namespace sgfpat::cli

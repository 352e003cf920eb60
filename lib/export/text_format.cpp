#include "export/text_format.h"

#include <cstdarg>
#include <cstdio>

namespace sgfpat {

std::string format_text(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  if (n < int(sizeof buf)) return buf;
  std::string big(size_t(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(big.data(), big.size(), fmt, ap);
  va_end(ap);
  big.resize(size_t(n));
  return big;
}

std::string key_hex(uint64_t key) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)key);
  return buf;
}

}  // namespace sgfpat

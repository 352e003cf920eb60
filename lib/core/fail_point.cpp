#include "core/fail_point.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace sgfpat::fail_point_detail {

namespace {

struct Target {
  std::string name;
  unsigned long at = 1;  // the N-th time
};

Target parse() {
  Target t;
  const char* env = std::getenv("SGFPAT_FAIL_POINT");
  if (!env) return t;
  t.name = env;
  const size_t sep = t.name.rfind('@');
  if (sep != std::string::npos) {
    t.at = std::strtoul(t.name.c_str() + sep + 1, nullptr, 10);
    if (t.at == 0) t.at = 1;
    t.name.resize(sep);
  }
  return t;
}

const Target& target() {
  static const Target t = parse();
  return t;
}

std::atomic<unsigned long> passes{0};

}  // namespace

const bool kArmed = std::getenv("SGFPAT_FAIL_POINT") != nullptr;

void reached(const char* name) {
  const Target& t = target();
  if (t.name != name) return;
  if (passes.fetch_add(1) + 1 != t.at) return;
  // Written with write(2): nothing buffered is lost to the kill.
  const std::string line = "sgfpat: fail point " + t.name + "@" + std::to_string(t.at) + "\n";
  (void)!::write(2, line.data(), line.size());
  ::kill(::getpid(), SIGKILL);
  ::_exit(137);  // not reached
}

}  // namespace sgfpat::fail_point_detail

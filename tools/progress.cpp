#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace sgfpat::cli {

ProgressLine::ProgressLine(Mode mode) : enabled_(::isatty(STDERR_FILENO)) {
  if (mode == Mode::kLines && !enabled_) enabled_ = lines_ = true;
}

void ProgressLine::update(const std::string& text, bool force) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  const auto interval = lines_ ? std::chrono::milliseconds(5000) : std::chrono::milliseconds(250);
  if (!force && drawn_ && now - last_ < interval) return;
  last_ = now;
  if (lines_) std::fprintf(stderr, "%s\n", text.c_str());
  else std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::finish() {
  if (lines_) {
    drawn_ = false;  // the next update starts a new step: show it at once
    return;
  }
  if (enabled_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  drawn_ = false;
}

std::string with_commas(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string duration_text(double seconds) {
  long t = long(seconds + 0.5);
  char buf[32];
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  return buf;
}

std::string bytes_text(uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace sgfpat::cli

#include "export/rates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sgfpat {

Interval wilson95(uint64_t k, uint64_t n) {
  if (n == 0) return {0.0, 1.0};
  const double z = 1.959963984540054;
  const double nn = double(n), p = double(k) / nn, z2 = z * z;
  const double denom = 1 + z2 / nn;
  const double center = (p + z2 / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

std::string percent_text(double p) {
  char buf[32];
  // Small rates keep 3 significant digits rather than showing 0.00%.
  std::snprintf(buf, sizeof buf, p > 0 && p < 0.001 ? "%.3g%%" : "%.2f%%", 100.0 * p);
  return buf;
}

std::string wilson95_text(uint64_t k, uint64_t n) {
  const Interval ci = wilson95(k, n);
  return "[" + percent_text(ci.low) + ", " + percent_text(ci.high) + "]";
}

}  // namespace sgfpat

// Rates of the counts as people read them: a proportion, its 95% Wilson
// score interval, and their text.
#pragma once
#include <cstdint>
#include <string>

namespace sgfpat {

// 95% Wilson score interval of a proportion k / n ([0, 1] when n == 0).
struct Interval {
  double low = 0;
  double high = 1;
};
Interval wilson95(uint64_t k, uint64_t n);

// k / n, 0 when n == 0.
inline double rate(uint64_t k, uint64_t n) { return n ? double(k) / double(n) : 0.0; }

// "12.34%" (3 significant digits below 0.1%: "0.00397%")
std::string percent_text(double p);

// The interval of k / n as the tables print it: "[12.10%, 12.58%]".
std::string wilson95_text(uint64_t k, uint64_t n);

}  // namespace sgfpat

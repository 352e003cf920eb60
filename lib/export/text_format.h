// Small text helpers of the reports: printf into a string, keys in hex.
#pragma once
#include <cstdint>
#include <string>

namespace sgfpat {

// printf into a std::string, of any length.
std::string format_text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// 16 lowercase hex digits.
std::string key_hex(uint64_t key);

}  // namespace sgfpat

// Unguessable names: seat tokens and game ids drawn from the operating
// system's random source (getrandom(2)), and their comparison in time that
// does not depend on where two tokens differ.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "core/status.h"

namespace sgfpat::serve {

inline constexpr size_t kTokenBytes = 16;  // 128 bits: a seat's token
inline constexpr size_t kGameIdBytes = 8;  // a game's id (names its record file)

// `bytes` random bytes as 2 * bytes lowercase hex digits.  IOError when the
// random source fails (never a weaker fallback).
Status random_hex(size_t bytes, std::string* out);

// a == b, looking at every byte of equal-length strings.
bool same_token(std::string_view a, std::string_view b);

}  // namespace sgfpat::serve

// UTF-8 checks for text that came from outside (SGF property values, file
// names): what JSON and the terminal get must be valid UTF-8, whatever the
// bytes were.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace sgfpat {

// The length of the valid UTF-8 sequence (shortest form, no surrogates, at
// most U+10FFFF) that starts `s`, or 0 when `s` is empty or does not start
// with one.
size_t utf8_sequence_length(std::string_view s);

// True when every byte of `s` belongs to a valid UTF-8 sequence.
bool valid_utf8(std::string_view s);

// `s` with every byte that is not part of a valid UTF-8 sequence written as
// the four ASCII characters \xNN (NN its value in uppercase hexadecimal);
// valid text comes back unchanged.
std::string escape_invalid_utf8(std::string_view s);

}  // namespace sgfpat

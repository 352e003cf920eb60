// UTF-16 text (a file that starts with a byte order mark) as UTF-8, so that
// the splitter and the parser, which read bytes, see SGF's ASCII syntax.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace sgfpat {

// True when `head` starts with a UTF-16 byte order mark (FF FE or FE FF).
bool starts_utf16(std::string_view head);

// A source of the UTF-8 form of `inner` (not owned, must outlive it), whose
// first two bytes are the byte order mark (dropped).  A lone surrogate
// becomes U+FFFD; an odd byte at the end is an error.
std::unique_ptr<ByteSource> make_utf16_decoder(ByteSource* inner);

}  // namespace sgfpat

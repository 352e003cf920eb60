// The UTF-8 check and escape of lib/core/utf8.h: what --json and the game
// records' text rely on.
#include <doctest/doctest.h>

#include <string>

#include "core/utf8.h"

using namespace sgfpat;

TEST_CASE("utf8: valid sequences pass, everything else is escaped byte by byte") {
  CHECK(valid_utf8(""));
  CHECK(valid_utf8("plain ASCII"));
  CHECK(valid_utf8("M\xc3\xbcller \xe6\x9f\xaf\xe6\xb4\x81 \xf0\x9f\x98\x80"));
  CHECK(escape_invalid_utf8("M\xc3\xbcller") == "M\xc3\xbcller");
  // Stray, overlong, surrogate, past U+10FFFF, cut short.
  for (const std::string bad : {std::string("\x80"), std::string("\xc0\xaf"), std::string("\xe0\x80\xaf"),
                                 std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80"), std::string("\xe6\x9f"),
                                 std::string("\xff"), std::string("\xc3")}) {
    INFO(escape_invalid_utf8(bad));
    CHECK_FALSE(valid_utf8(bad));
    const std::string e = escape_invalid_utf8(bad);
    CHECK(valid_utf8(e));
    CHECK(e.size() == 4 * bad.size());
  }
  CHECK(escape_invalid_utf8("a\xff" "b\xe6\x9f") == "a\\xFFb\\xE6\\x9F");
  CHECK(escape_invalid_utf8(std::string("nul\0byte", 8)) == std::string("nul\0byte", 8));
}

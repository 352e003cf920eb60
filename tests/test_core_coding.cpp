// The byte formats of lib/core/coding.h: exact bytes, round trips at every
// boundary, and the refusal of short or malformed input.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/coding.h"

using namespace sgfpat;

TEST_CASE("fixed32/64 are little-endian byte by byte") {
  std::string s;
  put_fixed32(&s, 0x04030201u);
  put_fixed64(&s, 0x0807060504030201ULL);
  REQUIRE(s.size() == 12);
  CHECK(s == std::string("\x01\x02\x03\x04\x01\x02\x03\x04\x05\x06\x07\x08", 12));
  std::string_view in = s;
  uint32_t a = 0;
  uint64_t b = 0;
  CHECK(get_fixed32(&in, &a));
  CHECK(get_fixed64(&in, &b));
  CHECK(a == 0x04030201u);
  CHECK(b == 0x0807060504030201ULL);
  CHECK(in.empty());
}

TEST_CASE("fixed16 is little-endian") {
  char b[2];
  encode_fixed16(b, 0xbeef);
  CHECK(uint8_t(b[0]) == 0xef);
  CHECK(uint8_t(b[1]) == 0xbe);
  CHECK(decode_fixed16(b) == 0xbeef);
  encode_fixed16(b, 0x00ff);
  CHECK(decode_fixed16(b) == 0x00ff);
}

TEST_CASE("fixed round trips, high bits included") {
  std::vector<uint64_t> values = {0, 1, 0x7f, 0x80, 0xff, 0x100, UINT32_MAX, uint64_t(UINT32_MAX) + 1, UINT64_MAX,
                                  0x8000000000000000ULL};
  for (int shift = 0; shift < 64; ++shift) values.push_back((uint64_t(1) << shift) - 1);
  std::string s;
  for (uint64_t v : values) {
    put_fixed32(&s, uint32_t(v));
    put_fixed64(&s, v);
  }
  std::string_view in = s;
  for (uint64_t v : values) {
    uint32_t a = 0;
    uint64_t b = 0;
    REQUIRE(get_fixed32(&in, &a));
    REQUIRE(get_fixed64(&in, &b));
    CHECK(a == uint32_t(v));
    CHECK(b == v);
  }
  CHECK(in.empty());
}

TEST_CASE("big-endian fixed sorts bytewise as numbers") {
  char a[8], b[8];
  encode_fixed64_be(a, 0x00000000000000ffULL);
  encode_fixed64_be(b, 0x0000000000000100ULL);
  CHECK(std::string(a, 8) < std::string(b, 8));
  CHECK(std::string(b, 8) == std::string("\0\0\0\0\0\0\x01\0", 8));
  CHECK(decode_fixed64_be(b) == 0x100);
  char c[4];
  encode_fixed32_be(c, 0x01020304u);
  CHECK(std::string(c, 4) == "\x01\x02\x03\x04");
  CHECK(decode_fixed32_be(c) == 0x01020304u);
}

TEST_CASE("short input is refused and nothing is consumed") {
  std::string s = "\x01\x02\x03";
  std::string_view in = s;
  uint32_t a = 7;
  uint64_t b = 7;
  CHECK_FALSE(get_fixed32(&in, &a));
  CHECK_FALSE(get_fixed64(&in, &b));
  CHECK(in.size() == 3);
  CHECK(a == 7);
}

TEST_CASE("varint32 and varint64 round trip, with the lengths of the format") {
  std::vector<uint64_t> values;
  for (int shift = 0; shift < 64; ++shift) {
    const uint64_t p = uint64_t(1) << shift;
    values.push_back(p - 1);
    values.push_back(p);
    values.push_back(p + 1);
  }
  values.push_back(UINT64_MAX);
  std::string s;
  size_t expected_bytes = 0;
  for (uint64_t v : values) {
    put_varint64(&s, v);
    expected_bytes += size_t(varint_length(v));
  }
  CHECK(s.size() == expected_bytes);
  std::string_view in = s;
  for (uint64_t v : values) {
    uint64_t got = 0;
    REQUIRE(get_varint64(&in, &got));
    CHECK(got == v);
  }
  CHECK(in.empty());

  CHECK(varint_length(0) == 1);
  CHECK(varint_length(127) == 1);
  CHECK(varint_length(128) == 2);
  CHECK(varint_length(UINT64_MAX) == 10);
  std::string t;
  put_varint32(&t, 300);
  CHECK(t == "\xac\x02");  // 300 = 0b10_0101100
  std::string_view tin = t;
  uint32_t v32 = 0;
  CHECK(get_varint32(&tin, &v32));
  CHECK(v32 == 300);
}

TEST_CASE("malformed varints are refused") {
  uint64_t v = 0;
  // Truncated: continuation bit on the last byte.
  std::string cut = "\xff\xff";
  std::string_view in = cut;
  CHECK_FALSE(get_varint64(&in, &v));
  CHECK(in.size() == 2);
  // Eleven bytes.
  std::string too_long(10, '\xff');
  too_long.push_back('\x01');
  in = too_long;
  CHECK_FALSE(get_varint64(&in, &v));
  // Ten bytes whose last carries bits past 63.
  std::string overflow(9, '\xff');
  overflow.push_back('\x02');
  in = overflow;
  CHECK_FALSE(get_varint64(&in, &v));
  // A value past 32 bits is not a varint32.
  std::string big;
  put_varint64(&big, uint64_t(UINT32_MAX) + 1);
  in = big;
  uint32_t v32 = 0;
  CHECK_FALSE(get_varint32(&in, &v32));
  CHECK(in.size() == big.size());
  // Empty input.
  in = {};
  CHECK_FALSE(get_varint64(&in, &v));
}

TEST_CASE("length-prefixed bytes") {
  std::string s;
  put_length_prefixed(&s, "");
  put_length_prefixed(&s, "abc");
  put_length_prefixed(&s, std::string(200, 'x'));
  std::string_view in = s, out;
  REQUIRE(get_length_prefixed(&in, &out));
  CHECK(out.empty());
  REQUIRE(get_length_prefixed(&in, &out));
  CHECK(out == "abc");
  REQUIRE(get_length_prefixed(&in, &out));
  CHECK(out == std::string(200, 'x'));
  CHECK(in.empty());
  // A length past the end is refused, nothing consumed.
  std::string bad = "\x05" "ab";
  in = bad;
  CHECK_FALSE(get_length_prefixed(&in, &out));
  CHECK(in.size() == 3);
}

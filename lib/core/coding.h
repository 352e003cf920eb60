// Byte formats: fixed-width integers and varints, written and read byte by
// byte so that what is stored does not depend on the host's byte order.
//
// Little-endian fixed-width for values (the counts value, fingerprints);
// big-endian fixed-width for keys whose byte order must sort as numbers
// (RocksDB compares keys bytewise); LEB128 varints (7 bits a byte, low
// group first, high bit set on all but the last byte) for small numbers.
// Readers take a std::string_view, consume what they read from its front,
// and return false, consuming nothing, when the input is short or
// malformed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sgfpat {

inline constexpr size_t kMaxVarint64Bytes = 10;

// ---- fixed width, little-endian ----

inline void encode_fixed16(char* dst, uint16_t v) {
  dst[0] = char(uint8_t(v));
  dst[1] = char(uint8_t(v >> 8));
}
inline uint16_t decode_fixed16(const char* src) { return uint16_t(uint8_t(src[0]) | (uint8_t(src[1]) << 8)); }
inline void encode_fixed32(char* dst, uint32_t v) {
  for (int i = 0; i < 4; ++i) dst[i] = char(uint8_t(v >> (8 * i)));
}
inline void encode_fixed64(char* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst[i] = char(uint8_t(v >> (8 * i)));
}
inline uint32_t decode_fixed32(const char* src) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(src[i])) << (8 * i);
  return v;
}
inline uint64_t decode_fixed64(const char* src) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(src[i])) << (8 * i);
  return v;
}
inline void put_fixed32(std::string* dst, uint32_t v) {
  char buf[4];
  encode_fixed32(buf, v);
  dst->append(buf, 4);
}
inline void put_fixed64(std::string* dst, uint64_t v) {
  char buf[8];
  encode_fixed64(buf, v);
  dst->append(buf, 8);
}
inline bool get_fixed32(std::string_view* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = decode_fixed32(in->data());
  in->remove_prefix(4);
  return true;
}
inline bool get_fixed64(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = decode_fixed64(in->data());
  in->remove_prefix(8);
  return true;
}

// ---- fixed width, big-endian (keys that must sort as numbers) ----

inline void encode_fixed32_be(char* dst, uint32_t v) {
  for (int i = 0; i < 4; ++i) dst[i] = char(uint8_t(v >> (24 - 8 * i)));
}
inline void encode_fixed64_be(char* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst[i] = char(uint8_t(v >> (56 - 8 * i)));
}
inline uint32_t decode_fixed32_be(const char* src) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | uint8_t(src[i]);
  return v;
}
inline uint64_t decode_fixed64_be(const char* src) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | uint8_t(src[i]);
  return v;
}

// ---- varints ----

inline void put_varint64(std::string* dst, uint64_t v) {
  while (v >= 0x80) {
    dst->push_back(char(uint8_t(v | 0x80)));
    v >>= 7;
  }
  dst->push_back(char(uint8_t(v)));
}
inline void put_varint32(std::string* dst, uint32_t v) { put_varint64(dst, v); }

// Bytes put_varint64(v) writes.
inline int varint_length(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// False (nothing consumed) on a truncated varint, one longer than 10 bytes,
// or one whose value does not fit 64 bits.
inline bool get_varint64(std::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (size_t i = 0; i < in->size() && i < kMaxVarint64Bytes; ++i) {
    const uint64_t byte = uint8_t((*in)[i]);
    const int shift = int(7 * i);
    if (i == kMaxVarint64Bytes - 1 && byte > 1) return false;  // past bit 63
    result |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      in->remove_prefix(i + 1);
      *v = result;
      return true;
    }
  }
  return false;
}
// Also false when the value does not fit 32 bits.
inline bool get_varint32(std::string_view* in, uint32_t* v) {
  std::string_view probe = *in;
  uint64_t wide = 0;
  if (!get_varint64(&probe, &wide) || wide > UINT32_MAX) return false;
  *in = probe;
  *v = uint32_t(wide);
  return true;
}

// ---- length-prefixed bytes: a varint length, then the bytes ----

inline void put_length_prefixed(std::string* dst, std::string_view bytes) {
  put_varint64(dst, bytes.size());
  dst->append(bytes);
}
inline bool get_length_prefixed(std::string_view* in, std::string_view* bytes) {
  std::string_view probe = *in;
  uint64_t n = 0;
  if (!get_varint64(&probe, &n) || n > probe.size()) return false;
  *bytes = probe.substr(0, size_t(n));
  probe.remove_prefix(size_t(n));
  *in = probe;
  return true;
}

}  // namespace sgfpat

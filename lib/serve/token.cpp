#include "serve/token.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace sgfpat::serve {

Status random_hex(size_t bytes, std::string* out) {
  std::vector<unsigned char> buf(bytes);
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = getrandom(buf.data() + got, bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(std::string("getrandom: ") + std::strerror(errno));
    }
    got += size_t(n);
  }
  static const char kHex[] = "0123456789abcdef";
  out->clear();
  for (unsigned char b : buf) {
    out->push_back(kHex[b >> 4]);
    out->push_back(kHex[b & 15]);
  }
  return Status::OK();
}

bool same_token(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace sgfpat::serve

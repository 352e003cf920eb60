#include "io/bounded_text.h"

namespace sgfpat {

Status read_all_bounded(std::istream& in, size_t max_bytes, const std::string& what, std::string* out) {
  out->clear();
  char buf[4096];
  while (in) {
    in.read(buf, sizeof buf);
    out->append(buf, size_t(in.gcount()));
    if (out->size() > max_bytes)
      return Status::InvalidInput(what + " is longer than " + std::to_string(max_bytes) + " bytes");
  }
  return Status::OK();
}

bool read_line_bounded(std::istream& in, size_t max_bytes, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  std::streambuf* sb = in.rdbuf();
  if (!in.good() || !sb) return false;
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return !line->empty();
    }
    if (c == '\n') return true;
    if (line->size() == max_bytes) {
      *too_long = true;
      return false;
    }
    line->push_back(char(c));
  }
}

}  // namespace sgfpat

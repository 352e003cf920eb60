#include "sgf/charset.h"

#include <errno.h>
#include <iconv.h>

#include <cctype>
#include <map>
#include <memory>

#include "core/utf8.h"

namespace sgfpat {

namespace {

// CA's value folded: lowercase, without '-', '_', ' ' and '.'.
std::string folded(std::string_view charset) {
  std::string f;
  for (char c : charset)
    if (c != '-' && c != '_' && c != ' ' && c != '.') f += char(std::tolower((unsigned char)c));
  return f;
}

enum class Kind { Utf8, Latin1, Iconv };

// What a CA value asks for, and the iconv name for Kind::Iconv.
Kind classify(std::string_view charset, std::string* iconv_name) {
  const std::string f = folded(charset);
  if (f.empty()) return Kind::Utf8;
  if (f == "utf8" || f.rfind("utf16", 0) == 0 || f.rfind("utf32", 0) == 0 || f.rfind("ucs", 0) == 0 ||
      f == "unicode")
    return Kind::Utf8;
  if (f == "iso88591" || f == "latin1" || f == "l1" || f == "iso885911987" || f == "cp819")
    return Kind::Latin1;
  if (f == "gb2312" || f == "gbk" || f == "gb18030" || f == "cp936" || f == "euccn" || f == "gb" ||
      f == "windows936")
    *iconv_name = "GB18030";
  else if (f == "big5" || f == "big5hkscs" || f == "cp950" || f == "windows950")
    *iconv_name = "BIG5-HKSCS";
  else if (f == "shiftjis" || f == "sjis" || f == "mskanji" || f == "cp932" || f == "windows31j" ||
           f == "windows932" || f == "xsjis")
    *iconv_name = "CP932";
  else if (f == "euckr" || f == "cp949" || f == "uhc" || f == "ksc56011987" || f == "windows949")
    *iconv_name = "CP949";
  else if (charset.size() <= 32 && charset.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                               "0123456789-_.:") == std::string_view::npos)
    *iconv_name = std::string(charset);  // another name iconv may know (no '/': no iconv suffixes)
  else
    return Kind::Utf8;
  return Kind::Iconv;
}

// One converter per charset and thread (iconv_t keeps state; opening one
// loads a module): kept for the thread's life.
class Converters {
 public:
  ~Converters() {
    for (auto& [name, cd] : open_)
      if (cd != iconv_t(-1)) iconv_close(cd);
  }
  // Null when iconv does not know the charset.
  iconv_t get(const std::string& name) {
    auto it = open_.find(name);
    if (it != open_.end()) return it->second;
    // Records name few charsets; a stream of made-up names is not cached
    // past a few.
    if (open_.size() >= kMaxOpen) {
      for (auto& [n, cd] : open_)
        if (cd != iconv_t(-1)) iconv_close(cd);
      open_.clear();
    }
    return open_.emplace(name, iconv_open("UTF-8", name.c_str())).first->second;
  }

 private:
  static constexpr size_t kMaxOpen = 16;
  std::map<std::string, iconv_t> open_;
};

void append_escaped(std::string* out, unsigned char c) {
  *out += "\\x";
  *out += "0123456789ABCDEF"[c >> 4];
  *out += "0123456789ABCDEF"[c & 15];
}

// False when iconv does not know `name`; else *out is the decoded text with
// the bytes that did not decode escaped, and *clean tells whether there
// were none.
bool decode_with_iconv(std::string_view bytes, const std::string& name, std::string* out, bool* clean) {
  thread_local Converters converters;
  iconv_t cd = converters.get(name);
  if (cd == iconv_t(-1)) return false;
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // initial state
  out->clear();
  *clean = true;
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  char buf[256];
  while (in_left > 0) {
    char* o = buf;
    size_t o_left = sizeof buf;
    const size_t r = iconv(cd, &in, &in_left, &o, &o_left);
    out->append(buf, size_t(o - buf));
    if (r != size_t(-1)) break;
    if (errno == E2BIG) continue;
    // EILSEQ (no such character) or EINVAL (cut short): escape one byte and
    // go on from the next.
    *clean = false;
    append_escaped(out, (unsigned char)*in);
    ++in;
    --in_left;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  // A stateful charset's closing sequence (none for those above).
  char* o = buf;
  size_t o_left = sizeof buf;
  iconv(cd, nullptr, nullptr, &o, &o_left);
  out->append(buf, size_t(o - buf));
  return true;
}

// True when valid UTF-8 `s` holds a character of 3 or 4 bytes.
bool has_long_sequence(std::string_view s) {
  for (char c : s)
    if ((unsigned char)c >= 0xE0) return true;
  return false;
}

std::string latin1_to_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    if (c < 0x80) {
      out += char(c);
    } else {
      out += char(0xC0 | (c >> 6));
      out += char(0x80 | (c & 0x3F));
    }
  }
  return out;
}

}  // namespace

std::string text_to_utf8(std::string_view bytes, std::string_view charset) {
  bool ascii = true;
  for (char c : bytes) ascii &= (unsigned char)c < 0x80;
  if (ascii) return std::string(bytes);
  std::string name;
  switch (classify(charset, &name)) {
    case Kind::Utf8:
      if (valid_utf8(bytes)) return std::string(bytes);
      return charset.empty() ? latin1_to_utf8(bytes) : escape_invalid_utf8(bytes);
    case Kind::Latin1:
      return latin1_to_utf8(bytes);
    case Kind::Iconv: {
      // UTF-8 labelled as a legacy charset (GB2312, Big5, ...: writers that
      // copy CA from elsewhere): CJK text in UTF-8 is 3-byte sequences,
      // which legacy-coded names form by chance about once in a thousand.
      if (valid_utf8(bytes) && has_long_sequence(bytes)) return std::string(bytes);
      std::string out;
      bool clean = false;
      if (!decode_with_iconv(bytes, name, &out, &clean)) return escape_invalid_utf8(bytes);
      if (!clean && valid_utf8(bytes)) return std::string(bytes);
      // iconv's output is UTF-8; the check guards against a converter that
      // passes bytes through.
      return valid_utf8(out) ? out : escape_invalid_utf8(out);
    }
  }
  return escape_invalid_utf8(bytes);
}

}  // namespace sgfpat

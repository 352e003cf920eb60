// Text of an SGF record to UTF-8 by the record's charset (its root CA[]
// property), so that everything sgfpat stores and prints of a game's text
// (names, ranks, result, date, rules, game name) is UTF-8.
#pragma once
#include <string>
#include <string_view>

namespace sgfpat {

// `bytes` (an unescaped property value) decoded from `charset` (CA's value
// as written: "GB2312", "gbk", "Big5", "Shift_JIS", "EUC-KR", "ISO-8859-1",
// "UTF-8", ...; "" when the record has no CA) into UTF-8:
// - ASCII comes back as it is, whatever the charset;
// - no CA: UTF-8 when the bytes are valid UTF-8, else ISO-8859-1 (SGF's
//   default charset);
// - a charset that iconv knows: decoded (GB2312 and GBK as GB18030, Big5
//   as BIG5-HKSCS, Shift_JIS as CP932, EUC-KR as CP949, their supersets);
//   but text labelled so that is valid UTF-8 holding a 3- or 4-byte
//   character (CJK in UTF-8; legacy-coded names look so about once in a
//   thousand), or that does not decode while valid UTF-8, is taken as
//   UTF-8 (writers that copy CA from elsewhere);
// - UTF-8, UTF-16 and UTF-32 labels, and charsets iconv does not know:
//   taken as UTF-8 (UTF-16 files are converted as they are read);
// whatever still does not decode is escaped as \xNN (core/utf8.h), so the
// result is always valid UTF-8.
std::string text_to_utf8(std::string_view bytes, std::string_view charset);

}  // namespace sgfpat

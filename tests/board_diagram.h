// Test positions as board diagrams: rows separated by '|', top row first,
// '.' empty, X black, O white.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "board/position_text.h"

namespace sgfpat::test {

inline Board make_board(const std::string& rows) {
  TextPosition pos;
  std::vector<std::string> r;
  std::string cur;
  for (char c : rows + "|") {
    if (c == '|') {
      r.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  std::string text = "B\n" + std::to_string(r.size()) + "\n";
  for (auto& row : r) text += row + "\n";
  Status st = parse_position_text(text, &pos);
  REQUIRE_MESSAGE(st.ok(), st.message());
  return pos.board;
}

// Row r, column c from the top left, as in the diagrams.
inline Point pt(int r, int c) { return Point{int8_t(c), int8_t(r)}; }

}  // namespace sgfpat::test

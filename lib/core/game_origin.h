// Where a game record was found: shared by the readers (lib/io), the parser
// (lib/sgf) and the store, so that neither of the first two needs the other.
#pragma once
#include <cstdint>
#include <string>

namespace sgfpat {

// `member` is the path inside an archive ("" for a plain or compressed
// file); `index` counts games from 0 within the file or member.
struct GameOrigin {
  std::string file;
  std::string member;
  uint64_t index = 0;
  std::string describe() const;  // "file[:member] game #index+1"
};

}  // namespace sgfpat

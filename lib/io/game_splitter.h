// Cuts a byte stream holding one or many SGF game trees "(;...)(;...)" into
// one text per game, in bounded memory: reads fixed-size chunks and never
// keeps more than one game (up to a cap) plus one chunk.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/byte_source.h"

namespace sgfpat {

class GameSplitter {
 public:
  static constexpr size_t kDefaultMaxGameBytes = size_t(32) << 20;
  static constexpr size_t kDefaultChunkBytes = size_t(64) << 10;

  explicit GameSplitter(size_t max_game_bytes = kDefaultMaxGameBytes,
                        size_t chunk_bytes = kDefaultChunkBytes);

  // Starts on `src` (not owned); game indexes restart from 0.
  void reset(ByteSource* src);

  enum class Result { Game, Error, End };
  // Game: *text holds the next game tree and *index its number in the
  // stream.  Error: game *index is unusable (*error says why: too large,
  // or unterminated); the splitter has resynchronised.  End: no more games
  // (if the source failed, the source's error() says why).
  Result next(std::string* text, uint64_t* index, std::string* error);

  // Bytes delivered by the source so far.
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  enum class State : uint8_t { Outside, Opening, Tree, Value, Escape };

  bool refill();

  size_t max_game_bytes_;
  std::vector<char> buf_;
  ByteSource* src_ = nullptr;
  size_t pos_ = 0;
  size_t len_ = 0;
  size_t seg_ = 0;  // start in buf_ of the current game's bytes not yet copied out
  bool eof_ = true;
  bool skipping_ = false;  // inside an oversized game: track structure, keep nothing
  State state_ = State::Outside;
  uint64_t depth_ = 0;
  uint64_t next_index_ = 0;
  uint64_t cur_index_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace sgfpat

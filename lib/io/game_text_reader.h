// Streams the raw text of every SGF game found in a list of inputs (files,
// directories, stdin, compressed files, tar/zip archives), one at a time,
// in constant memory.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/game_origin.h"

namespace sgfpat {

struct GameText {
  GameOrigin origin;
  std::string text;  // one game tree "(;...)"
};

struct ReadProgress {
  uint64_t bytes_done = 0;   // input bytes consumed (compressed, on disk)
  uint64_t bytes_total = 0;  // sum of the input files' sizes (stdin unknown: 0)
  uint64_t files_done = 0;
  uint64_t files_total = 0;
  uint64_t games = 0;   // game texts returned so far
  uint64_t errors = 0;  // errors reported so far
};

// An input that could not be read, or a game text that could not be cut out.
struct ReadError {
  GameOrigin origin;     // file and member; index is meaningful only if in_game
  bool in_game = false;  // true: game #index is lost (too large, unterminated)
  std::string message;   // complete: "a.sgf.gz: corrupt gzip stream: CRC mismatch"
};
using ErrorCallback = std::function<void(const ReadError&)>;

struct ReaderOptions {
  size_t max_game_bytes = size_t(32) << 20;  // larger games are skipped as errors
  size_t chunk_bytes = size_t(64) << 10;
};

class GameTextReader {
 public:
  // Inputs as on a command line (see expand_inputs).  Errors go to
  // `on_error`; without one they are written to stderr.
  explicit GameTextReader(std::vector<std::string> inputs, ErrorCallback on_error = {},
                          ReaderOptions options = {});
  ~GameTextReader();
  GameTextReader(const GameTextReader&) = delete;
  GameTextReader& operator=(const GameTextReader&) = delete;

  // The next game text; false when every input is exhausted.  Never throws:
  // problems are reported to the error callback and reading goes on.
  bool next(GameText* out);

  ReadProgress progress() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sgfpat

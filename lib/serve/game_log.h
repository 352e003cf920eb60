// The on-disk record of one served game: an append-only file of lines, one
// JSON record each with its CRC-32 ("<json>\t<8 hex digits>\n"), made
// durable (fdatasync) before append() returns.  The first record holds the
// format version (kServedGameFormat) and the game's settings; each later
// one an event.  A kill can leave only a torn last line (a move never
// acknowledged: it was not synced), which reading drops and the next open
// for appending cuts off; a damaged line before the last is Corruption,
// and the file is then left as it is.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "serve/protocol.h"

namespace sgfpat::serve {

// The largest record file read back (a game of thousands of moves is far
// below it).
inline constexpr uint64_t kMaxGameLogBytes = 64ull << 20;

class GameLog {
 public:
  ~GameLog();

  // Creates `path` (which must not exist; mode 0600: the seat tokens are
  // in it) with `header` as its first record, synced with its directory.
  static Status Create(const std::string& path, const Json& header, std::unique_ptr<GameLog>* out);

  struct Contents {
    std::vector<Json> records;  // the header first
    uint64_t valid_bytes = 0;   // the length of the whole lines read
    bool torn_tail = false;     // a last line was cut or damaged (dropped)
  };
  // Reads every record of `path`: checks each line's checksum and the
  // header's format version.  Corruption names the file and the line.
  static Status Read(const std::string& path, Contents* out);
  // Opens `path` to append after its first `valid_bytes` (a torn tail
  // beyond them is cut off, synced).
  static Status OpenForAppend(const std::string& path, uint64_t valid_bytes, std::unique_ptr<GameLog>* out);

  // Appends one record and syncs it.  On failure the file is cut back to
  // what it held (nothing half-written stays) and the error returned.
  Status append(const Json& record);

  const std::string& path() const { return path_; }

 private:
  GameLog(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// One line of the file for `record` (its JSON, a tab, its CRC-32, '\n').
std::string game_log_line(const Json& record);

}  // namespace sgfpat::serve

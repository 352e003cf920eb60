// Progress on stderr.  On a terminal: one line redrawn at most a few times
// a second.  As lines (for logs, and for scripts that wait for a step):
// one full line per forced update and at most one every few seconds
// otherwise.  Silent when stderr is not a terminal, unless asked for lines.
#pragma once
#include <chrono>
#include <string>

namespace sgfpat::cli {

class ProgressLine {
 public:
  enum class Mode { kTerminalOnly, kLines };
  explicit ProgressLine(Mode mode = Mode::kTerminalOnly);
  ~ProgressLine() { finish(); }
  // Redraws with `text` if enough time passed (or `force`).
  void update(const std::string& text, bool force = false);
  // Clears the line so that normal output can follow.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  bool lines_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// "1,234,567"
std::string with_commas(uint64_t v);
// "1:02:03" or "2:03"
std::string duration_text(double seconds);
// "12.3 MiB"
std::string bytes_text(uint64_t bytes);

}  // namespace sgfpat::cli

// A one-line progress display on stderr, redrawn at most a few times a
// second, and only when stderr is a terminal.
#pragma once
#include <chrono>
#include <string>

namespace sgfpat::cli {

class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine() { finish(); }
  // Redraws with `text` if enough time passed (or `force`).
  void update(const std::string& text, bool force = false);
  // Clears the line so that normal output can follow.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
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

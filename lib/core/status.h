// A small Status in the LevelDB style: ok, or a message saying what failed.
#pragma once
#include <string>
#include <utility>

namespace sgfpat {

class Status {
 public:
  Status() = default;
  static Status OK() { return Status(); }
  static Status Error(std::string msg) { return Status(std::move(msg)); }
  bool ok() const { return !failed_; }
  const std::string& message() const { return msg_; }
  explicit operator bool() const { return ok(); }

 private:
  explicit Status(std::string msg) : failed_(true), msg_(std::move(msg)) {}
  bool failed_ = false;
  std::string msg_;
};

}  // namespace sgfpat

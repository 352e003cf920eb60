// The outcome of an operation, in the LevelDB style: ok, or a code saying
// what kind of failure it was and a message for people.  Callers decide by
// the code (is_not_found(), code()), never by the message text.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace sgfpat {

class Status {
 public:
  // New codes go at the end (before kCount), each with a name in
  // code_name() and a constructor and predicate below.
  enum class Code : uint8_t {
    kOk = 0,
    kNotFound,         // the thing asked for is not there (no database at a path)
    kCorruption,       // stored data is damaged or not what this program wrote
    kIOError,          // reading or writing a file failed
    kNoSpace,          // the disk (or a quota) is full
    kInvalidInput,     // bad input data: an SGF record, a position, a pattern string
    kInvalidArgument,  // bad usage: a flag or a parameter out of range
    kBusy,             // in use by another process (a database's writer lock)
    kNotSupported,     // a format version or a size this program does not handle
    kNoMemory,         // an allocation failed
    kInternal,         // a broken invariant of the program itself
    kCount
  };

  Status() = default;
  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status NoSpace(std::string msg) { return Status(Code::kNoSpace, std::move(msg)); }
  static Status InvalidInput(std::string msg) { return Status(Code::kInvalidInput, std::move(msg)); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status Busy(std::string msg) { return Status(Code::kBusy, std::move(msg)); }
  static Status NotSupported(std::string msg) { return Status(Code::kNotSupported, std::move(msg)); }
  static Status NoMemory(std::string msg) { return Status(Code::kNoMemory, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }
  // Any code (kOk gives an ok status and drops the message).
  static Status FromCode(Code code, std::string msg) {
    return code == Code::kOk ? Status() : Status(code, std::move(msg));
  }

  bool ok() const { return code_ == Code::kOk; }
  explicit operator bool() const { return ok(); }
  Code code() const { return code_; }
  bool is_not_found() const { return code_ == Code::kNotFound; }
  bool is_corruption() const { return code_ == Code::kCorruption; }
  bool is_io_error() const { return code_ == Code::kIOError; }
  bool is_no_space() const { return code_ == Code::kNoSpace; }
  bool is_invalid_input() const { return code_ == Code::kInvalidInput; }
  bool is_invalid_argument() const { return code_ == Code::kInvalidArgument; }
  bool is_busy() const { return code_ == Code::kBusy; }
  bool is_not_supported() const { return code_ == Code::kNotSupported; }
  bool is_no_memory() const { return code_ == Code::kNoMemory; }
  bool is_internal() const { return code_ == Code::kInternal; }

  // For people: what failed and where ("a.sgf game #3: move 12 (B Q16):
  // suicide").  Empty when ok.
  const std::string& message() const { return msg_; }
  // The same failure seen from a caller: "context: message", code kept.
  // An ok status stays ok.
  Status with_context(std::string_view context) const {
    if (ok()) return *this;
    return Status(code_, std::string(context) + ": " + msg_);
  }
  // "OK", or the code's name and the message: "Corruption: bad record".
  std::string to_string() const {
    if (ok()) return "OK";
    return std::string(code_name(code_)) + ": " + msg_;
  }

  static const char* code_name(Code code) {
    switch (code) {
      case Code::kOk: return "OK";
      case Code::kNotFound: return "NotFound";
      case Code::kCorruption: return "Corruption";
      case Code::kIOError: return "IOError";
      case Code::kNoSpace: return "NoSpace";
      case Code::kInvalidInput: return "InvalidInput";
      case Code::kInvalidArgument: return "InvalidArgument";
      case Code::kBusy: return "Busy";
      case Code::kNotSupported: return "NotSupported";
      case Code::kNoMemory: return "NoMemory";
      case Code::kInternal: return "Internal";
      case Code::kCount: break;
    }
    return "Unknown";
  }

 private:
  Status(Code code, std::string msg) : code_(code), msg_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string msg_;
};

// Inside a catch block: the exception being handled as a Status, so that a
// function promising a Status can keep that promise.  bad_alloc and
// length_error give NoMemory, anything else Internal; the message is
// "context: what()".
Status status_from_exception(std::string_view context);

}  // namespace sgfpat

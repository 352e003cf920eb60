#include "exit_codes.h"

#include <iostream>

namespace sgfpat::cli {

Exit exit_code(const Status& status) {
  switch (status.code()) {
    case Status::Code::kOk: return kOk;
    case Status::Code::kInvalidArgument: return kUsage;
    case Status::Code::kInvalidInput: return kBadInput;
    case Status::Code::kCorruption: return kDamaged;
    case Status::Code::kNoSpace: return kNoSpace;
    case Status::Code::kBusy: return kBusy;
    default: return kFailure;
  }
}

int fail(std::string_view prefix, const Status& status) {
  std::cerr << prefix << status.message() << "\n";
  return exit_code(status);
}

}  // namespace sgfpat::cli

#include "priors/priors_file.h"

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/format_version.h"

namespace sgfpat {

// The drop-in header keeps its own copy of the version numbers (it cannot
// include lib/core); they must be the list's.
static_assert(sgfpat_priors::kVersion == kPriorsFormat.current, "priors reader and kPriorsFormat disagree");
static_assert(sgfpat_priors::kOldestVersion == kPriorsFormat.oldest, "priors reader and kPriorsFormat disagree");

Status open_priors(const std::string& path, bool verify, sgfpat_priors::Priors* priors) {
  // The version first, by the one check every stored format goes through;
  // only for a file that says it is a priors file of this byte order (the
  // reader names what else it is).
  sgfpat_priors::Header h;
  std::ifstream in(path, std::ios::binary);
  if (in && in.read(reinterpret_cast<char*>(&h), offsetof(sgfpat_priors::Header, levels)) &&
      std::memcmp(h.magic, sgfpat_priors::kMagic, 8) == 0 && h.byte_order == sgfpat_priors::kByteOrderMark) {
    Status st = check_format_version(kPriorsFormat, h.version, path);
    if (!st.ok()) return st;
  }
  in.close();
  std::string error;
  if (!priors->open(path, &error)) {
    // The reader reports text only: a file that is there but does not open
    // is not a (whole) priors file.
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) ? Status::Corruption(error) : Status::NotFound(error);
  }
  if (verify && !priors->verify(&error)) return Status::Corruption(path + ": " + error);
  return Status::OK();
}

}  // namespace sgfpat

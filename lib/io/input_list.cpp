#include "io/input_list.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace sgfpat {
namespace fs = std::filesystem;

namespace {

bool ends_with_any(std::string_view name, std::initializer_list<std::string_view> exts) {
  for (std::string_view e : exts) {
    if (name.size() < e.size()) continue;
    bool same = true;
    for (size_t i = 0; i < e.size() && same; ++i)
      same = std::tolower((unsigned char)name[name.size() - e.size() + i]) == e[i];
    if (same) return true;
  }
  return false;
}

}  // namespace

bool is_input_name(std::string_view name) {
  return ends_with_any(name, {".sgf", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".tar", ".zip"});
}

bool is_tar_name(std::string_view name) {
  return ends_with_any(name, {".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz",
                              ".txz", ".tar.zst", ".tzst"});
}

std::vector<InputFile> expand_inputs(const std::vector<std::string>& inputs) {
  std::vector<InputFile> out;
  for (const std::string& in : inputs) {
    if (in == "-") {
      out.push_back({in, 0, {}});
      continue;
    }
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      InputFile f{in, 0, {}};
      uint64_t size = fs::file_size(in, ec);
      if (!ec) f.size = size;
      out.push_back(std::move(f));
      continue;
    }
    std::vector<InputFile> found;
    auto opts = fs::directory_options::skip_permission_denied;
    fs::recursive_directory_iterator it(in, opts, ec), end;
    if (ec) {
      out.push_back({in, 0, "cannot list directory: " + ec.message()});
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        out.push_back({in, 0, "cannot list directory: " + ec.message()});
        break;
      }
      std::error_code fec;
      if (!it->is_regular_file(fec)) continue;
      std::string path = it->path().string();
      if (!is_input_name(it->path().filename().string())) continue;
      uint64_t size = it->file_size(fec);
      found.push_back({std::move(path), fec ? 0 : size, {}});
    }
    std::sort(found.begin(), found.end(),
              [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
    for (auto& f : found) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace sgfpat

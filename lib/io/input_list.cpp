#include "io/input_list.h"

#include <algorithm>
#include <cctype>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>
#include <utility>

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

namespace {

// A directory's identity, to visit each once however many links lead to it.
using DirId = std::pair<uint64_t, uint64_t>;  // device, inode

bool dir_id(const std::string& path, DirId* id) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  *id = {uint64_t(st.st_dev), uint64_t(st.st_ino)};
  return true;
}

// The input files under `dir`, recursively, following links to directories
// (each directory once: a link back up the tree or a second link to the
// same directory adds nothing).  What cannot be listed or followed is named
// with its reason: an unreadable directory, a broken link with an input's
// name.
void walk(const fs::path& dir, std::set<DirId>* seen, std::vector<InputFile>* found) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    found->push_back({dir.string(), 0, "cannot list directory: " + ec.message()});
    return;
  }
  std::vector<fs::path> subdirs;
  for (; it != end; it.increment(ec)) {
    if (ec) {
      found->push_back({dir.string(), 0, "cannot list directory: " + ec.message()});
      break;
    }
    std::error_code sec;
    const fs::file_status st = it->status(sec);  // through links
    const std::string name = it->path().filename().string();
    if (sec || st.type() == fs::file_type::not_found) {
      if (it->is_symlink(sec) && is_input_name(name))
        found->push_back({it->path().string(), 0, "a symbolic link to nothing (broken link)"});
      continue;
    }
    if (fs::is_directory(st)) {
      subdirs.push_back(it->path());
      continue;
    }
    if (!fs::is_regular_file(st) || !is_input_name(name)) continue;
    std::error_code fec;
    const uint64_t size = it->file_size(fec);
    found->push_back({it->path().string(), fec ? 0 : size, {}});
  }
  // In name order, so that of two links to one directory the same one is
  // read every time.
  std::sort(subdirs.begin(), subdirs.end());
  for (const fs::path& sub : subdirs) {
    DirId id;
    if (!dir_id(sub.string(), &id)) {
      found->push_back({sub.string(), 0, "cannot list directory: " + std::string(std::strerror(errno))});
      continue;
    }
    if (seen->insert(id).second) walk(sub, seen, found);
  }
}

}  // namespace

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
    std::set<DirId> seen;
    DirId id;
    if (dir_id(in, &id)) seen.insert(id);
    walk(in, &seen, &found);
    std::sort(found.begin(), found.end(),
              [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
    for (auto& f : found) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace sgfpat

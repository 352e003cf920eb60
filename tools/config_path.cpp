#include "config_path.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace sgfpat::cli {

namespace fs = std::filesystem;

std::string default_config_path(bool* from_env) {
  const char* env = std::getenv("SGFPAT_CONFIG");
  *from_env = env && *env;
  if (*from_env) return env;
  std::error_code ec;
  std::vector<fs::path> candidates;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    candidates.push_back(dir / ".." / "etc" / "sgfpat" / "sgfpat.toml");
    candidates.push_back(dir / "etc" / "sgfpat" / "sgfpat.toml");
  }
  candidates.push_back("/etc/sgfpat/sgfpat.toml");
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c, ec)) return fs::weakly_canonical(c, ec).string();
  return "";
}

}  // namespace sgfpat::cli

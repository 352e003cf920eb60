// Where the default configuration file is: nothing of the source tree is
// built into the binary, so an installed copy works from any folder.
#pragma once
#include <string>

namespace sgfpat::cli {

// $SGFPAT_CONFIG when it is set (the file must then exist: the caller says
// so); else the first file that exists of
//   <the binary's folder>/../etc/sgfpat/sgfpat.toml   an installed prefix
//   <the binary's folder>/etc/sgfpat/sgfpat.toml      the build tree (CMake puts a copy there)
//   /etc/sgfpat/sgfpat.toml                           a system-wide install
// else "" (no file: every option has its built-in default).
// *from_env tells whether the answer came from $SGFPAT_CONFIG.
std::string default_config_path(bool* from_env);

}  // namespace sgfpat::cli

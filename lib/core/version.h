// The program's version: CMake's project(VERSION), the only place it is
// written, passed to every target of the library.
#pragma once

#ifndef SGFPAT_VERSION
#error "SGFPAT_VERSION comes from CMakeLists.txt (project VERSION)"
#endif

namespace sgfpat {
inline constexpr const char* kVersion = SGFPAT_VERSION;
}  // namespace sgfpat

// The page's files (web/: HTML, JavaScript modules, CSS), embedded in the
// binary at build time (cmake/embed_web.cmake writes them into a source
// file), so that the server needs no file of its own and the page makes
// no request elsewhere.
#pragma once
#include <cstddef>
#include <string_view>

namespace sgfpat::serve {

struct Asset {
  std::string_view path;          // "/index.html", "/js/board.js", ...
  std::string_view content_type;  // "text/html; charset=utf-8", ...
  std::string_view body;
};

// The file served at `path` ("/" is "/index.html"), or nullptr.
const Asset* find_asset(std::string_view path);

namespace assets_detail {
extern const Asset kAssets[];
extern const size_t kAssetCount;
}  // namespace assets_detail

}  // namespace sgfpat::serve

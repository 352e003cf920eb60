#include "serve/assets.h"

namespace sgfpat::serve {

const Asset* find_asset(std::string_view path) {
  if (path == "/") path = "/index.html";
  for (size_t i = 0; i < assets_detail::kAssetCount; ++i)
    if (assets_detail::kAssets[i].path == path) return &assets_detail::kAssets[i];
  return nullptr;
}

}  // namespace sgfpat::serve

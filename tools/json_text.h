// The one way a command prints JSON: every string and key made valid UTF-8
// first (bytes that are not, from an old database's game records or a
// file name, escaped as \xNN by core/utf8.h), so that --json never fails
// on the text it is given (nlohmann::json's dump() throws on invalid UTF-8).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/utf8.h"

namespace sgfpat::cli {

namespace detail {
template <class Json>
Json utf8_copy(const Json& j) {
  if (j.is_string()) return Json(escape_invalid_utf8(j.template get_ref<const std::string&>()));
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& v : j) out.push_back(utf8_copy(v));
    return out;
  }
  if (j.is_object()) {
    Json out = Json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[escape_invalid_utf8(it.key())] = utf8_copy(it.value());
    return out;
  }
  return j;
}
}  // namespace detail

// j.dump(indent) of j with its text made valid UTF-8.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return detail::utf8_copy(j).dump(indent);
}

}  // namespace sgfpat::cli

#include "serve/protocol.h"

#include <cmath>

#include "board/replay.h"

namespace sgfpat::serve {

namespace {

// The deepest nesting of arrays and objects in `text`, strings skipped;
// stops counting past `limit` (nlohmann's parser recurses once a level: a
// deep message must be refused before it is parsed).
int nesting(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

Status field_error(const char* key, const std::string& what) {
  return Status::InvalidArgument(std::string("field '") + key + "': " + what);
}

}  // namespace

Status Request::Parse(std::string_view text, int max_depth, Request* out) {
  if (nesting(text, max_depth) > max_depth)
    return Status::InvalidArgument("message nested deeper than " + std::to_string(max_depth) + " levels");
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("message is not valid JSON");
  if (!j.is_object()) return Status::InvalidArgument("message is not a JSON object");
  auto t = j.find("t");
  if (t == j.end() || !t->is_string()) return Status::InvalidArgument("message has no string field 't' (its kind)");
  const std::string& kind = t->get_ref<const std::string&>();
  if (kind.empty() || kind.size() > 32) return Status::InvalidArgument("field 't': 1 to 32 characters");
  auto id = j.find("id");
  if (id != j.end() && !id->is_null()) {
    const bool ok_int = id->is_number_integer();
    const bool ok_str = id->is_string() && id->get_ref<const std::string&>().size() <= 64;
    if (!ok_int && !ok_str) return Status::InvalidArgument("field 'id': an integer or a string of at most 64 characters");
    out->id_ = *id;
  } else {
    out->id_ = nullptr;
  }
  out->kind_ = kind;
  out->j_ = std::move(j);
  return Status::OK();
}

Status Request::get_string(const char* key, size_t max_len, std::string* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || !it->is_string()) return field_error(key, "a string is required");
  const std::string& s = it->get_ref<const std::string&>();
  if (s.size() > max_len) return field_error(key, "at most " + std::to_string(max_len) + " bytes");
  *out = s;
  return Status::OK();
}

Status Request::get_hex(const char* key, size_t len, std::string* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || !it->is_string()) return field_error(key, "a string is required");
  const std::string& s = it->get_ref<const std::string&>();
  if (s.size() != len) return field_error(key, std::to_string(len) + " hexadecimal digits are required");
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return field_error(key, "hexadecimal digits only (0-9, a-f)");
  *out = s;
  return Status::OK();
}

Status Request::get_int(const char* key, int64_t lo, int64_t hi, int64_t* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || !it->is_number_integer())
    return field_error(key, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " is required");
  // Unsigned values beyond int64 compare as out of range, never wrap.
  if (it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(INT64_MAX))
    return field_error(key, "must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  const int64_t v = it->get<int64_t>();
  if (v < lo || v > hi) return field_error(key, "must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  *out = v;
  return Status::OK();
}

Status Request::get_number(const char* key, double lo, double hi, double* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || !it->is_number()) return field_error(key, "a number is required");
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < lo || v > hi)
    return field_error(key, "must be a number from " + std::to_string(lo) + " to " + std::to_string(hi));
  *out = v;
  return Status::OK();
}

Status Request::get_bool(const char* key, bool* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || !it->is_boolean()) return field_error(key, "true or false is required");
  *out = it->get<bool>();
  return Status::OK();
}

Status Request::get_optional_int(const char* key, int64_t lo, int64_t hi, int64_t* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || it->is_null()) return Status::OK();
  return get_int(key, lo, hi, out);
}

Status Request::get_optional_number(const char* key, double lo, double hi, double* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || it->is_null()) return Status::OK();
  return get_number(key, lo, hi, out);
}

Status Request::get_optional_bool(const char* key, bool* out) const {
  auto it = j_.find(key);
  if (it == j_.end() || it->is_null()) return Status::OK();
  return get_bool(key, out);
}

Status read_point(const Json& v, int size, bool pass_ok, Point* out) {
  if (!v.is_string()) return Status::InvalidArgument("a point must be a string like \"D4\"");
  const std::string& s = v.get_ref<const std::string&>();
  if (pass_ok && (s == "pass" || s == "PASS" || s == "Pass")) {
    *out = kPass;
    return Status::OK();
  }
  if (s.size() > 3 || !parse_point(s, size, out)) {
    std::string shown = s.substr(0, 8);
    for (char& c : shown)
      if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
    return Status::InvalidArgument("'" + shown + "' is not a point of the " + std::to_string(size) + "x" +
                                   std::to_string(size) + " board");
  }
  return Status::OK();
}

Status read_color(const Json& v, Color* out) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "B" || s == "black") return *out = Color::Black, Status::OK();
    if (s == "W" || s == "white") return *out = Color::White, Status::OK();
  }
  return Status::InvalidArgument("a colour must be \"B\" or \"W\"");
}

Status read_line(const Json& msg, int max_moves, Game* game, int* at) {
  auto size = msg.find("size");
  if (size == msg.end() || !size->is_number_integer() || size->get<int64_t>() < kMinBoardSize ||
      size->get<int64_t>() > kMaxBoardSize)
    return Status::InvalidArgument("field 'size': an integer from " + std::to_string(kMinBoardSize) + " to " +
                                   std::to_string(kMaxBoardSize) + " is required");
  const int n = int(size->get<int64_t>());
  game->info = GameInfo();
  game->info.size = n;
  game->actions.clear();
  auto list = [&](const char* key, size_t max, Action::Kind kind) -> Status {
    auto it = msg.find(key);
    if (it == msg.end() || it->is_null()) return Status::OK();
    if (!it->is_array()) return field_error(key, "an array of [colour, point] pairs is required");
    if (it->size() > max) return field_error(key, "at most " + std::to_string(max) + " entries");
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& e = (*it)[i];
      if (!e.is_array() || e.size() != 2) return field_error(key, "entry " + std::to_string(i + 1) + " is not a [colour, point] pair");
      Action a;
      a.kind = kind;
      Status st = kind == Action::Kind::Setup && e[0] == "E" ? Status::OK() : read_color(e[0], &a.color);
      if (st.ok()) st = read_point(e[1], n, kind == Action::Kind::Play, &a.point);
      if (!st.ok()) return field_error(key, "entry " + std::to_string(i + 1) + ": " + st.message());
      game->actions.push_back(a);
    }
    return Status::OK();
  };
  Status st = list("setup", size_t(n) * size_t(n), Action::Kind::Setup);
  if (st.ok()) st = list("moves", size_t(max_moves), Action::Kind::Play);
  if (!st.ok()) return st;
  auto ha = msg.find("handicap");
  if (ha != msg.end() && !ha->is_null()) {
    if (!ha->is_number_integer() || ha->get<int64_t>() < 0 || ha->get<int64_t>() > n * n)
      return field_error("handicap", "an integer from 0 to the number of points");
    game->info.handicap = int(ha->get<int64_t>());
  }
  auto komi = msg.find("komi");
  if (komi != msg.end() && !komi->is_null()) {
    if (!komi->is_number() || !std::isfinite(komi->get<double>()) || std::fabs(komi->get<double>()) > 1000)
      return field_error("komi", "a number from -1000 to 1000");
    game->info.komi = komi->get<double>();
  }
  auto ru = msg.find("ru");
  if (ru != msg.end() && !ru->is_null()) {
    if (!ru->is_string() || ru->get_ref<const std::string&>().size() > 64)
      return field_error("ru", "a string of at most 64 bytes");
    game->info.rules = ru->get<std::string>();
  }
  *at = -1;
  auto at_field = msg.find("at");
  if (at_field != msg.end() && !at_field->is_null()) {
    if (!at_field->is_number_integer() || at_field->get<int64_t>() < 0 || at_field->get<int64_t>() > max_moves)
      return field_error("at", "an integer from 0 to " + std::to_string(max_moves));
    *at = int(at_field->get<int64_t>());
  }
  return Status::OK();
}

std::string board_string(const Board& board) {
  std::string s;
  s.reserve(size_t(board.size() * board.size()));
  for (int y = 0; y < board.size(); ++y)
    for (int x = 0; x < board.size(); ++x) {
      const Color c = board.at(Point{int8_t(x), int8_t(y)});
      s += c == Color::Black ? 'X' : c == Color::White ? 'O' : '.';
    }
  return s;
}

Json point_json(Point p, int size) { return gtp_name(p, size); }

Json game_json(const Game& game, int max_moves, Status* replayed) {
  const int n = game.info.size;
  auto code = [](Color c) { return c == Color::Black ? "B" : c == Color::White ? "W" : "E"; };
  Json setup = Json::array(), moves = Json::array();
  for (const Action& a : game.actions) {
    if (a.kind == Action::Kind::Setup) setup.push_back({code(a.color), point_json(a.point, n)});
    else if (a.kind == Action::Kind::Play) {
      if (int(moves.size()) >= max_moves) break;
      moves.push_back({code(a.color), point_json(a.point, n)});
    }
  }
  Board board;
  ReplayResult rr;
  *replayed = replay(game, &board, &rr);
  const GameInfo& gi = game.info;
  Json j;
  j["size"] = n;
  j["info"] = {{"komi", gi.komi},          {"handicap", gi.handicap},     {"result", gi.result},
               {"black", gi.black_name},   {"white", gi.white_name},      {"black_rank", gi.black_rank},
               {"white_rank", gi.white_rank}, {"date", gi.date},          {"rules", gi.rules},
               {"name", gi.name}};
  j["setup"] = setup;
  j["moves"] = moves;
  j["playable"] = replayed->ok() ? rr.moves_played : rr.illegal_number - 1;
  return j;
}

Json request_id_of(std::string_view text, int max_depth) {
  if (text.size() > kSmallMessageBytes) return nullptr;
  Request r;
  if (!Request::Parse(text, max_depth, &r).ok()) return nullptr;
  return r.id();
}

std::string error_message(const Json& id, std::string_view code, std::string_view message) {
  Json j;
  j["t"] = "error";
  j["id"] = id;
  j["code"] = code;
  j["message"] = message;
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace sgfpat::serve

#include "sgf/parser.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>
#include <vector>

#include "sgf/charset.h"

namespace sgfpat {

namespace {

inline bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}
inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// Property identifiers packed big-endian into an int, uppercase letters only.
constexpr uint32_t pid(const char* s) {
  uint32_t v = 0;
  while (*s) v = (v << 8) | uint8_t(*s++);
  return v;
}
constexpr uint32_t kUnknown = 0;  // more than 4 uppercase letters

// Compressed point lists let a few bytes stand for hundreds of stones; this
// bounds a game's memory (16 MiB of actions) whatever the input.
constexpr size_t kMaxActions = size_t(1) << 22;

std::string_view trim(std::string_view v) {
  while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
  while (!v.empty() && is_space(v.back())) v.remove_suffix(1);
  return v;
}

// A property value still in its escaped form, as it appears between [ ].
struct RawValue {
  std::string_view raw;
  bool escaped = false;  // contains a backslash
};

// Value text: "\x" -> "x", "\" + line break -> nothing (soft line break).
void unescape(RawValue v, std::string* out) {
  out->clear();
  if (!v.escaped) {
    out->assign(v.raw);
    return;
  }
  out->reserve(v.raw.size());
  std::string_view r = v.raw;
  for (size_t i = 0; i < r.size(); ++i) {
    char c = r[i];
    if (c != '\\' || i + 1 >= r.size()) {
      out->push_back(c);
      continue;
    }
    c = r[++i];
    if (c == '\n' || c == '\r') {
      // "\\\r\n" and "\\\n\r" are one line break too.
      if (i + 1 < r.size() && (r[i + 1] == '\n' || r[i + 1] == '\r') && r[i + 1] != c) ++i;
      continue;
    }
    out->push_back(c);
  }
}

int letter_coord(char c) {
  if (is_lower(c)) return c - 'a';
  if (is_upper(c)) return c - 'A' + 26;
  return -1;
}

std::string quoted(std::string_view v) {
  constexpr size_t kMax = 40;
  std::string s = "'";
  s.append(v.substr(0, kMax));
  if (v.size() > kMax) s += "...";
  s += "'";
  return s;
}

class Parser {
 public:
  Parser(std::string_view text, Game* game) : t_(text), g_(game) {}
  Status run();

 private:
  // Syntax ------------------------------------------------------------
  void skip_ws() {
    while (pos_ < t_.size() && is_space(t_[pos_])) ++pos_;
  }
  bool syntax(const char* what, size_t at) {
    err_ = "syntax error at byte " + std::to_string(at) + ": " + what;
    return false;
  }
  bool read_value(RawValue* v);
  bool skip_rest(uint64_t depth);
  bool parse_node();
  bool parse_property();
  bool more_values(uint32_t id);  // reads the values that follow, if any

  // Meaning -----------------------------------------------------------
  std::string where() const { return in_root_ ? "root" : "move " + std::to_string(moves_ + 1); }
  std::string move_where() const { return "move " + std::to_string(moves_ + 1); }
  bool fail(const std::string& who, const std::string& what) {
    err_ = who + ": " + what;
    return false;
  }
  bool property(uint32_t id, const RawValue& v);
  bool set_move(Color c, std::string_view raw, bool escaped);
  bool finish_node();
  bool add_raw(std::vector<RawValue>* list, RawValue v) {
    if (!has_setup_) {
      ae_.clear();
      ab_.clear();
      aw_.clear();
      has_setup_ = true;
    }
    list->push_back(v);
    return true;
  }
  bool apply_size(RawValue v);
  bool decode_point(RawValue v, bool is_move, Point* p);
  bool add_setup(const std::vector<RawValue>& list, Color c, const char* prop);
  // The game's text properties from the record's charset to UTF-8.
  void decode_text();

  std::string_view t_;
  Game* g_;
  size_t pos_ = 0;
  std::string err_;
  std::string scratch_;
  bool in_root_ = true;
  int moves_ = 0;
  std::string charset_;  // the root's CA[], "" when absent

  // The node being read: its move and setup are emitted once it is complete,
  // because property order inside a node is free.
  bool has_move_ = false;
  Color move_color_ = Color::Empty;
  RawValue move_;
  Color player_ = Color::Empty;
  bool has_size_ = false;
  bool has_setup_ = false;
  RawValue size_;
  std::vector<RawValue> ae_, ab_, aw_;
};

bool Parser::read_value(RawValue* v) {
  size_t open = pos_;  // at '['
  size_t i = pos_ + 1;
  bool escaped = false;
  const size_t n = t_.size();
  const char* s = t_.data();
  for (; i < n; ++i) {
    char c = s[i];
    if (c == ']') break;
    if (c == '\\') {
      escaped = true;
      ++i;
    }
  }
  if (i >= n) {
    err_ = "syntax error at byte " + std::to_string(n) + ": expected ']' (value opened at byte " +
           std::to_string(open) + ")";
    return false;
  }
  v->raw = t_.substr(open + 1, i - open - 1);
  v->escaped = escaped;
  pos_ = i + 1;
  return true;
}

// Skips everything up to the ')' that closes nesting level `depth`
// (variations other than the first, at every level).
bool Parser::skip_rest(uint64_t depth) {
  RawValue v;
  while (depth > 0) {
    if (pos_ >= t_.size()) return syntax("unexpected end of input (missing ')')", pos_);
    char c = t_[pos_];
    if (c == '[') {
      if (!read_value(&v)) return false;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    ++pos_;
  }
  return true;
}

Status Parser::run() {
  g_->info = GameInfo{};
  g_->actions.clear();
  g_->actions.reserve(std::min<size_t>(t_.size() / 5 + 8, 1 << 16));

  skip_ws();
  if (pos_ >= t_.size() || t_[pos_] != '(') {
    syntax("expected '(' at the start of the game", pos_);
    return Status::InvalidInput(err_);
  }
  ++pos_;
  uint64_t depth = 1;
  bool expect_node = true;  // a tree starts with a node
  for (;;) {
    skip_ws();
    if (pos_ >= t_.size()) {
      syntax("unexpected end of input (missing ')')", pos_);
      return Status::InvalidInput(err_);
    }
    char c = t_[pos_];
    if (c == ';') {
      ++pos_;
      expect_node = false;
      if (!parse_node()) return Status::InvalidInput(err_);
      continue;
    }
    if (expect_node) {
      syntax("expected ';'", pos_);
      return Status::InvalidInput(err_);
    }
    if (c == '(') {  // the first variation continues the main line
      ++pos_;
      ++depth;
      expect_node = true;
      continue;
    }
    if (c == ')') {
      ++pos_;
      if (--depth > 0 && !skip_rest(depth)) return Status::InvalidInput(err_);
      break;
    }
    syntax("expected ';', '(' or ')'", pos_);
    return Status::InvalidInput(err_);
  }
  skip_ws();
  if (pos_ < t_.size()) {
    syntax("unexpected text after the game tree", pos_);
    return Status::InvalidInput(err_);
  }
  decode_text();
  return Status::OK();
}

void Parser::decode_text() {
  GameInfo& i = g_->info;
  for (std::string* s : {&i.result, &i.black_name, &i.white_name, &i.black_rank, &i.white_rank, &i.date, &i.rules,
                         &i.name})
    if (std::any_of(s->begin(), s->end(), [](char c) { return (unsigned char)c >= 0x80; }))
      *s = text_to_utf8(*s, charset_);  // ASCII is the same in every charset
}

bool Parser::parse_node() {
  has_move_ = has_size_ = has_setup_ = false;
  player_ = Color::Empty;
  const size_t n = t_.size();
  for (;;) {
    skip_ws();
    if (pos_ >= n) break;
    char c = t_[pos_];
    // Fast path for the bulk of real files: a plain "B[xy]" / "W[xy]".
    if ((c == 'B' || c == 'W') && pos_ + 4 < n && t_[pos_ + 1] == '[' && is_lower(t_[pos_ + 2]) &&
        is_lower(t_[pos_ + 3]) && t_[pos_ + 4] == ']') {
      uint32_t id = uint8_t(c);
      if (!set_move(c == 'B' ? Color::Black : Color::White, t_.substr(pos_ + 2, 2), false)) return false;
      pos_ += 5;
      if (pos_ < n && (t_[pos_] == '[' || is_space(t_[pos_])) && !more_values(id)) return false;
      continue;
    }
    if (!is_upper(c) && !is_lower(c)) break;
    if (!parse_property()) return false;
  }
  return finish_node();
}

bool Parser::parse_property() {
  size_t start = pos_;
  uint32_t id = 0;
  int upper = 0;
  while (pos_ < t_.size()) {
    char c = t_[pos_];
    if (is_upper(c)) {
      id = (id << 8) | uint8_t(c);
      ++upper;
    } else if (!is_lower(c)) {
      break;
    }
    ++pos_;
  }
  if (upper == 0) return syntax("property name without an uppercase letter", start);
  if (upper > 4) id = kUnknown;
  skip_ws();
  if (pos_ >= t_.size() || t_[pos_] != '[') return syntax("expected '['", pos_);
  return more_values(id);
}

bool Parser::more_values(uint32_t id) {
  RawValue v;
  for (;;) {
    skip_ws();
    if (pos_ >= t_.size() || t_[pos_] != '[') return true;
    if (!read_value(&v)) return false;
    if (!property(id, v)) return false;
  }
}

bool Parser::property(uint32_t id, const RawValue& v) {
  GameInfo& info = g_->info;
  switch (id) {
    case pid("B"):
    case pid("W"):
      return set_move(id == pid("B") ? Color::Black : Color::White, v.raw, v.escaped);
    case pid("AB"): return add_raw(&ab_, v);
    case pid("AW"): return add_raw(&aw_, v);
    case pid("AE"): return add_raw(&ae_, v);
    case pid("PL"): {
      unescape(v, &scratch_);
      std::string_view s = trim(scratch_);
      char c = s.empty() ? 0 : s[0];
      if (c == 'B' || c == 'b' || c == '1') player_ = Color::Black;
      if (c == 'W' || c == 'w' || c == '2') player_ = Color::White;
      return true;
    }
    case pid("SZ"):
      has_size_ = true;
      size_ = v;
      return true;
    case pid("GM"): {
      unescape(v, &scratch_);
      std::string_view s = trim(scratch_);
      if (!s.empty() && s != "1") return fail(where(), "not a Go game (GM[" + std::string(s) + "])");
      return true;
    }
    case pid("HA"): {
      unescape(v, &scratch_);
      std::string_view s = trim(scratch_);
      int h = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), h);
      info.handicap = (r.ec == std::errc() && h > 0 && h <= kMaxBoardSize * kMaxBoardSize) ? h : 0;
      return true;
    }
    case pid("KM"): {
      unescape(v, &scratch_);
      for (char& ch : scratch_)
        if (ch == ',') ch = '.';
      std::string_view s = trim(scratch_);
      if (!s.empty() && s[0] == '+') s.remove_prefix(1);
      double k = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), k);
      info.komi = (r.ec == std::errc() && k > -1000 && k < 1000) ? k : 0.0;
      return true;
    }
    case pid("RE"): unescape(v, &info.result); return true;
    case pid("PB"): unescape(v, &info.black_name); return true;
    case pid("PW"): unescape(v, &info.white_name); return true;
    case pid("BR"): unescape(v, &info.black_rank); return true;
    case pid("WR"): unescape(v, &info.white_rank); return true;
    case pid("DT"): unescape(v, &info.date); return true;
    case pid("RU"): unescape(v, &info.rules); return true;
    case pid("GN"): unescape(v, &info.name); return true;
    case pid("CA"):
      if (in_root_) {
        unescape(v, &scratch_);
        charset_.assign(trim(scratch_));
      }
      return true;
    default: return true;  // unknown or unused: skipped
  }
}

inline bool Parser::set_move(Color c, std::string_view raw, bool escaped) {
  if (has_move_) {
    return fail(move_where(), move_color_ != c ? "node has both B and W" : "more than one move in a node");
  }
  has_move_ = true;
  move_color_ = c;
  move_.raw = raw;
  move_.escaped = escaped;
  return true;
}

bool Parser::apply_size(RawValue v) {
  unescape(v, &scratch_);
  std::string_view s = trim(scratch_);
  auto number = [](std::string_view d, int* out) {
    if (d.empty() || d.size() > 6) return false;
    auto r = std::from_chars(d.data(), d.data() + d.size(), *out);
    return r.ec == std::errc() && r.ptr == d.data() + d.size();
  };
  int w = 0, h = 0;
  size_t colon = s.find(':');
  bool ok;
  if (colon == std::string_view::npos) {
    ok = number(s, &w);
    h = w;
  } else {
    ok = number(trim(s.substr(0, colon)), &w) && number(trim(s.substr(colon + 1)), &h);
  }
  if (!ok) return fail(where(), "bad board size " + quoted(s));
  if (w != h || w < kMinBoardSize || w > kMaxBoardSize) {
    return fail(where(), "unsupported board size " + std::string(s) + " (only square boards " +
                             std::to_string(kMinBoardSize) + ".." + std::to_string(kMaxBoardSize) + ")");
  }
  if (!in_root_ && w != g_->info.size)
    return fail(where(), "board size changes outside the root node (SZ[" + std::string(s) + "])");
  g_->info.size = w;
  return true;
}

bool Parser::decode_point(RawValue v, bool is_move, Point* p) {
  std::string_view s = v.raw;
  if (v.escaped) {
    unescape(v, &scratch_);
    s = scratch_;
  }
  if (s.size() != 2) s = trim(s);
  int size = g_->info.size;
  if (s.empty() && is_move) {
    *p = kPass;
    return true;
  }
  if (s.size() == 2) {
    if (is_move && size <= 19 && s == "tt") {
      *p = kPass;
      return true;
    }
    int x = letter_coord(s[0]), y = letter_coord(s[1]);
    if (x >= 0 && y >= 0 && x < size && y < size) {
      *p = Point{int8_t(x), int8_t(y)};
      return true;
    }
  }
  return false;
}

bool Parser::add_setup(const std::vector<RawValue>& list, Color c, const char* prop) {
  for (const RawValue& v : list) {
    std::string_view s = v.raw;
    size_t colon = v.escaped ? std::string_view::npos : s.find(':');
    if (colon == std::string_view::npos) {
      Point p;
      if (decode_point(v, false, &p)) {
        g_->actions.push_back(Action{Action::Kind::Setup, c, p});
        continue;
      }
      if (trim(s).empty()) continue;  // AB[]: an empty list, not a point
      return fail(where(), "bad coordinate " + quoted(s) + " in " + prop);
    }
    // Compressed point list "aa:cc": the rectangle between two corners.
    Point a, b;
    if (!decode_point(RawValue{s.substr(0, colon), false}, false, &a) ||
        !decode_point(RawValue{s.substr(colon + 1), false}, false, &b)) {
      return fail(where(), "bad coordinate " + quoted(s) + " in " + prop);
    }
    size_t area = size_t(std::abs(a.x - b.x) + 1) * size_t(std::abs(a.y - b.y) + 1);
    if (g_->actions.size() + area > kMaxActions) return fail(where(), "too many actions in one game");
    for (int y = std::min(a.y, b.y); y <= std::max(a.y, b.y); ++y)
      for (int x = std::min(a.x, b.x); x <= std::max(a.x, b.x); ++x)
        g_->actions.push_back(Action{Action::Kind::Setup, c, Point{int8_t(x), int8_t(y)}});
  }
  return true;
}

bool Parser::finish_node() {
  if (has_size_ && !apply_size(size_)) return false;
  size_t setup_values = has_setup_ ? ae_.size() + ab_.size() + aw_.size() : 0;
  if (g_->actions.size() + setup_values + 2 > kMaxActions)
    return fail(where(), "too many actions in one game");
  if (has_setup_ && (!add_setup(ae_, Color::Empty, "AE") || !add_setup(ab_, Color::Black, "AB") ||
                     !add_setup(aw_, Color::White, "AW"))) {
    return false;
  }
  if (player_ != Color::Empty) g_->actions.push_back(Action{Action::Kind::SetPlayer, player_, kPass});
  if (has_move_) {
    Point p;
    std::string_view m = move_.raw;
    unsigned x = unsigned(m.size() == 2 ? m[0] - 'a' : -1), y = unsigned(m.size() == 2 ? m[1] - 'a' : -1);
    unsigned size = unsigned(g_->info.size);
    if (x < size && y < size) {
      p = Point{int8_t(x), int8_t(y)};
    } else if (!decode_point(move_, true, &p)) {
      return fail(move_where(), "bad coordinate " + quoted(move_.raw));
    }
    g_->actions.push_back(Action{Action::Kind::Play, move_color_, p});
    ++moves_;
  }
  in_root_ = false;
  return true;
}

}  // namespace

Status parse_game(std::string_view text, Game* game) {
  try {
    Parser parser(text, game);
    return parser.run();
  } catch (...) {
    return status_from_exception("parsing a game");
  }
}

}  // namespace sgfpat

#include "sgf/writer.h"

#include <cstdio>

namespace sgfpat {

namespace {

void text_property(std::string* out, const char* id, const std::string& value, bool always = false) {
  if (value.empty() && !always) return;
  *out += id;
  *out += '[';
  for (char c : value) {
    if (c == '\\' || c == ']') *out += '\\';
    *out += c;
  }
  *out += ']';
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Where an action goes in a node: setups in parser order, then PL, then the move.
int rank(const Action& a) {
  if (a.kind == Action::Kind::Setup) return a.color == Color::Empty ? 0 : a.color == Color::Black ? 1 : 2;
  return a.kind == Action::Kind::SetPlayer ? 3 : 4;
}

const char* setup_id(int r) { return r == 0 ? "AE" : r == 1 ? "AB" : "AW"; }

}  // namespace

std::string write_sgf(const Game& game) {
  const GameInfo& info = game.info;
  std::string out = "(;GM[1]FF[4]CA[UTF-8]";
  out += "SZ[";
  out += std::to_string(info.size);
  out += "]KM[";
  out += number_text(info.komi);
  out += ']';
  if (info.handicap > 0) {
    out += "HA[";
    out += std::to_string(info.handicap);
    out += ']';
  }
  text_property(&out, "RU", info.rules);
  text_property(&out, "PB", info.black_name);
  text_property(&out, "PW", info.white_name);
  text_property(&out, "BR", info.black_rank);
  text_property(&out, "WR", info.white_rank);
  text_property(&out, "DT", info.date);
  text_property(&out, "GN", info.name);
  text_property(&out, "RE", info.result);

  // The root is the first node and holds the setup before the first move;
  // a node closes when the next action cannot follow in it (a lower rank,
  // or a second move), and every move opens a node of its own.
  int last_rank = -1;   // rank of the node's last action, -1: nothing yet
  bool in_root = true;
  int nodes = 0;
  for (const Action& a : game.actions) {
    const int r = rank(a);
    const bool fits = last_rank < 0 || r > last_rank || (r == last_rank && r < 3);
    if (!fits || (in_root && r == 4)) {
      out += ++nodes % 10 == 0 ? "\n;" : ";";
      last_rank = -1;
      in_root = false;
    }
    if (r < 3) {
      if (last_rank != r) out += setup_id(r);
      out += '[';
      out += sgf_name(a.point);
      out += ']';
    } else if (r == 3) {
      out += "PL[";
      out += color_char(a.color);
      out += ']';
    } else {
      out += color_char(a.color);
      out += '[';
      if (!a.point.is_pass()) out += sgf_name(a.point);
      out += ']';
    }
    last_rank = r;
  }
  out += ")\n";
  return out;
}

}  // namespace sgfpat

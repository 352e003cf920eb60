// A game record as read from SGF: where it came from, its metadata, and its
// main line flattened into a sequence of actions (setup stones and moves).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/game_origin.h"
#include "core/types.h"

namespace sgfpat {

// Root (and other) properties we keep.  Strings are the property values
// after unescaping, in UTF-8: decoded from the record's charset (CA[]) by
// the parser, bytes that do not decode escaped as \xNN (sgf/charset.h).
struct GameInfo {
  int size = 19;
  int handicap = 0;
  double komi = 0.0;
  std::string result;       // RE
  std::string black_name;   // PB
  std::string white_name;   // PW
  std::string black_rank;   // BR
  std::string white_rank;   // WR
  std::string date;         // DT
  std::string rules;        // RU
  std::string name;         // GN

  // Winner named by RE ("B+..." -> Black, "W+..." -> White), else Empty.
  Color winner() const;
  // True when the rules (RU) allow suicide (New Zealand, Tromp-Taylor).
  bool suicide_allowed() const;
};

// One step of the main line.  Setup actions come before the move of their
// node, in the order AE, AB, AW.
struct Action {
  enum class Kind : uint8_t {
    Play,       // color plays at point (point may be kPass)
    Setup,      // point becomes `color` (Empty for AE), no capture, no turn change
    SetPlayer,  // PL: `color` is to move next
  };
  Kind kind = Kind::Play;
  Color color = Color::Empty;
  Point point = kPass;

  friend bool operator==(const Action& a, const Action& b) {
    return a.kind == b.kind && a.color == b.color && a.point == b.point;
  }
};

struct Game {
  GameOrigin origin;
  GameInfo info;
  std::vector<Action> actions;

  // Number of Play actions (moves, passes included).
  int move_count() const;
};

}  // namespace sgfpat

// The checked reading of one message a page sends over the WebSocket: a
// JSON object with a string "t" (the kind), an optional "id" the answer
// echoes, and fields read through typed getters that refuse what is
// missing, of the wrong type or out of range with a message naming the
// field.  Nothing here throws; every refusal is a Status (InvalidArgument).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "board/board.h"
#include "core/status.h"
#include "sgf/game.h"

namespace sgfpat::serve {

using Json = nlohmann::json;

class Request {
 public:
  // Parses `text`: valid JSON no deeper than `max_depth`, an object, a "t"
  // of at most 32 characters and an "id" (if any) that is an integer or a
  // string of at most 64 characters.
  static Status Parse(std::string_view text, int max_depth, Request* out);

  const std::string& kind() const { return kind_; }
  // The "id" to echo (null when none was given).
  const Json& id() const { return id_; }
  const Json& json() const { return j_; }
  bool has(const char* key) const { return j_.contains(key); }

  Status get_string(const char* key, size_t max_len, std::string* out) const;
  // A string made of [0-9a-f] only, of exactly `len` characters (ids, tokens).
  Status get_hex(const char* key, size_t len, std::string* out) const;
  Status get_int(const char* key, int64_t lo, int64_t hi, int64_t* out) const;
  Status get_number(const char* key, double lo, double hi, double* out) const;
  Status get_bool(const char* key, bool* out) const;
  // The same, leaving *out as it is when the field is absent or null.
  Status get_optional_int(const char* key, int64_t lo, int64_t hi, int64_t* out) const;
  Status get_optional_number(const char* key, double lo, double hi, double* out) const;
  Status get_optional_bool(const char* key, bool* out) const;

 private:
  Json j_;
  std::string kind_;
  Json id_;
};

// A point of a size x size board in GTP ("D4") or SGF ("dd") form, or
// "pass" (kPass) when `pass_ok`.
Status read_point(const Json& v, int size, bool pass_ok, Point* out);
// "B"/"W" (or "black"/"white").
Status read_color(const Json& v, Color* out);

// A position as pages send it: {"size": N, "setup": [["B","D4"], ...],
// "moves": [["B","D4"], ["W","pass"], ...]} (setup and moves optional; a
// setup colour "E" empties the point),
// into the actions of *game (info.size set), and the record's "handicap"
// (HA), "komi" (KM) and "ru" (RU: whether suicide is allowed), optional.  At most
// size*size setup stones and `max_moves` moves.  *at gets "at" (the
// position after that many moves, as `--move` gives it; -1 when absent: all).
Status read_line(const Json& msg, int max_moves, Game* game, int* at);

// The board as one string of size*size characters, top row first: '.'
// empty, 'X' black, 'O' white.
std::string board_string(const Board& board);
// GTP names of points ("D4"), or "pass".
Json point_json(Point p, int size);

// A game record as the page draws it: "size", "info" (komi, handicap,
// result, players, ranks, date, rules, name), "setup" and "moves" (pairs
// of colour "B"/"W" and point; at most `max_moves` moves) and "playable",
// the moves before the first illegal one.  The game is replayed once;
// *replayed says why the replay stopped (OK when every move is legal).
Json game_json(const Game& game, int max_moves, Status* replayed);

// The "id" of a message refused before it is read (over the message
// rate), so that the page knows which request was dropped: read only from
// a message of at most kSmallMessageBytes (reading a big one is the work
// the refusal saves); null otherwise or when there is none.
inline constexpr size_t kSmallMessageBytes = 4096;
Json request_id_of(std::string_view text, int max_depth);

// An error answer: {"t": "error", "id": id, "code": code, "message": message}.
std::string error_message(const Json& id, std::string_view code, std::string_view message);

}  // namespace sgfpat::serve

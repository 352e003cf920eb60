// Compact storage form of a game and its content fingerprint.
//
// The fingerprint covers what the game *is* (board size, setup, moves and
// who made them), not where it was found or its metadata, so the same game
// found in two files is one game.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "sgf/game.h"

namespace sgfpat {

using Fingerprint = std::array<uint8_t, 16>;

Fingerprint game_fingerprint(const Game& game);

// A sort key of a record's beginning, kOpeningKeyBytes long: records of
// games that begin alike (board size, rules, first actions) sort together,
// in the order of their actions.  Each action is one byte of a hash, so
// two different beginnings may sort as one now and then; equal ones always
// do.  False when the record cannot be read.
inline constexpr size_t kOpeningKeyActions = 40;
inline constexpr size_t kOpeningKeyBytes = 2 + kOpeningKeyActions;
bool opening_key(std::string_view record, uint8_t* key);

// Serializes metadata, origin and actions; decode_game() restores them.
// A record starts with its version byte (core/format_version.h's
// kGameRecordFormat).
std::string encode_game(const Game& game);
// Corruption for a record cut short or malformed, and for one of a version
// this program does not read: "unknown game record version: stored game
// record format version N, this sgfpat reads version M" (the database's
// format version covers its records, so in a database that opened such a
// record is damage).
Status decode_game(std::string_view bytes, Game* game);

}  // namespace sgfpat

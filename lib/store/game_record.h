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

// Serializes metadata, origin and actions; decode_game() restores them.
std::string encode_game(const Game& game);
Status decode_game(std::string_view bytes, Game* game);

}  // namespace sgfpat

// What a position search reports about its hits, as `sgfpat similar
// --json` prints it and the server's explorer sends it: each hit with its
// game's players, date and result (read from the database), and the
// continuation table.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "core/status.h"
#include "search/continuations.h"
#include "search/position_hit.h"
#include "sgf/game.h"
#include "store/pattern_db.h"

namespace sgfpat {

// A hit with its game's record, when the game is still stored.
struct ShownHit {
  PositionHit hit;
  bool found = false;
  Game game;
};

// The first `limit` hits with their games (found false for a game no
// longer stored, or whose record does not decode).
Status shown_hits(PatternDb* db, const std::vector<PositionHit>& hits, size_t limit, std::vector<ShownHit>* out);

// {game (16 hex digits of its fingerprint), distance, move_number (the
// move played next), next, to_move, symmetry, colours_exchanged, and when
// the game is stored: black, black_rank, white, white_rank, date, result,
// file, member, index_in_file}.
nlohmann::ordered_json hit_json(const ShownHit& s, int size);

// [{move, count, wins, win_rate, win_rate_ci95}] for the player to move.
nlohmann::ordered_json continuations_json(const std::vector<Continuation>& table, int size);

}  // namespace sgfpat

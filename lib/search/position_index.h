// The position index: for every position of every stored game, an entry
// keyed by its canonical hash (position_hash.h), so that the positions
// equal to a given one up to symmetry and colour exchange are one prefix
// seek away, with the move played next and the game's result.
//
// Entry: key = canonical hash (8, BE) | fingerprint's first 8 bytes |
// position number (2, BE); value = transform reaching the canonical form,
// colour to move, winner, next move x, y (0xff 0xff a pass, 0xfe 0xfe none).
// Hashes are 64-bit: a false hit needs a collision (~n / 2^64 per query).
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "board/board.h"
#include "board/replay.h"
#include "core/status.h"
#include "search/position_hit.h"
#include "sgf/game.h"
#include "store/game_record.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Appends the index entries of every position of `game` to *entries.  A
// game that does not replay legally returns replay()'s error, with *result
// (if given) saying where, and leaves *entries as it was.
Status position_entries(const Game& game, const Fingerprint& fp, PositionEntries* entries,
                        ReplayResult* result = nullptr);

// Builds the index of a database whose games are not all indexed (stored
// by an sgfpat without it); `progress` gets games done and the total.
Status build_position_index(PatternDb* db, const std::function<void(uint64_t, uint64_t)>& progress = {});

// Every stored position equal to `board` up to the 8 symmetries and colour
// exchange, in index order.  Fails if the database has no complete index.
Status find_exact(PatternDb* db, const Board& board, std::vector<PositionHit>* hits);

}  // namespace sgfpat

// Choosing a move in atari-go for a player (the GTP engine, `suggest`):
// perfect play where a retrograde table covers the board, the proving
// search elsewhere, within a time budget.
//
// The choice, in order: a capture (wins at once); the table's best move
// (a win soonest, or, lost, the longest resistance); the proving search's
// winning move; else, when the search proved nothing (or proved the
// position lost), the first move of the node tactics' ordering that no
// quick capture search refutes, so a lost position still resists.
#pragma once
#include <string>

#include "solve/atari_board.h"
#include "solve/proof_search.h"
#include "solve/table_store.h"

namespace sgfpat::solve {

struct AtariPlayOptions {
  // Budget (seconds), threads and transposition table of the proving search;
  // the table is allocated at every move, so it is kept small.
  SolveOptions search{.seconds = 5, .table_mb = 32};
  const TableReader* table = nullptr;  // retrograde tables (optional; sizes it lacks go to the search)
};

enum class ChoiceSource : uint8_t { None, Capture, Table, Search, Heuristic };
const char* choice_source_name(ChoiceSource s);  // "none", "capture", "table", "search", "heuristic"

struct AtariChoice {
  int move = -1;                        // point index on the geometry; -1: no legal move (the mover lost)
  Verdict verdict = Verdict::Unknown;   // for the mover, after `move`: Win and Loss are proved
  ChoiceSource source = ChoiceSource::None;
  int distance = -1;                    // plies to the end when the table decided, else -1
  SolveStats stats;                     // of the proving search, when it ran
};

// The move of the side to move in `pos`.  Never fails: a table that cannot
// be read is passed over (its error in *table_error if given).
AtariChoice choose_atari_move(const Geometry& g, const Position& pos, const AtariPlayOptions& options,
                              std::string* table_error = nullptr);

}  // namespace sgfpat::solve

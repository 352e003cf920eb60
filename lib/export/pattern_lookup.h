// The counts of one pattern at every level a database reports, spelled
// around a point of a position or given as strings: what `sgfpat query`
// prints and the server's pattern panel shows, from one implementation.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "board/board.h"
#include "core/status.h"
#include "store/pattern_db.h"

namespace sgfpat {

struct LevelRow {
  int level = 0;
  std::string pattern;  // spec form (canonical with symmetry on)
  uint64_t key = 0;
  PatternCounts counts;
};

// The patterns around `p` as `mover` sees them, levels 1..levels.
std::vector<std::string> spell_levels(const Board& board, Point p, Color mover, int levels);

// Looks spelled[i] up as level i + 1 (one Get each) and keeps the levels
// present: played at least the database's min_played.  Level 1 first.
Status lookup_levels(PatternDb* db, const std::vector<std::string>& spelled, std::vector<LevelRow>* rows);

// A row as `sgfpat query --json` prints it: level, points, key, played,
// seen, wins, play_rate and win_rate with their 95% Wilson intervals, pattern.
nlohmann::ordered_json level_row_json(const LevelRow& r);

}  // namespace sgfpat

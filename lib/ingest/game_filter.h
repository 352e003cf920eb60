// Which games an ingest keeps: filters people use on public archives.
#pragma once
#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sgf/game.h"

namespace sgfpat {

struct GameFilter {
  std::vector<int> sizes;        // allowed board sizes; empty: any
  bool skip_handicap = false;    // drop games with HA >= 2 or setup stones
  std::optional<int> min_rank;   // both BR and WR at least this (rank_value)
};

// Rank on one scale: 30k = -29 ... 1k = 0, 1d = 1 ... 9d = 9, 1p = 10 ...
// Accepts "5d", "5 dan", "3k", "2p", "9d*".  nullopt if unreadable.
std::optional<int> rank_value(std::string_view rank);

// Empty if the game passes, else why not ("board size 13", "handicap",
// "rank below 5d").
std::string filter_reason(const Game& game, const GameFilter& filter, const std::string& min_rank_text = "");

}  // namespace sgfpat

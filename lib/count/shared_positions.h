// Positions that consecutive games have in common, counted once.
//
// Games that begin alike (the same opening moves) have the same first
// positions, and the early positions are the dearest ones to count: on an
// empty or nearly empty board every candidate walks up to the top level.
// When the games of a batch come in the order of their moves (games with a
// common beginning next to each other), a game can start from the state
// its predecessor had at the last position they share, and that
// predecessor counts each shared position once for every game that has it.
//
// Seen counts are weighted by the number of games that have the position,
// played and wins by the number of games that also make the same move
// there; see CandidateCounter::start_game().
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sgf/game.h"

namespace sgfpat {

// How game `g` of a batch is counted.  Positions are numbered as moves
// (position n: the board before move n, passes included).
struct SharedPlan {
  // 0: from an empty state.  Else position restore_at is the last one `g`
  // shares with the game before it: its state is restored from there (the
  // position's seen counts were made already) and only its move is counted.
  int restore_at = 0;
  // No later game of the batch restores that same state (it can be moved
  // rather than copied).
  bool restore_last = false;
  // By position (index n, up to the number of moves): how many games the
  // position's seen counts stand for; how many games make the same move
  // from it (played); how many of those the mover won.  1, 1, and the
  // game's own result where nothing is shared.
  std::vector<uint32_t> seen, played, wins;
  // Positions whose state a later game of the batch restores (ascending).
  std::vector<int> keep;
};

// The last position games `a` and `b` share, at most `cap`: the board
// size, rules and every action before the move of that position are the
// same, and neither game passes there (a pass is no position to count).
// 0 when even the first position differs.
int shared_positions(const Game& a, const Game& b, int cap);

// Plans the games of a batch in their order (each game shares with the one
// before it only, or with nothing: the first).
void plan_shared_positions(std::span<const Game> games, int cap, std::vector<SharedPlan>* plans);

}  // namespace sgfpat

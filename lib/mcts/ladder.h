// Ladder reading for the tree's priors: whether a chain with two
// liberties is caught when the attacker keeps it in atari (on either
// liberty, every move), the defender extending or capturing an attacking
// chain in atari.  A general two-liberty capture reader, as michi's: it
// also sees some nets.  A ladder breaker (a defender's stone on the path)
// makes the extension reach three liberties, and the ladder fails.
#pragma once
#include "board/board.h"

namespace sgfpat::mcts {

// True when `attacker`, to move, captures the chain at the stone `stone`
// (at most two liberties) by ataris.  Reads at most `budget` positions
// (then answers false: not known to be caught).
bool ladder_captures(const Board& b, int stone, Color attacker, int budget = 200);

// True when the chain at `stone`, in atari with its owner to move, cannot
// escape: neither by extending (to three liberties, or two that no ladder
// takes) nor by capturing an attacking chain in atari.
bool atari_holds(const Board& b, int stone, int budget = 200);

}  // namespace sgfpat::mcts

#include "mcts/ladder.h"

namespace sgfpat::mcts {

namespace {

bool caught(const Board& b, int stone, Color attacker, int* budget);

// The chain at `stone` is in atari and its owner moves: true when it gets
// away (the attacker then to move cannot catch it).
bool escapes(const Board& b, int stone, int* budget) {
  if (--*budget < 0) return true;  // out of reading: assume it lives
  const Color d = b.at_index(stone);
  const Color attacker = opponent(d);
  int two[2];
  if (b.chain_liberties(stone, two, 2) != 1) return true;
  const int lib = two[0];
  // Capture an attacking chain in atari next to ours.
  const int s = b.stride();
  int t = stone;
  do {
    const int nb[4] = {t - s, t + 1, t + s, t - 1};
    for (int n : nb) {
      if (b.at_index(n) != attacker || !b.in_atari_index(n)) continue;
      int l;
      b.chain_liberties(n, &l, 1);
      Board c = b;
      if (c.play(c.point(l), d) == MoveError::None && !caught(c, stone, attacker, budget)) return true;
    }
    t = b.next_stone(t);
  } while (t != stone);
  // Extend.
  Board e = b;
  if (e.play(e.point(lib), d) != MoveError::None) return false;
  int libs[3];
  const int n = e.chain_liberties(stone, libs, 3);
  if (n >= 3) return true;
  if (n <= 1) return false;
  return !caught(e, stone, attacker, budget);
}

// `attacker` to move against the chain at `stone`.
bool caught(const Board& b, int stone, Color attacker, int* budget) {
  int libs[3];
  const int n = b.chain_liberties(stone, libs, 3);
  if (n == 1) return true;
  if (n != 2) return false;
  for (int k = 0; k < 2; ++k) {
    if (--*budget < 0) return false;
    Board a = b;
    if (a.play(a.point(libs[k]), attacker) != MoveError::None) continue;
    if (a.at_index(stone) == Color::Empty) return true;
    if (!escapes(a, stone, budget)) return true;
  }
  return false;
}

}  // namespace

bool ladder_captures(const Board& b, int stone, Color attacker, int budget) {
  if (b.at_index(stone) != opponent(attacker)) return false;
  return caught(b, stone, attacker, &budget);
}

bool atari_holds(const Board& b, int stone, int budget) {
  const Color d = b.at_index(stone);
  if (d != Color::Black && d != Color::White) return false;
  return !escapes(b, stone, &budget);
}

}  // namespace sgfpat::mcts

// The tactics every atari-go search node starts with: immediate captures,
// chains in atari that force the reply, the moves worth trying (ordered),
// and a bounded capture search ("can the mover capture within n plies by
// ataris alone").  All of it is exact: a win or loss it reports is proved
// by the rules in atari_board.h.
#pragma once
#include <cstdint>
#include <vector>

#include "solve/atari_board.h"
#include "solve/chain_set.h"

namespace sgfpat::solve {

enum class Verdict : uint8_t { Unknown, Win, Loss };

struct Candidate {
  int point;
  int score;  // higher first
};

// The moves of one node, best first: a fixed array (a search node allocates
// nothing).
class MoveList {
 public:
  static constexpr int kCapacity = 81;
  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  void clear() { n_ = 0; }
  void push_back(Candidate c) { m_[n_++] = c; }
  Candidate& operator[](int i) { return m_[i]; }
  const Candidate& operator[](int i) const { return m_[i]; }
  const Candidate& front() const { return m_[0]; }
  Candidate* begin() { return m_; }
  Candidate* end() { return m_ + n_; }
  const Candidate* begin() const { return m_; }
  const Candidate* end() const { return m_ + n_; }

 private:
  Candidate m_[kCapacity];
  int n_ = 0;
};

struct NodeTactics {
  // Win: the mover captures now.  Loss: every legal move loses at once
  // (two of the mover's chains in atari, or only self-ataris), or there is
  // no legal move.  Unknown: `moves` lists the moves that do not lose at
  // once, best first (a self-atari is never listed: it loses to a capture).
  Verdict verdict = Verdict::Unknown;
  int capture_point = -1;  // when Win
  MoveList moves;
};

// The mover's stones are `mine`, the opponent's `theirs`.  These searches
// take the stones as Bits, or as uint64_t when the board fits one word
// (Geometry::fits64()).
template <class W>
void analyse_node(const Geometry& g, W mine, W theirs, NodeTactics* out);
// The same on the position's chains (`empty`: its empty points), when the
// caller has them: the searches of one node share one decomposition.
template <class W>
void analyse_node(const Geometry& g, const ChainSet<W>& mine, const ChainSet<W>& theirs, W empty, NodeTactics* out);

// Bounded capture search: true if the mover captures within `plies` plies
// (its own moves included) by playing only ataris after which the extended
// chain has at most two liberties (ladders, nets, double ataris), whatever
// the defence (the defender's only non-losing reply to an atari is to
// extend, and every such reply is tried).  Counts every stone it places in *moves_played.
// On true, *first_move is the mover's first move (the capture point if the
// capture is immediate).
// `hint`, if >= 0, is tried first (a move that worked in a similar position).
// `zone`, if given, gets on true the empty points the found capture depends
// on: up to `extra_stones` stones of the defender on other empty points
// (none capturing) leave the same capture working.  (The zone holds the
// liberties of every attacker chain the line passes with at most
// extra_stones + 1 of them, so that so many stones can neither atari nor
// capture one.)
// `skip`: points not tried as the first move (unless the capture is
// immediate), to look for another line than one found before.
template <class W>
bool capture_search(const Geometry& g, W mine, W theirs, int plies, uint64_t* moves_played,
                    int* first_move, int hint = -1, W* zone = nullptr, int extra_stones = 1, W skip = 0);
// The same on the position's chains, as analyse_node().
template <class W>
bool capture_search(const Geometry& g, const ChainSet<W>& mine, const ChainSet<W>& theirs, W empty, int plies,
                    uint64_t* moves_played, int* first_move, int hint = -1, W* zone = nullptr, int extra_stones = 1,
                    W skip = 0);

// Two-move threat ("lambda 2"): the defender (`theirs`) to move, passes; the
// mover then has a move after which every reply of the defender loses to
// capture_search().  On true, *first_move is that move and *zone the empty
// points the proof depends on: a defender's stone on any other empty point
// (that neither captures nor is a self-atari) leaves the threat working, so
// such a move of the defender loses.  Only tried when the mover has no
// capture_search() win at once (the caller checked).
template <class W>
bool threat2_search(const Geometry& g, W mine, W theirs, int plies, uint64_t* moves_played,
                    int* first_move, W* zone);
// The same on the position's chains, as analyse_node().
template <class W>
bool threat2_search(const Geometry& g, const ChainSet<W>& mine, const ChainSet<W>& theirs, W empty, int plies,
                    uint64_t* moves_played, int* first_move, W* zone);

}  // namespace sgfpat::solve

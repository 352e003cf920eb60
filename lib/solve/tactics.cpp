#include "solve/tactics.h"

#include <algorithm>

namespace sgfpat::solve {

namespace {

// Weight of taking one liberty from an enemy chain that has n: an atari
// (n == 2) is worth most, long chains with many liberties little.
constexpr int kTakeWeight[6] = {0, 0, 256, 48, 12, 4};

// The liberties of the chains of `stones` that have at most `max_libs`: 1
// gives the chains in atari; 2 also those a stone of the other colour could
// put in atari.
template <class W>
W liberties_of_short_chains(const Geometry& g, W stones, W empty, int max_libs) {
  W out = 0;
  for (W s = stones; s;) {
    W ch = g.chain(s, lowest(s));
    s &= ~ch;
    W libs = g.neighbours(ch) & empty;
    if (popcount(libs) <= max_libs) out |= libs;
  }
  return out;
}

}  // namespace

template <class W>
void analyse_node(const Geometry& g, W mine, W theirs, NodeTactics* out) {
  out->verdict = Verdict::Unknown;
  out->moves.clear();
  W empty = g.board_as<W>() & ~(mine | theirs);
  // Enemy chains: one in atari is captured now.
  int score[128] = {};
  for (W s = theirs; s;) {
    W ch = g.chain(s, lowest(s));
    s &= ~ch;
    W libs = g.neighbours(ch) & empty;
    int n = popcount(libs);
    if (n == 1) {
      out->verdict = Verdict::Win;
      out->capture_point = lowest(libs);
      return;
    }
    int w = n < 6 ? kTakeWeight[n] : 2;
    for (W l = libs; l; l &= l - 1) score[lowest(l)] += w;
  }
  // Own chains, each filled once (not once per candidate move): the
  // liberties of every stone's chain, and the chains in atari, whose
  // liberty is the only move that does not lose.
  W chain_libs[128];
  W atari_libs = 0;
  for (W s = mine; s;) {
    W ch = g.chain(s, lowest(s));
    s &= ~ch;
    W libs = g.neighbours(ch) & empty;
    if (popcount(libs) == 1) atari_libs |= libs;
    for (W c = ch; c; c &= c - 1) chain_libs[lowest(c)] = libs;
  }
  if (popcount(atari_libs) >= 2) {
    out->verdict = Verdict::Loss;
    return;
  }
  W cands = atari_libs ? atari_libs : empty;
  W near_mine = g.neighbours(mine);
  W near2_mine = g.neighbours(near_mine) | near_mine;
  for (W c = cands; c; c &= c - 1) {
    int p = lowest(c);
    // A stone on p joins the chains next to it: the liberties of its chain
    // are theirs and p's empty neighbours, less p.
    const W around = g.neighbours(bit_of<W>(p));
    W joined = around & empty;
    for (W a = around & mine; a; a &= a - 1) joined |= chain_libs[lowest(a)];
    int libs = popcount(joined & ~bit_of<W>(p));
    if (libs < 2) continue;  // suicide or self-atari
    int sc = score[p] * 4 + std::min(libs, 4) * 3;
    if (near_mine & bit_of<W>(p)) sc += 8;
    else if (near2_mine & bit_of<W>(p)) sc += 4;
    out->moves.push_back(Candidate{p, sc});
  }
  if (out->moves.empty()) {
    out->verdict = Verdict::Loss;
    return;
  }
  // Insertion sort, stable: at most 81 moves, no buffer to allocate.
  Candidate* m = out->moves.begin();
  for (int i = 1; i < out->moves.size(); ++i) {
    Candidate c = m[i];
    int j = i;
    for (; j > 0 && m[j - 1].score < c.score; --j) m[j] = m[j - 1];
    m[j] = c;
  }
}

template <class W>
bool capture_search(const Geometry& g, W mine, W theirs, int plies, uint64_t* moves_played,
                    int* first_move, int hint, W* zone, int extra_stones) {
  const int guard = extra_stones + 1;
  W empty = g.board_as<W>() & ~(mine | theirs);
  W targets = 0;  // liberties of enemy chains with two liberties
  for (W s = theirs; s;) {
    W ch = g.chain(s, lowest(s));
    s &= ~ch;
    W libs = g.neighbours(ch) & empty;
    int n = popcount(libs);
    if (n == 1) {
      *first_move = lowest(libs);
      if (zone) *zone |= libs | liberties_of_short_chains(g, mine, empty, guard);
      return true;
    }
    if (n == 2) targets |= libs;
  }
  // Our atari move, their forced extension, our capture: three plies at least.
  if (plies < 3 || !targets) return false;
  W atari_libs = liberties_of_short_chains(g, mine, empty, 1);
  if (atari_libs) {
    // They capture next unless our atari also saves the chain in atari.
    if (popcount(atari_libs) >= 2) return false;
    targets &= atari_libs;
  }
  int order[128], n = 0;
  if (hint >= 0 && (targets & bit_of<W>(hint))) order[n++] = hint;
  for (W t = targets; t; t &= t - 1)
    if (lowest(t) != hint) order[n++] = lowest(t);
  for (int k = 0; k < n; ++k) {
    int p = order[k];
    W mine2 = mine | bit_of<W>(p);
    W empty2 = empty & ~bit_of<W>(p);
    if (popcount(g.neighbours(g.chain(mine2, p)) & empty2) < 2) continue;  // self-atari
    // No chain of ours is in atari now (any was joined to p), so their
    // only non-losing reply is to extend the chain we put in atari.
    W escape = 0;
    for (W s = theirs & g.neighbours(bit_of<W>(p)); s;) {
      W ch = g.chain(theirs, lowest(s));
      s &= ~ch;
      W libs = g.neighbours(ch) & empty2;
      if (popcount(libs) == 1) escape |= libs;
    }
    // The points a defender's stone would have to take to change this
    // line: the chains it reads and the attacker's short liberties.
    auto mark = [&](W extra) {
      if (!zone) return;
      W z = extra | bit_of<W>(p) | liberties_of_short_chains(g, mine, empty, guard) |
               liberties_of_short_chains(g, mine2, empty2, guard);
      for (W s = theirs & g.neighbours(bit_of<W>(p)); s; s &= s - 1) z |= g.neighbours(g.chain(theirs, lowest(s))) & empty;
      *zone |= z;
    };
    if (popcount(escape) >= 2) {
      ++*moves_played;
      *first_move = p;
      mark(0);
      return true;
    }
    if (!escape) continue;  // cannot happen: p took a liberty from a two-liberty chain
    int e = lowest(escape);
    W theirs2 = theirs | bit_of<W>(e);
    W empty3 = empty2 & ~bit_of<W>(e);
    int escape_libs = popcount(g.neighbours(g.chain(theirs2, e)) & empty3);
    W escape_zone = bit_of<W>(e) | (g.neighbours(g.chain(theirs2, e)) & empty3);
    if (escape_libs < 2) {
      ++*moves_played;
      *first_move = p;  // the extension stays in atari (or is suicide)
      mark(escape_zone);
      return true;
    }
    // Only ataris that keep the chain short of liberties are followed (a
    // ladder or a net): a narrower search, still exact when it succeeds.
    if (escape_libs > 2) continue;
    *moves_played += 2;
    int dummy;
    W sub = 0;
    if (capture_search(g, mine2, theirs2, plies - 2, moves_played, &dummy, -1, zone ? &sub : nullptr,
                       extra_stones)) {
      *first_move = p;
      mark(escape_zone | sub);
      return true;
    }
  }
  return false;
}

template <class W>
bool threat2_search(const Geometry& g, W mine, W theirs, int plies, uint64_t* moves_played,
                    int* first_move, W* zone) {
  const W empty = g.board_as<W>() & ~(mine | theirs);
  if (liberties_of_short_chains(g, mine, empty, 1)) return false;  // the defender captures first
  // A threat starts by making a defender chain short of liberties (the
  // capture search attacks chains of two), or by mending the mover's own
  // short chains that spoil an attack.
  W cands = liberties_of_short_chains(g, theirs, empty, 3) | liberties_of_short_chains(g, mine, empty, 2);
  for (W c = cands; c; c &= c - 1) {
    const int m = lowest(c);
    const W mine2 = mine | bit_of<W>(m), empty2 = empty & ~bit_of<W>(m);
    // m may be neither suicide nor a self-atari (no other chain of the
    // mover is in atari: the defender would have captured it).
    if (popcount(g.neighbours(g.chain(mine2, m)) & empty2) < 2) continue;
    ++*moves_played;
    int first;
    // After the defender's reply q, does the capture still work?  (A
    // suicide is no reply.)  `reply_zone`, if given, gets its zone.
    auto still_captures = [&](int q, W* reply_zone) {
      const W theirs3 = theirs | bit_of<W>(q), empty3 = empty2 & ~bit_of<W>(q);
      if (!(g.neighbours(g.chain(theirs3, q)) & empty3)) return true;
      ++*moves_played;
      int again;
      return capture_search(g, mine2, theirs3, plies, moves_played, &again, first, reply_zone, 1);
    };
    // Most candidates fail, at the capture or at the defender's reply on
    // the attack's first point: both are tried without zones (which cost
    // more and change no answer) before the threat is searched again with
    // them.  The threat holds only if every reply fails, so this order
    // changes the work, not the answer.
    if (!capture_search(g, mine2, theirs, plies, moves_played, &first)) continue;
    if (!still_captures(first, nullptr)) continue;
    // The threat's zone holds against two extra stones: the defender's reply
    // and the stone the caller asks about.  (It holds the liberties of the
    // mover's chains with up to three once m is played, so the two extra
    // stones can atari none; and it holds `first`.)
    W threat_zone = 0;
    capture_search(g, mine2, theirs, plies, moves_played, &first, -1, &threat_zone, 2);
    W z = bit_of<W>(m) | threat_zone;
    bool holds = true;
    for (W r = threat_zone & empty2; r && holds; r &= r - 1) {
      W reply_zone = 0;
      holds = still_captures(lowest(r), &reply_zone);
      z |= reply_zone;
    }
    if (!holds) continue;
    *first_move = m;
    if (zone) *zone |= z & empty;
    return true;
  }
  return false;
}

// The two word types of atari_board.h.
template void analyse_node<Bits>(const Geometry&, Bits, Bits, NodeTactics*);
template void analyse_node<uint64_t>(const Geometry&, uint64_t, uint64_t, NodeTactics*);
template bool capture_search<Bits>(const Geometry&, Bits, Bits, int, uint64_t*, int*, int, Bits*, int);
template bool capture_search<uint64_t>(const Geometry&, uint64_t, uint64_t, int, uint64_t*, int*, int, uint64_t*,
                                       int);
template bool threat2_search<Bits>(const Geometry&, Bits, Bits, int, uint64_t*, int*, Bits*);
template bool threat2_search<uint64_t>(const Geometry&, uint64_t, uint64_t, int, uint64_t*, int*, uint64_t*);

}  // namespace sgfpat::solve

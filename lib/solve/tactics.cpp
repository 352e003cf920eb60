#include "solve/tactics.h"

#include "solve/chain_set.h"

#include <algorithm>

namespace sgfpat::solve {

namespace {

// Weight of taking one liberty from an enemy chain that has n: an atari
// (n == 2) is worth most, long chains with many liberties little.
constexpr int kTakeWeight[6] = {0, 0, 256, 48, 12, 4};

}  // namespace

template <class W>
void analyse_node(const Geometry& g, const ChainSet<W>& mine, const ChainSet<W>& theirs, W empty, NodeTactics* out) {
  out->verdict = Verdict::Unknown;
  out->moves.clear();
  // An enemy chain in atari is captured now.
  if (const int at = theirs.lowest_in_atari(); at >= 0) {
    out->verdict = Verdict::Win;
    out->capture_point = lowest(theirs.libs(at));
    return;
  }
  // Own chains in atari: their liberty is the only move that does not lose.
  const W atari_libs = mine.short_libs(1);
  if (popcount(atari_libs) >= 2) {
    out->verdict = Verdict::Loss;
    return;
  }
  // The per-point arrays below are set only on the points they are read
  // at (liberties), not cleared over the whole board.
  constexpr int kPoints = int(sizeof(W) * 8);
  // score[p]: what taking liberty p from the enemy chains is worth.
  int score[kPoints];
  W enemy_libs = 0;
  for (int i = 0; i < theirs.size(); ++i) enemy_libs |= theirs.libs(i);
  for (W l = enemy_libs; l; l &= l - 1) score[lowest(l)] = 0;
  for (int i = 0; i < theirs.size(); ++i) {
    const int n = popcount(theirs.libs(i));
    const int w = n < 6 ? kTakeWeight[n] : 2;
    for (W l = theirs.libs(i); l; l &= l - 1) score[lowest(l)] += w;
  }
  // joined[p]: the liberties of the own chains a stone on p joins.  An
  // empty point is next to a chain exactly when it is one of its
  // liberties, so a point off every own liberty joins none.
  W joined[kPoints];
  W own = 0, own_libs = 0;
  for (int i = 0; i < mine.size(); ++i) own |= mine.stones(i), own_libs |= mine.libs(i);
  for (W l = own_libs; l; l &= l - 1) joined[lowest(l)] = 0;
  for (int i = 0; i < mine.size(); ++i)
    for (W l = mine.libs(i); l; l &= l - 1) joined[lowest(l)] |= mine.libs(i);
  const W near_mine = g.neighbours(own);
  const W cands = atari_libs ? atari_libs : empty;
  const W near2_mine = g.neighbours(near_mine) | near_mine;
  // The moves best first: by score, then the lower point first.  Most
  // scores are small (moves that take little from the enemy): those are
  // bucketed by score, each bucket a set of points, read from the highest
  // score down.  The few larger ones are sorted as keys (score << 7 | 127 -
  // point, all different) by counting, for each, the keys above it: no
  // data-dependent branch, where an insertion sort of a node's 20-30 moves
  // mispredicted most of its comparisons.
  constexpr int kBuckets = 64;
  W bucket[kBuckets];
  uint64_t used = 0;  // the buckets in use
  int32_t high[MoveList::kCapacity + 3];
  int n = 0, nh = 0;
  // A quiet move, next to no chain of either side, has as many liberties
  // as empty neighbours and scores by that and its distance to our
  // stones: its bucket comes from every point's empty neighbours, counted
  // at once.
  const W quiet = cands & ~own_libs & ~enemy_libs;
  {
    W two_plus, three_plus, four;
    g.neighbour_counts(empty, &two_plus, &three_plus, &four);
    two_plus &= quiet, three_plus &= quiet, four &= quiet;
    const W by_libs[3] = {two_plus & ~three_plus, three_plus & ~four, four};  // 2, 3, 4 liberties
    for (int k = 0; k < 3; ++k) {
      const W far = by_libs[k] & ~near2_mine, near = by_libs[k] & near2_mine;
      const int sc = (k + 2) * 3;
      if (far) bucket[sc] = far, used |= uint64_t(1) << sc, n += popcount(far);
      if (near) bucket[sc + 4] = near, used |= uint64_t(1) << (sc + 4), n += popcount(near);
    }
  }
  for (W c = cands & ~quiet; c; c &= c - 1) {
    const int p = lowest(c);
    const W pb = bit_of<W>(p);
    // A stone on p joins the chains next to it.
    W after = g.neighbours(pb) & empty;
    if (own_libs & pb) after |= joined[p];
    const int libs = popcount(after & ~pb);
    if (libs < 2) continue;  // suicide or self-atari
    int sc = (enemy_libs & pb ? score[p] * 4 : 0) + std::min(libs, 4) * 3;
    if (near_mine & pb) sc += 8;
    else if (near2_mine & pb) sc += 4;
    ++n;
    if (sc < kBuckets) {
      const uint64_t b = uint64_t(1) << sc;
      bucket[sc] = (used & b ? bucket[sc] : W(0)) | pb;
      used |= b;
    } else {
      high[nh++] = sc << 7 | (127 - p);
    }
  }
  if (n == 0) {
    out->verdict = Verdict::Loss;
    return;
  }
  // Padded to a multiple of four with -1 (below every key): the count runs
  // in whole vectors.
  const int padded = (nh + 3) & ~3;
  for (int i = nh; i < padded; ++i) high[i] = -1;
  int32_t sorted[MoveList::kCapacity];
  for (int i = 0; i < nh; ++i) {
    int rank = 0;
    for (int j = 0; j < padded; ++j) rank += high[j] > high[i];
    sorted[rank] = high[i];
  }
  for (int i = 0; i < nh; ++i) out->moves.push_back(Candidate{127 - int(sorted[i] & 127), int(sorted[i] >> 7)});
  while (used) {
    const int sc = 63 - __builtin_clzll(used);
    used &= ~(uint64_t(1) << sc);
    for (W b = bucket[sc]; b; b &= b - 1) out->moves.push_back(Candidate{lowest(b), sc});
  }
}

template <class W>
void analyse_node(const Geometry& g, W mine, W theirs, NodeTactics* out) {
  const PositionChains<W> c(g, mine, theirs);
  analyse_node(g, c.mine, c.theirs, c.empty, out);
}

template <class W>
bool capture_search(const Geometry& g, const ChainSet<W>& att, const ChainSet<W>& def, W empty, int plies,
                    uint64_t* moves_played, int* first_move, int hint, W* zone, int extra_stones, W skip) {
  const int guard = extra_stones + 1;
  // A chain in atari is captured now.
  if (const int at = def.lowest_in_atari(); at >= 0) {
    *first_move = lowest(def.libs(at));
    if (zone) *zone |= def.libs(at) | att.short_libs(guard);
    return true;
  }
  W targets = 0;  // liberties of enemy chains with two liberties
  for (int i = 0; i < def.size(); ++i)
    if (popcount(def.libs(i)) == 2) targets |= def.libs(i);
  targets &= ~skip;
  // Our atari move, their forced extension, our capture: three plies at least.
  if (plies < 3 || !targets) return false;
  W atari_libs = att.short_libs(1);
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
    const int p = order[k];
    const W pb = bit_of<W>(p), around = g.neighbours(pb), empty2 = empty & ~pb;
    const W own_libs = att.libs_after_stone(p, around, empty2);
    if (popcount(own_libs) < 2) continue;  // self-atari
    // No chain of ours is in atari now (any was joined to p), so their
    // only non-losing reply is to extend the chain we put in atari.
    W escape = 0;
    for (int i = 0; i < def.size(); ++i)
      if (def.stones(i) & around) {
        const W l = def.libs(i) & ~pb;
        if (popcount(l) == 1) escape |= l;
      }
    // The points a defender's stone would have to take to change this
    // line: the chains it reads and the attacker's short liberties.
    auto mark = [&](W extra) {
      if (!zone) return;
      W z = extra | pb | att.short_libs(guard);
      if (popcount(own_libs) <= guard) z |= own_libs;
      for (int i = 0; i < att.size(); ++i)
        if (!(att.stones(i) & around) && popcount(att.libs(i)) <= guard) z |= att.libs(i);
      for (int i = 0; i < def.size(); ++i)
        if (def.stones(i) & around) z |= def.libs(i);
      *zone |= z;
    };
    if (popcount(escape) >= 2) {
      ++*moves_played;
      *first_move = p;
      mark(0);
      return true;
    }
    if (!escape) continue;  // cannot happen: p took a liberty from a two-liberty chain
    const int e = lowest(escape);
    const W eb = bit_of<W>(e), around_e = g.neighbours(eb), empty3 = empty2 & ~eb;
    // The extended chain's liberties (p no longer one of them).
    const W escape_libs_set = def.libs_after_stone(e, around_e, empty3) & ~pb;
    const int escape_libs = popcount(escape_libs_set);
    const W escape_zone = eb | escape_libs_set;
    if (escape_libs < 2) {
      ++*moves_played;
      *first_move = p;  // the extension stays in atari (or is suicide)
      mark(escape_zone);
      return true;
    }
    // Only ataris that keep the chain short of liberties are followed (a
    // ladder or a net): a narrower search, still exact when it succeeds.
    // With fewer than three plies after the extension the line fails: the
    // search below would only capture a chain already in atari, and there
    // is none (the chains p put in atari all joined the extension).
    if (escape_libs > 2 || plies - 2 < 3) continue;
    *moves_played += 2;
    ChainSet<W> att2 = att, def2 = def;
    att2.add_stone(p, around, empty2);
    att2.take_liberty(e);
    def2.take_liberty(p);
    def2.add_stone(e, around_e, empty3);
    int dummy;
    W sub = 0;
    if (capture_search(g, att2, def2, empty3, plies - 2, moves_played, &dummy, -1, zone ? &sub : nullptr,
                       extra_stones)) {
      *first_move = p;
      mark(escape_zone | sub);
      return true;
    }
  }
  return false;
}

template <class W>
bool capture_search(const Geometry& g, W mine, W theirs, int plies, uint64_t* moves_played,
                    int* first_move, int hint, W* zone, int extra_stones, W skip) {
  const PositionChains<W> c(g, mine, theirs);
  return capture_search(g, c.mine, c.theirs, c.empty, plies, moves_played, first_move, hint, zone, extra_stones, skip);
}

template <class W>
bool threat2_search(const Geometry& g, W mine, W theirs, int plies, uint64_t* moves_played,
                    int* first_move, W* zone) {
  const PositionChains<W> c(g, mine, theirs);
  return threat2_search(g, c.mine, c.theirs, c.empty, plies, moves_played, first_move, zone);
}

template <class W>
bool threat2_search(const Geometry& g, const ChainSet<W>& att, const ChainSet<W>& def, W empty, int plies,
                    uint64_t* moves_played, int* first_move, W* zone) {
  if (att.short_libs(1)) return false;  // the defender captures first
  // A threat starts by making a defender chain short of liberties (the
  // capture search attacks chains of two), or by mending the mover's own
  // short chains that spoil an attack.
  W cands = def.short_libs(3) | att.short_libs(2);
  for (W c = cands; c; c &= c - 1) {
    const int m = lowest(c);
    const W mb = bit_of<W>(m), around_m = g.neighbours(mb), empty2 = empty & ~mb;
    // m may be neither suicide nor a self-atari (no other chain of the
    // mover is in atari: the defender would have captured it).
    if (popcount(att.libs_after_stone(m, around_m, empty2)) < 2) continue;
    ++*moves_played;
    ChainSet<W> att_m = att, def_m = def;
    att_m.add_stone(m, around_m, empty2);
    def_m.take_liberty(m);
    int first;
    // After the defender's reply q, does the capture still work?  (A
    // suicide is no reply.)  `reply_zone`, if given, gets its zone.
    auto still_captures = [&](int q, W* reply_zone) {
      const W qb = bit_of<W>(q), around_q = g.neighbours(qb), empty3 = empty2 & ~qb;
      if (!def_m.libs_after_stone(q, around_q, empty3)) return true;
      ++*moves_played;
      ChainSet<W> att_q = att_m, def_q = def_m;
      att_q.take_liberty(q);
      def_q.add_stone(q, around_q, empty3);
      int again;
      return capture_search(g, att_q, def_q, empty3, plies, moves_played, &again, first, reply_zone, 1);
    };
    // Most candidates fail, at the capture or at the defender's reply on
    // the attack's first point, so that reply is tried before the others.
    // The threat holds only if every reply fails, so this order changes
    // the work, not the answer.  (A zone changes no search's moves, only
    // what it reports on success: each search runs once, with its zone.)
    // The threat's zone holds against two extra stones: the defender's
    // reply and the stone the caller asks about.  (It holds the liberties
    // of the mover's chains with up to three once m is played, so the two
    // extra stones can atari none; and it holds `first`.)
    W threat_zone = 0, first_zone = 0;
    if (!capture_search(g, att_m, def_m, empty2, plies, moves_played, &first, -1, &threat_zone, 2)) continue;
    if (!still_captures(first, &first_zone)) continue;
    W z = mb | threat_zone;
    bool holds = true;
    for (W r = threat_zone & empty2; r && holds; r &= r - 1) {
      W reply_zone = first_zone;  // the reply on `first` was searched above
      if (lowest(r) != first) {
        reply_zone = 0;
        holds = still_captures(lowest(r), &reply_zone);
      }
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
#define SGFPAT_TACTICS_FOR(W)                                                                                       \
  template void analyse_node<W>(const Geometry&, W, W, NodeTactics*);                                              \
  template void analyse_node<W>(const Geometry&, const ChainSet<W>&, const ChainSet<W>&, W, NodeTactics*);        \
  template bool capture_search<W>(const Geometry&, W, W, int, uint64_t*, int*, int, W*, int, W);                   \
  template bool capture_search<W>(const Geometry&, const ChainSet<W>&, const ChainSet<W>&, W, int, uint64_t*, int*, \
                                  int, W*, int, W);                                                                \
  template bool threat2_search<W>(const Geometry&, W, W, int, uint64_t*, int*, W*);                                \
  template bool threat2_search<W>(const Geometry&, const ChainSet<W>&, const ChainSet<W>&, W, int, uint64_t*, int*, \
                                  W*);
SGFPAT_TACTICS_FOR(Bits)
SGFPAT_TACTICS_FOR(uint64_t)
#undef SGFPAT_TACTICS_FOR

}  // namespace sgfpat::solve

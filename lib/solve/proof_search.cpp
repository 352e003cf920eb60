// The proving search's definitions (solve/proof_search.h says what it
// does).  Above the project's ~800 lines on purpose: most of the file is
// Worker<W>, one search thread, a class template of ~600 lines whose
// members call one another throughout the search and which only this file
// instantiates (for both board widths); the proof walk and the Solver's
// entry points that run the workers come with it.  Cutting Worker across
// files would put the whole template in a header for its one user.
#include "solve/proof_search.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <type_traits>

#include "core/cpu_time.h"
#include "core/deadline.h"
#include "core/tasks.h"
#include "solve/flat_key_set.h"

namespace sgfpat::solve {

namespace {

constexpr uint32_t kInf = kInfiniteNumber;
using Clock = std::chrono::steady_clock;


inline uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

// Salts a position's key into the key of its two-move threat's answer,
// and of its capture's narrowed zone (Worker::narrow_zone()).
constexpr uint64_t kThreat2Salt = 0x6a09e667f3bcc909ull;
constexpr uint64_t kNarrowSalt = 0xbb67ae8584caa73bull;

}  // namespace

// One search thread.  All threads share the table; `salt` != 0 makes this
// one break ties between children differently from thread 0.
template <class W>
struct Worker {
  const Geometry& g;
  const SolveOptions& opt;
  const BoardSymmetries& sym;
  TranspositionTable& tt;
  SearchControl& shared;
  uint64_t salt;
  SolveStats stats;
  uint64_t local_nodes = 0;
  typename TacticsCachePool<W>::Lease tactics_cache;  // borrowed from the Solver's pool
  const uint64_t epsilon_1024 = uint64_t(std::clamp(opt.epsilon, 0.0, 64.0) * 1024 + 0.5);
  bool helper = false;      // help_line() runs this worker
  bool stand_down = false;  // as a helper, the table passed helper_max_fill: it works no more

  // capture_search() for the attacker (chains `att`) against `def` among
  // `empty`, remembered under `key` (the position with the attacker to
  // move); with `zone`, its zone too (the zone of a capture, nothing when
  // there is none).  `move` >= 0: the search is of the position after the
  // defender plays that move, derived only when the answer is not
  // remembered (and then counted as a move played).
  bool can_capture(uint64_t key, const ChainSet<W>& att, const ChainSet<W>& def, W empty, int* first_move,
                   int hint = -1, W* zone = nullptr, int move = -1) {
    bool hit;
    if (tactics_cache->find(key, &hit, first_move, zone)) return hit;
    W z = 0;
    const ChainSet<W>* a = &att;
    const ChainSet<W>* d = &def;
    ChainSet<W> att2, def2;
    if (move >= 0) {
      ++stats.moves_played;
      const W mb = bit_of<W>(move);
      empty &= ~mb;
      att2 = att;
      def2 = def;
      att2.take_liberty(move);
      def2.add_stone(move, g.neighbours(mb), empty);
      a = &att2;
      d = &def2;
    }
    hit = capture_search(g, *a, *d, empty, opt.capture_plies, &stats.moves_played, first_move, hint, zone ? &z : nullptr);
    if (!hit) *first_move = -1;
    tactics_cache->put(key, hit, *first_move, zone ? &z : nullptr);
    if (zone) *zone |= z;
    return hit;
  }

  // threat2_search() for the attacker `mine`, remembered like can_capture().
  bool has_threat2(uint64_t key, const ChainSet<W>& att, const ChainSet<W>& def, W empty, int* first_move, W* zone) {
    bool hit;
    if (tactics_cache->find(key ^ kThreat2Salt, &hit, first_move, zone)) return hit;
    W z = 0;
    hit = threat2_search(g, att, def, empty, opt.capture_plies, &stats.moves_played, first_move, &z);
    if (!hit) *first_move = -1;
    tactics_cache->put(key ^ kThreat2Salt, hit, *first_move, &z);
    *zone |= z;
    return hit;
  }

  // Narrows `zone`, the zone of the capture the opponent (c.theirs) has
  // with first move `threat` in the node (`raw`, moves `t`), to the points
  // in the zones of its other capture lines too: a move of ours off any
  // line's zone leaves that line on, and loses.  The lines are found
  // first move by first move, in the capture search's order (`threat` was
  // the first that worked: every point below it failed).  Remembered by
  // the node's key.
  void narrow_zone(const PositionChains<W>& c, uint64_t raw, const NodeTactics& t, int threat, W* zone) {
    if (!opt.narrow_zones || c.mine.lowest_in_atari() >= 0) return;  // an immediate capture: one line
    W moves = 0;
    for (const Candidate& m : t.moves) moves |= bit_of<W>(m.point);
    // Each other first move costs a search: narrowing pays when the zone
    // holds a few of the node's moves to spare tests (C4+D5 at 80 MB,
    // threat2 off, 5 plies: 73.93M moves played narrowing any zone, 73.78M
    // from four moves, 74.74M from nine; 75.17M not narrowing).
    if (popcount(*zone & moves) < 4) return;
    const uint64_t key = raw ^ kWhiteToMoveKey ^ kNarrowSalt;
    bool hit;
    int first;
    W narrowed = 0;
    if (tactics_cache->find(key, &hit, &first, &narrowed)) {
      *zone = narrowed;
      return;
    }
    narrowed = *zone;
    for (int last = threat; narrowed & moves;) {
      const W up_to_last = (bit_of<W>(last) << 1) - 1;  // the first moves tried so far
      W z = 0;
      if (!capture_search(g, c.theirs, c.mine, c.empty, opt.capture_plies, &stats.moves_played, &last, -1, &z, 1,
                          up_to_last))
        break;
      narrowed &= z;
    }
    tactics_cache->put(key, true, threat, &narrowed);
    *zone = narrowed;
  }

  // The answer of the capture search of the child whose table key is
  // `child_key` for its mover, when its entry has it: the entries with
  // kCaptureSearched were stored after that search failed, those without
  // it were settled by the child's tactics(), a win for its mover by a
  // capture.  screen() then need not play the move and search again.
  bool capture_known(uint64_t child_key, bool* captures) {
    TTEntry e;
    if (!lookup(child_key, &e)) return false;
    if (e.flags & TTEntry::kCaptureSearched) {
      *captures = false;
      return true;
    }
    if (e.pn != 0) return false;
    *captures = true;
    return true;
  }

  // Which moves of a node (`t`, its tactics; `raw`, its plain key) lose at
  // once to the opponent's answer: if the opponent, moving now, would
  // capture by ataris alone, the moves that leave that capture on; else, if
  // it has a two-move threat, the moves off the threat's zone (tactics.h).
  // Sets lost[i] for those and, if `reply` is given, reply[i] to the
  // opponent's answer; returns true when they are lost to a capture (the
  // opponent's tactics settle each of those children).  Run at
  // every visit rather than kept as settled children in the table: they
  // are two thirds of what a search would store, and a table the search
  // overfills then loses open nodes to them.
  // `revisit`: the node was visited before (SolveOptions::threat2).
  // `child_key` (the children's table keys, in move order), when given:
  // the buckets of the children not lost off the threat's zone are
  // fetched as soon as the zone is known (mid() reads them next; fetching
  // every child's, as mid() did before screening, stalled on the misses
  // of children never read: 4% of a one-thread search's time); and,
  // without `reply`, a child the table answers for is not played (below).
  // `known`, when given: the node's entry's flags, which say what an
  // earlier visit found no need to search for (TTEntry::kNoCapture and
  // kNoThreat2, not searched again), replaced by what this one found.
  bool screen(const PositionChains<W>& c, Color mover, uint64_t raw, const NodeTactics& t, bool revisit, bool* lost,
              int* reply = nullptr, const uint64_t* child_key = nullptr, uint8_t* known = nullptr) {
    const uint64_t* fetch = child_key;  // the children's buckets, fetched once their moves are known not lost
    if (reply || !opt.screen_from_table) child_key = nullptr;  // the table keeps no answer move
    const uint8_t before = known && opt.screen_from_table ? *known : 0;
    if (known) *known = 0;
    const int n = t.moves.size();
    auto fetch_all = [&] {  // no move lost to a capture
      if (fetch)
        for (int i = 0; i < n; ++i) tt.prefetch(fetch[i]);
    };
    std::fill(lost, lost + n, false);
    if (!opt.threat_check || opt.capture_plies < 3) {
      fetch_all();
      return false;
    }
    int threat;
    W zone = 0;
    if (!(before & TTEntry::kNoCapture) &&
        can_capture(raw ^ kWhiteToMoveKey, c.theirs, c.mine, c.empty, &threat, -1, &zone)) {
      if (!reply) narrow_zone(c, raw, t, threat, &zone);
      // The cache's slots of the searches below are fetched all at once.
      for (int i = 0; i < n; ++i)
        if (zone & bit_of<W>(t.moves[i].point)) {
          tactics_cache->prefetch(raw ^ stone_key(mover, t.moves[i].point) ^ kWhiteToMoveKey);
          if (fetch) tt.prefetch(fetch[i]);
        }
      for (int i = 0; i < n; ++i) {
        const int p = t.moves[i].point;
        int answer = threat;
        // A move off the threat's zone leaves the same capture on (none of
        // the moves listed captures): lost without playing it.
        lost[i] = !(zone & bit_of<W>(p));
        if (!lost[i] && !(child_key && capture_known(child_key[i], &lost[i])))
          lost[i] = can_capture(raw ^ stone_key(mover, p) ^ kWhiteToMoveKey, c.theirs, c.mine, c.empty, &answer,
                                threat, nullptr, p);
        if (reply) reply[i] = answer;
      }
      return true;
    }
    if (known) *known = TTEntry::kNoCapture;
    fetch_all();
    if (opt.threat2 == SolveOptions::Threat2::Every ||
        (opt.threat2 == SolveOptions::Threat2::Revisits && revisit)) {
      // No capture yet, but maybe a move after which none of our replies
      // stops one: a move of ours off that threat's zone leaves it on.
      zone = 0;
      if (before & TTEntry::kNoThreat2) {
        *known |= TTEntry::kNoThreat2;
      } else if (has_threat2(raw ^ kWhiteToMoveKey, c.theirs, c.mine, c.empty, &threat, &zone)) {
        for (int i = 0; i < n; ++i) {
          lost[i] = !(zone & bit_of<W>(t.moves[i].point));
          if (reply) reply[i] = threat;
        }
      } else if (known) {
        *known |= TTEntry::kNoThreat2;
      }
    }
    return false;
  }

  // A helper that stood down (helper_max_fill) stops its search as a
  // finished one stops: its open nodes keep their older entries.
  bool stopped() const { return stand_down || shared.stop.load(std::memory_order_relaxed); }
  // The table is past helper_max_fill (sampled by `seed`): time for a
  // helper to stand down.
  bool table_too_full(uint64_t seed) const {
    return opt.helper_max_fill < 1 && tt.fill_estimate(seed) > opt.helper_max_fill;
  }

  bool out_of_budget() {
    if (stopped()) return true;
    ++local_nodes;
    if (line_root && local_nodes >= next_line_walk) {
      next_line_walk = local_nodes + opt.line_walk_nodes;
      while (walk_line(*line_root, false) == LineWalk::Settled && !stopped()) {
      }
      if (stopped()) return true;
    }
    if ((local_nodes & 1023) == 0) {
      if (helper && table_too_full(local_nodes)) {
        stand_down = true;
        return true;
      }
      uint64_t n = shared.nodes.fetch_add(1024) + 1024;
      if ((shared.max_nodes && n >= shared.max_nodes) ||
          (shared.has_deadline && Clock::now() >= shared.deadline)) {
        shared.stop = true;
        return true;
      }
    }
    return false;
  }

  bool lookup(uint64_t key, TTEntry* e) {
    ++stats.tt_lookups;
    if (tt.lookup(key, e)) {
      ++stats.tt_hits;
      return true;
    }
    return false;
  }

  // A move of the node whose canonical key came from symmetry `frame`, in
  // the table's coordinates, and back.
  int16_t to_frame(int frame, int p) const { return int16_t(p < 0 ? -1 : sym.image(frame, p)); }
  int from_frame(int frame, int p) const { return p < 0 ? -1 : sym.preimage(frame, p); }

  // What an unvisited child starts at: `value`, its proof number and
  // (before its rank among its siblings is added) its disproof number, as
  // if each of its about `empty` replies were a leaf, so that it compares
  // fairly with visited siblings, but 1 in a short search (the first
  // init_after_nodes nodes), which stays wide; and `dn_floor`, the least
  // disproof number (SolveOptions::init_dn_moves).
  struct Unvisited {
    uint32_t value = 1;
    uint32_t dn_floor = 0;
  };
  Unvisited unvisited(W mine, W theirs) const {
    Unvisited u;
    if (!opt.init_mobility || shared.nodes.load(std::memory_order_relaxed) < opt.init_after_nodes) return u;
    const int empty = popcount(g.board_as<W>() & ~(mine | theirs));
    u.value = uint32_t(std::max(1, (empty - 1) / opt.init_mobility));
    if (opt.init_dn_moves > 0 && u.value > 1) u.dn_floor = uint32_t((empty - 1) * u.value / opt.init_dn_moves);
    return u;
  }
  // An unvisited child's disproof number: its start plus its rank times
  // init_rank_cost, so that the search tries the moves in their order.
  uint32_t unvisited_dn(const Unvisited& u, int rank) const {
    return std::max(u.value, u.dn_floor) + uint32_t(rank) * uint32_t(opt.init_rank_cost);
  }

  // The table keys of the node's children (`ks`, its keys; `t`, its
  // moves), in move order.
  void child_keys(const KeySet& ks, Color mover, const NodeTactics& t, uint64_t* out) const {
    for (int i = 0; i < int(t.moves.size()); ++i) out[i] = sym.canonical_after(ks, mover, t.moves[i].point);
  }

  // Stores the node whose table key is `key` settled: won (with its
  // winning move `best`, in the table's frame) or lost.
  void store_settled(uint64_t key, bool win, int16_t best, uint8_t flags) {
    TTEntry e;
    e.key = key;
    e.pn = win ? 0 : kInf;
    e.dn = win ? kInf : 0;
    e.work = 1;
    e.best = best;
    e.flags = flags;
    tt.store(e);
  }

  // Settles the node by its tactics if they decide it: Win or Loss, with the
  // winning move in *move.
  Verdict tactics(uint64_t key, const PositionChains<W>& c, NodeTactics* t, int* move) {
    analyse_node(g, c.mine, c.theirs, c.empty, t);
    if (t->verdict == Verdict::Win) *move = t->capture_point;
    if (t->verdict != Verdict::Unknown) return t->verdict;
    if (opt.capture_plies >= 3 && can_capture(key, c.mine, c.theirs, c.empty, move)) return Verdict::Win;
    return Verdict::Unknown;
  }

  // df-pn's multiple iterative deepening at one node, negamax form: pn is
  // the proof number of "the mover wins", dn its disproof number.
  // `ks` holds the position's keys under every symmetry: the table is read
  // with the smallest, the capture cache with the plain key (its moves are
  // in the position's own coordinates).  Stopped (budget, deadline, stop
  // flag), the nodes on the path keep their older entries, so that the next
  // search goes back down the same path (storing them made the 6x5 split
  // of all moves 9% longer), but each returns the numbers it got to, the
  // root's being how far the search came (SolveResult); a node stopped
  // before its expansion leaves *out_pn and *out_dn as the caller set them.
  void mid(W mine, W theirs, Color mover, const KeySet& ks, uint32_t thpn, uint32_t thdn, uint32_t* out_pn,
           uint32_t* out_dn) {
    ++stats.nodes;
    int frame;
    const uint64_t key = sym.canonical(ks, &frame);
    const uint64_t raw = ks.k[0];
    // Out of budget: the caller keeps the numbers it had for the node.
    if (out_of_budget()) return;
    // The node's own searches (tactics() and screen()), fetched while the
    // table is read.
    tactics_cache->prefetch(raw);
    tactics_cache->prefetch(raw ^ kWhiteToMoveKey);
    tactics_cache->prefetch(raw ^ kWhiteToMoveKey ^ kThreat2Salt);
    NodeTactics t;
    int move = -1;
    // A node with an open entry was expanded before: its capture search
    // failed then and would fail again.
    TTEntry self;
    bool seen = lookup(key, &self);
    if (seen && self.pn == 0) {
      *out_pn = 0;
      *out_dn = kInf;
      return;
    }
    if (seen && self.dn == 0) {
      *out_pn = kInf;
      *out_dn = 0;
      return;
    }
    // Found once a visit and shared by every search the node runs (their
    // own positions are derived from it stone by stone).
    const PositionChains<W> chains(g, mine, theirs);
    Verdict v = (seen && (self.flags & TTEntry::kCaptureSearched))
                    ? (analyse_node(g, chains.mine, chains.theirs, chains.empty, &t), t.verdict)
                    : tactics(raw, chains, &t, &move);
    if (v != Verdict::Unknown) {
      // A leaf of the proof: no kCaptureSearched (ProofWalker stops there).
      store_settled(key, v == Verdict::Win, to_frame(frame, move), 0);
      *out_pn = v == Verdict::Win ? 0 : kInf;
      *out_dn = v == Verdict::Win ? kInf : 0;
      return;
    }
    const int n = int(t.moves.size());
    uint64_t child_key[MoveList::kCapacity];
    child_keys(ks, mover, t, child_key);
    const Unvisited init = unvisited(mine, theirs);
    // The moves that leave on an opponent's capture or threat lose: the
    // search only spends effort on the others.
    bool lost[MoveList::kCapacity];
    uint8_t screened = seen ? self.flags : 0;
    // With lazy_child_reads, a first visit reads a child's entry only
    // before searching it.
    const bool read_kids = seen || !opt.lazy_child_reads;
    screen(chains, mover, raw, t, seen, lost, nullptr, read_kids ? child_key : nullptr, &screened);
    uint64_t nodes_before = stats.nodes;
    uint32_t pn = 1, dn = 1;
    int best_move = -1;
    // The children's numbers are read from the table once, then only the
    // child just searched changes (its own answer); every few rounds they
    // are read again for what other threads and transpositions changed.
    uint32_t kid_pn[MoveList::kCapacity], kid_dn[MoveList::kCapacity];
    bool kid_read[MoveList::kCapacity] = {};
    for (int round = 0;; ++round) {
      if ((round & 7) == 0) {
        if (round > 0 || read_kids) tt.load_buckets(child_key, lost, n);
        for (int i = 0; i < n; ++i) {
          TTEntry e;
          if (lost[i]) {
            kid_pn[i] = 0;
            kid_dn[i] = kInf;
          } else if ((round > 0 || read_kids) && lookup(child_key[i], &e)) {
            kid_pn[i] = e.pn;
            kid_dn[i] = e.dn;
          } else {
            kid_pn[i] = init.value;
            kid_dn[i] = unvisited_dn(init, i);
          }
        }
      }
      uint64_t min_dn = kInf, dn2 = kInf, sum_pn = 0;
      uint64_t best_tie = ~0ull;
      int best = -1;
      uint32_t best_pn = 1;
      bool infinite = false;
      for (int i = 0; i < n; ++i) {
        uint32_t cpn = kid_pn[i], cdn = kid_dn[i];
        if (cpn == kInf) infinite = true;
        sum_pn += cpn;
        uint64_t tie = salt ? mix(child_key[i] ^ salt) : uint64_t(i);
        if (cdn < min_dn || (cdn == min_dn && tie < best_tie)) {
          if (best >= 0) dn2 = std::min<uint64_t>(dn2, min_dn);
          min_dn = cdn;
          best = i;
          best_tie = tie;
          best_pn = cpn;
        } else if (cdn < dn2) {
          dn2 = cdn;
        }
      }
      pn = uint32_t(min_dn);
      dn = infinite ? kInf : uint32_t(std::min<uint64_t>(sum_pn, kInf - 1));
      best_move = t.moves[best].point;
      if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || stopped())
        break;
      uint64_t c_thpn = uint64_t(thdn) - dn + best_pn;
      uint64_t c_thdn = std::min<uint64_t>(thpn, std::max<uint64_t>(dn2 + 1, dn2 + (dn2 * epsilon_1024 >> 10)));
      c_thpn = std::min<uint64_t>(c_thpn, kInf - 1);
      if (!read_kids && !kid_read[best]) {  // settled or valued by a transposition: no visit
        kid_read[best] = true;
        TTEntry e;
        if (lookup(child_key[best], &e)) {
          kid_pn[best] = e.pn;
          kid_dn[best] = e.dn;
          continue;
        }
      }
      int p = t.moves[best].point;
      ++stats.moves_played;
      mid(theirs, mine | bit_of<W>(p), opponent(mover), sym.after(ks, mover, p), uint32_t(c_thpn), uint32_t(c_thdn), &kid_pn[best],
          &kid_dn[best]);
    }
    if (stopped() && pn != 0 && dn != 0) {
      *out_pn = pn;
      *out_dn = dn;
      return;  // an interrupted node keeps its older entry
    }
    TTEntry e;
    e.key = key;
    e.pn = pn;
    e.dn = dn;
    e.work = uint32_t(std::min<uint64_t>(stats.nodes - nodes_before, 0xffffffffu));
    e.best = pn == 0 ? to_frame(frame, best_move) : int16_t(-1);
    e.flags = TTEntry::kCaptureSearched | screened;
    tt.store(e);
    *out_pn = pn;
    *out_dn = dn;
  }

  // A node's children's numbers as mid() starts from them (no search): a
  // move the screening finds lost is pn 0, dn infinite; a child with an
  // entry has the entry's numbers; an unvisited one is valued as mid()
  // values it.  `seen`: not unvisited (lost, or an entry).
  struct KidNumbers {
    uint32_t pn[MoveList::kCapacity], dn[MoveList::kCapacity];
    bool seen[MoveList::kCapacity];
  };
  void read_kids(W mine, W theirs, Color mover, const KeySet& ks, const PositionChains<W>& chains,
                 const NodeTactics& t, KidNumbers* out) {
    const Unvisited init = unvisited(mine, theirs);
    bool lost[MoveList::kCapacity];
    screen(chains, mover, ks.k[0], t, true, lost);
    const int n = t.moves.size();
    uint64_t child_key[MoveList::kCapacity];
    child_keys(ks, mover, t, child_key);
    tt.load_buckets(child_key, lost, n);
    for (int i = 0; i < n; ++i) {
      TTEntry e;
      out->seen[i] = lost[i] || lookup(child_key[i], &e);
      out->pn[i] = lost[i] ? 0 : out->seen[i] ? e.pn : init.value;
      out->dn[i] = lost[i] ? kInf : out->seen[i] ? e.dn : unvisited_dn(init, i);
    }
  }

  // The proof and disproof numbers of a position as mid() would start from
  // them: from its own entry when settled, else from its children's
  // (read_kids()).  No search.
  void numbers(W mine, W theirs, Color mover, const KeySet& ks, uint32_t* out_pn, uint32_t* out_dn) {
    int frame;
    TTEntry self;
    if (lookup(sym.canonical(ks, &frame), &self) && (self.pn == 0 || self.dn == 0)) {
      *out_pn = self.pn;
      *out_dn = self.dn;
      return;
    }
    NodeTactics t;
    const PositionChains<W> chains(g, mine, theirs);
    analyse_node(g, chains.mine, chains.theirs, chains.empty, &t);
    if (t.verdict != Verdict::Unknown || t.moves.size() == 0) {
      const bool win = t.verdict == Verdict::Win;
      *out_pn = win ? 0 : kInf;
      *out_dn = win ? kInf : 0;
      return;
    }
    KidNumbers kids;
    read_kids(mine, theirs, mover, ks, chains, t, &kids);
    uint64_t min_dn = kInf, sum_pn = 0;
    bool infinite = false;
    for (int i = 0; i < int(t.moves.size()); ++i) {
      min_dn = std::min<uint64_t>(min_dn, kids.dn[i]);
      sum_pn += kids.pn[i];
      infinite |= kids.pn[i] == kInf;
    }
    *out_pn = uint32_t(min_dn);
    *out_dn = infinite ? kInf : uint32_t(std::min<uint64_t>(sum_pn, kInf - 1));
  }

  // The position a search starts from, for the walks down its main line.
  struct Root {
    W mine, theirs;
    Color mover;
    KeySet ks;
  };
  const Root* line_root = nullptr;  // set: this thread's search walks its main line (SolveOptions::line_walk_nodes)
  uint64_t next_line_walk = 0;

  // What one walk down the main line did.
  enum class LineWalk { Settled, Worked, Idle };

  // Walks the search's principal line from `root` (the child df-pn would
  // take at each node: the smallest disproof number, unvisited children
  // valued as mid() values them).  A node on it that its children's
  // entries decide (a child lost for its mover, or none left open) while
  // its own entry is still open is stored settled, and the walk ends there
  // (Settled; the root settled stops the search): the children were
  // settled from elsewhere (a sibling's subtree, another search, a helper)
  // and the search, working under another child, would not look at them
  // before its thresholds send it back.  With `work` (a helper), at the
  // first node whose mover looks lost, where the proof needs every child,
  // it searches the open child the main search would come to last (the
  // last in move order) for a while (Worked).  Else Idle.
  LineWalk walk_line(const Root& root, bool work) {
    constexpr int kMaxDepth = 12;
    W mine = root.mine, theirs = root.theirs;
    Color mover = root.mover;
    KeySet ks = root.ks;
    bool mover_wins = true;  // the root's likely verdict, from its children below
    for (int depth = 0; depth < kMaxDepth; ++depth) {
      NodeTactics t;
      const PositionChains<W> chains(g, mine, theirs);
      analyse_node(g, chains.mine, chains.theirs, chains.empty, &t);
      if (t.verdict != Verdict::Unknown) return LineWalk::Idle;
      const int n = t.moves.size();
      // main_pick: the child df-pn takes; far_pick: the last open child in
      // move order besides it; won_by: a child lost for its mover.
      int main_pick = -1, far_pick = -1, won_by = -1;
      uint64_t main_dn = ~0ull, sum_pn = 0;
      bool open[MoveList::kCapacity];
      KidNumbers kids;
      read_kids(mine, theirs, mover, ks, chains, t, &kids);
      for (int i = 0; i < n; ++i) {
        if (kids.dn[i] == 0 && won_by < 0) won_by = i;
        open[i] = kids.pn[i] != 0 && kids.dn[i] != 0;
        if (!open[i]) continue;
        sum_pn += kids.pn[i];
        if (kids.dn[i] < main_dn) main_dn = kids.dn[i], main_pick = i;
      }
      if (won_by >= 0 || main_pick < 0) {
        int frame;
        const uint64_t key = sym.canonical(ks, &frame);
        // A searched node: the proof walk goes into it.
        store_settled(key, won_by >= 0, won_by >= 0 ? to_frame(frame, t.moves[won_by].point) : int16_t(-1),
                      TTEntry::kCaptureSearched);
        ++stats.line_settled;
        if (depth == 0) shared.stop = true;
        return LineWalk::Settled;
      }
      if (depth == 0) mover_wins = main_dn <= sum_pn;
      for (int i = n - 1; i >= 0 && far_pick < 0; --i)
        if (open[i] && i != main_pick) far_pick = i;
      const bool go_far = work && !mover_wins && far_pick >= 0;
      // Without work, the walk ends where the search has not been.
      if (!work && !kids.seen[main_pick]) return LineWalk::Idle;
      const int go = go_far ? far_pick : main_pick;
      const W played = mine | bit_of<W>(t.moves[go].point);
      mine = theirs;
      theirs = played;
      ks = sym.after(ks, mover, t.moves[go].point);
      mover = opponent(mover);
      mover_wins = !mover_wins;
      if (go_far) {
        // The child's numbers as read above (an open child: its entry, or
        // 1 and 1 unvisited).  Back to the walk when they have doubled: the
        // main search may have left this line by then.
        uint32_t pn = kids.seen[go] ? kids.pn[go] : 1, dn = kids.seen[go] ? kids.dn[go] : 1;
        mid(mine, theirs, mover, ks, uint32_t(std::min<uint64_t>(2ull * pn + 16, kInf - 1)),
            uint32_t(std::min<uint64_t>(2ull * dn + 16, kInf - 1)), &pn, &dn);
        return LineWalk::Worked;
      }
    }
    return LineWalk::Idle;
  }

  // A helper on a search another thread runs from `root`: instead of a
  // second df-pn on the same root (which mostly follows the first one's
  // path), it walks the principal line (walk_line()), settling what the
  // children decide and working where the proof needs every child.  Its
  // settled entries are proofs either way; they save the main search work
  // when that line holds.
  void help_line(const Root& root) {
    helper = true;
    while (!shared.stop.load(std::memory_order_relaxed)) {
      if (stand_down || table_too_full(salt + local_nodes)) {
        // A full table stays full: no more searching, only the walks that
        // settle (a few entries each) until the search ends.
        stand_down = true;
        if (walk_line(root, false) != LineWalk::Settled) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      if (walk_line(root, true) == LineWalk::Idle) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
};

namespace {

// Counts the distinct nodes of the proof tree below a settled node: one
// winning move at the winner's nodes, every move at the loser's.  A child
// the table lost is proved again first.
template <class W>
struct ProofWalker {
  Worker<W>& w;
  uint64_t cap;
  FlatKeySet seen;
  bool capped = false;

  Verdict settle(W mine, W theirs, Color mover, const KeySet& ks) {
    TTEntry e;
    int frame;
    if (!w.lookup(w.sym.canonical(ks, &frame), &e) || (e.pn != 0 && e.dn != 0)) {
      uint32_t pn = 1, dn = 1;
      w.mid(mine, theirs, mover, ks, kInf - 1, kInf - 1, &pn, &dn);
      e.pn = pn;
      e.dn = dn;
    }
    return e.pn == 0 ? Verdict::Win : e.dn == 0 ? Verdict::Loss : Verdict::Unknown;
  }

  // Counts the node whose canonical key is `key`; false when it was
  // counted before or the cap is reached (`capped`): the walk stops there.
  bool count(uint64_t key) {
    if (seen.size() >= cap) {
      capped = true;
      return false;
    }
    return seen.insert(key);
  }

  // False if a node could not be settled again (budget ran out).
  // Positions the same up to a symmetry are counted once.  At a won node
  // the move the table kept, else `hint`, is tried first.
  bool walk(W mine, W theirs, Color mover, const KeySet& ks, Verdict v, int hint = -1) {
    int frame;
    const uint64_t key = w.sym.canonical(ks, &frame);
    if (!count(key)) return true;
    // The node's entry, when it has one, spares the tactics: a node
    // settled by its tactics is stored without kCaptureSearched (a leaf of
    // the proof), and a node won by search keeps its winning move.
    TTEntry self;
    const bool found = w.lookup(key, &self);
    if (w.opt.walk_shortcuts && found && (self.pn == 0 || self.dn == 0)) {
      if (!(self.flags & TTEntry::kCaptureSearched)) return true;
      if (v == Verdict::Win && self.pn == 0 && self.best >= 0) {
        const int p = w.from_frame(frame, self.best);
        const KeySet ck = w.sym.after(ks, mover, p);
        const W nm = theirs, nt = mine | bit_of<W>(p);
        if (settle(nm, nt, opponent(mover), ck) == Verdict::Loss) return walk(nm, nt, opponent(mover), ck, Verdict::Loss);
      }
    }
    NodeTactics t;
    int move;
    const PositionChains<W> chains(w.g, mine, theirs);
    if (w.tactics(ks.k[0], chains, &t, &move) != Verdict::Unknown) return true;
    if (v == Verdict::Win && found && self.best >= 0) hint = w.from_frame(frame, self.best);
    if (v == Verdict::Win && hint >= 0)
      for (int i = 1; i < t.moves.size(); ++i)
        if (t.moves[i].point == hint) std::swap(t.moves[0], t.moves[i]);
    const int n = t.moves.size();
    // At a lost node every child is walked: their entries are fetched
    // together, while the screening runs.
    KeySet ck[MoveList::kCapacity];
    uint64_t child_key[MoveList::kCapacity];  // at a lost node
    for (int i = 0; i < n; ++i) {
      ck[i] = w.sym.after(ks, mover, t.moves[i].point);
      if (v == Verdict::Loss) {
        int f;
        child_key[i] = w.sym.canonical(ck[i], &f);
        w.tt.prefetch(child_key[i]);
      }
    }
    // The moves the screening settles are lost without a table entry; the
    // opponent's answer it found leads their proof.
    bool lost[MoveList::kCapacity];
    int reply[MoveList::kCapacity];
    const bool lost_to_capture = v == Verdict::Loss && w.screen(chains, mover, ks.k[0], t, true, lost, reply);
    for (int i = 0; i < n; ++i) {
      const Candidate& c = t.moves[i];
      W nm = theirs, nt = mine | bit_of<W>(c.point);
      if (v == Verdict::Loss && lost[i]) {
        if (lost_to_capture && w.opt.walk_shortcuts)
          // The screening found the opponent's capture there: a leaf the
          // tactics would settle, counted without running them again.
          count(child_key[i]);
        else if (!walk(nm, nt, opponent(mover), ck[i], Verdict::Win, reply[i]))
          return false;
        continue;
      }
      Verdict cv = settle(nm, nt, opponent(mover), ck[i]);
      if (cv == Verdict::Unknown) return false;
      if (v == Verdict::Win) {
        if (cv != Verdict::Loss) continue;
        return walk(nm, nt, opponent(mover), ck[i], cv);
      }
      if (!walk(nm, nt, opponent(mover), ck[i], cv)) return false;
    }
    return v == Verdict::Loss;
  }
};

}  // namespace

Solver::Solver(const Geometry& g, SolveOptions options)
    : g_(g),
      opt_(options),
      sym_(g, options.symmetric_keys),
      tt_(options.table_mb),
      caches64_(options.tactics_cache_mb),
      caches_bits_(options.tactics_cache_mb) {}

template <class W>
TacticsCachePool<W>& Solver::tactics_caches() {
  if constexpr (std::is_same_v<W, uint64_t>)
    return caches64_;
  else
    return caches_bits_;
}

SolveResult Solver::solve(const Position& pos) {
  if (opt_.split_depth > 1) return solve_split(pos);
  SearchControl ctl;
  if (opt_.seconds > 0) {
    ctl.has_deadline = true;
    ctl.deadline = deadline_after(opt_.seconds);
  }
  ctl.max_nodes = opt_.max_nodes;
  return search(pos, ctl, opt_.threads);
}

SolveResult Solver::search(const Position& pos, SearchControl& shared, int nthreads) {
  return g_.fits64() ? search_w<uint64_t>(pos, shared, nthreads) : search_w<Bits>(pos, shared, nthreads);
}

template <class W>
SolveResult Solver::search_w(const Position& pos, SearchControl& shared, int nthreads) {
  SolveResult res;
  auto t0 = Clock::now();
  Color mover = pos.to_move;
  W mine = W(pos.stones(mover)), theirs = W(pos.stones(opponent(mover)));
  const KeySet ks = sym_.keys(pos);
  int frame;
  const uint64_t key = sym_.canonical(ks, &frame);
  nthreads = std::max(1, nthreads);
  std::vector<Worker<W>> workers;
  workers.reserve(nthreads);
  for (int i = 0; i < nthreads; ++i)
    workers.push_back(Worker<W>{g_, opt_, sym_, tt_, shared, i == 0 ? 0 : mix(0x5eed + i), {}, 0, tactics_caches<W>().lease()});
  const typename Worker<W>::Root root{mine, theirs, mover, ks};
  uint32_t root_pn = 1, root_dn = 1;  // as the first thread's search left them
  auto run = [&](Worker<W>& w) {
    const double c0 = thread_cpu_seconds();
    uint32_t pn = 1, dn = 1;
    // The second thread helps along the main line; any further ones run
    // df-pn on the root, their ties broken their own way.
    if (&w == &workers[1]) {
      w.help_line(root);
      w.stats.cpu_seconds = thread_cpu_seconds() - c0;
      return;
    }
    if (opt_.line_walk_nodes) w.line_root = &root;
    w.mid(mine, theirs, mover, ks, kInf - 1, kInf - 1, &pn, &dn);
    root_pn = pn;
    root_dn = dn;
    if (pn == 0 || dn == 0) shared.stop = true;
    w.stats.cpu_seconds = thread_cpu_seconds() - c0;
  };
  run_on_threads(nthreads, [&](int i) { run(workers[size_t(i)]); });
  TTEntry e;
  res.pn = root_pn;
  res.dn = root_dn;
  if (tt_.lookup(key, &e) && (e.pn == 0 || e.dn == 0)) {
    res.verdict = e.pn == 0 ? Verdict::Win : Verdict::Loss;
    res.move = res.verdict == Verdict::Win && e.best >= 0 ? sym_.preimage(frame, e.best) : -1;
    res.pn = e.pn;
    res.dn = e.dn;
  }
  for (Worker<W>& w : workers) {
    if (&w != &workers[0]) w.stats.helper_nodes = w.stats.nodes;
    res.stats.add(w.stats);
  }
  if (res.verdict != Verdict::Unknown && opt_.count_proof) {
    // The walk may re-prove children the table dropped: give it its own
    // budget so a settled answer is never lost to it.  It borrows the main
    // thread's tactics cache, which holds this search's capture searches.
    const double c0 = thread_cpu_seconds();
    SearchControl walk_shared;
    Worker<W> w{g_, opt_, sym_, tt_, walk_shared, 0, {}, 0, std::move(workers[0].tactics_cache)};
    ProofWalker<W> pw{w, opt_.max_proof_nodes, {}, false};
    if (pw.walk(mine, theirs, mover, ks, res.verdict)) {
      res.proof_size = pw.seen.size();
      res.proof_size_capped = pw.capped;
    }
    // Its time is the answer's (its nodes and moves are not the search's).
    res.stats.proof_cpu_seconds = thread_cpu_seconds() - c0;
    res.stats.proof_nodes = w.stats.nodes;
    res.stats.cpu_seconds += res.stats.proof_cpu_seconds;
  }
  res.stats.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return res;
}

void Solver::estimate(const Position& pos, uint32_t* pn, uint32_t* dn) {
  g_.fits64() ? estimate_w<uint64_t>(pos, pn, dn) : estimate_w<Bits>(pos, pn, dn);
}

template <class W>
void Solver::estimate_w(const Position& pos, uint32_t* pn, uint32_t* dn) {
  SearchControl ctl;
  ctl.nodes = opt_.init_after_nodes;  // value unvisited children as a long search does
  Worker<W> w{g_, opt_, sym_, tt_, ctl, 0, {}, 0, tactics_caches<W>().lease()};
  w.numbers(W(pos.stones(pos.to_move)), W(pos.stones(opponent(pos.to_move))), pos.to_move, sym_.keys(pos), pn, dn);
}

SolveStats Solver::help(const Position& pos, SearchControl& shared, uint64_t salt) {
  return g_.fits64() ? help_w<uint64_t>(pos, shared, salt) : help_w<Bits>(pos, shared, salt);
}

template <class W>
SolveStats Solver::help_w(const Position& pos, SearchControl& shared, uint64_t salt) {
  const double c0 = thread_cpu_seconds();
  Worker<W> w{g_, opt_, sym_, tt_, shared, salt | 1, {}, 0, tactics_caches<W>().lease()};
  w.help_line({W(pos.stones(pos.to_move)), W(pos.stones(opponent(pos.to_move))), pos.to_move, sym_.keys(pos)});
  w.stats.cpu_seconds = thread_cpu_seconds() - c0;
  w.stats.helper_nodes = w.stats.nodes;
  return w.stats;
}

const char* verdict_name(Verdict v) {
  return v == Verdict::Win ? "win" : v == Verdict::Loss ? "loss" : "unknown";
}

}  // namespace sgfpat::solve

// The proving search for atari-go: depth-first proof-number search (df-pn,
// with the 1+epsilon threshold trick) over a shared transposition table on
// Zobrist keys.  Every node first applies the exact tactics of tactics.h
// (immediate capture, forced replies to ataris, no self-ataris) and the
// bounded capture search; the moves that leave on an opponent's capture or
// two-move threat (tactics.h, with the zones that make that exact) are
// settled as lost without search, again at every visit rather than stored
// (the table keeps its room for the nodes being searched); the others are
// tried in the order of liberties taken from enemy chains, then closeness
// to own chains.
//
// solve() runs several threads over the shared table: the first searches
// the root; the second helps along its main line, proving the open
// children of the first node there whose mover looks lost (the proof needs
// them all) from the last in move order, where the first thread comes last,
// and storing settled the nodes of that line whose children's entries
// decide them (every search walks its own line so now and then too);
// any further threads search the root too, breaking ties between equally
// promising moves their own way.  solve_all_moves() runs separate searches
// side by side over that table.
// A Win or Loss result is proved; when the time or node budget runs out the
// answer is Unknown.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <functional>
#include <vector>

#include "solve/atari_board.h"
#include "solve/symmetric_keys.h"
#include "solve/tactics.h"
#include "solve/tactics_cache.h"
#include "solve/transposition_table.h"

namespace sgfpat::solve {

// The proof (or disproof) number of a position proved lost (won).
constexpr uint32_t kInfiniteNumber = 0x7fffffff;

// One search of a split line (SolveOptions::on_leaf_searched).
struct LeafSearch {
  std::vector<int> line;  // the moves from the position to the leaf
  uint64_t budget = 0;    // nodes this search was allowed
  uint64_t nodes = 0;     // nodes it visited
  Verdict verdict = Verdict::Unknown;  // for the leaf's side to move
  uint32_t pn = 0, dn = 0;  // the leaf's numbers after the search
  double cpu_seconds = 0;
  double proof_cpu_seconds = 0;  // of cpu_seconds, the walk that counted the leaf's proof
};

struct SolveOptions {
  double seconds = 10;         // wall-clock budget (<= 0: none)
  uint64_t max_nodes = 0;      // node budget (0: none)
  int threads = 1;
  size_t table_mb = 256;       // transposition table size
  int capture_plies = 13;       // depth of the capture search at every node
  // An unvisited child's disproof number grows by this much per rank in
  // move order, so that df-pn tries the moves in that order.  The winning
  // move is the first in that order at two thirds of the won nodes
  // (notes/issue15-solver.md): a steep slope lets a node
  // deepen its first few moves before it evaluates the last ones.  8
  // against 1: bench/solve.sh work 44.3M -> 31.3M nodes, the empty 6x6
  // board's first winning move (empty6's flags) 433M -> 224M; 4 and 16
  // did less on the 6x6 positions tried.
  int init_rank_cost = 8;
  // Once a search has run init_after_nodes nodes, its unvisited children
  // start at (empty points - 1) / init_mobility (0: always at 1), near what
  // a visited child's numbers come to, so that it deepens the lines it has
  // begun instead of widening first: on 6x6 positions that take millions of
  // nodes this saves 1/4-1/3 of them, while searches of a few thousand
  // nodes (the crosscuts) do best wide.
  int init_mobility = 8;
  uint64_t init_after_nodes = 100'000;
  // With those values above 1, an unvisited child's disproof number is at
  // least (empty points - 1) x its value / init_dn_moves (0: off).  A
  // visited child's is the sum of its own children's proof numbers, some
  // (moves not lost at once) x value, many times an unvisited one's, so
  // df-pn visits every child once before it deepens any; 2 (half the
  // points taken for moves) starts it near that.  It wins on some
  // positions and loses on others, as every change to df-pn's numbers
  // here: the empty 6x6 board's first winning move (threat2 off, 5
  // plies) 541M -> 433M nodes, but bench/solve.sh work +13% moves played.
  int init_dn_moves = 0;
  // The 1+epsilon trick: the child with the smallest disproof number is
  // searched until that number passes the second smallest by this fraction
  // (at least by one), so that df-pn switches between siblings less often.
  // Node counts move by tens of percent per position with any value; 3/8
  // had the smallest sum without a large loss on the 6x6 sets tried (9%
  // fewer nodes than 1/4 on four positions, 4% on bench/solve.sh work).
  double epsilon = 0.375;
  size_t tactics_cache_mb = 1;  // per search thread (tactics_cache.h)
  bool symmetric_keys = true;  // one table entry for a position and its mirror images
  bool threat_check = true;   // settle at once the moves that leave an opponent's capture search on
  // ... and those that leave on an opponent's two-move threat
  // (threat2_search()): at every visit of a node, at its visits after the
  // first only, or never.  The threats spare the search many nodes but
  // their searches cost most of the moves played; most first visits only
  // value a node for its parent, and those are the visits Revisits spares.
  enum class Threat2 { Every, Revisits, Off };
  Threat2 threat2 = Threat2::Every;
  // The screening of a node's moves skips what the table already answers:
  // the opponent's capture and threat searches an earlier visit saw fail,
  // and the capture search after a move whose child has an entry.  The
  // same search, fewer moves played; false (nothing read from the table)
  // only to measure that.
  bool screen_from_table = true;
  // A node's first visit reads none of its children's entries: they start
  // as unvisited ones, and a child's entry is read only when df-pn is about
  // to search it (one settled, or valued by a transposition, is then taken
  // from the table without a visit); later visits read them all.  The
  // reads, a miss in the table's memory each, are a quarter of a search's
  // time, and at first visits few children have entries in one search
  // (2.5% of the reads on C4+D5), but many where searches share the table.
  // One search, C4+D5 (all6's flags, one thread, 6 GB): 14.9M -> 13.3M
  // nodes, 43.4 -> 26.9 s user.  The full 6x6 run (all6): 625M -> 907M
  // nodes, 2.70 -> 2.11 us CPU a node, 925 -> 1,038 s: off by default.
  bool lazy_child_reads = false;
  // The screening narrows a capture's zone to the points every capture
  // line the opponent has depends on (the same moves lost, fewer tested);
  // false only to measure that.
  bool narrow_zones = true;
  // A helper thread (the second thread of solve(), an idle thread of
  // solve_all_moves()) stands down once the table is this full (0 to 1;
  // 1: never): when the table cannot hold the search, the helper's entries
  // push out the open nodes of the search it helps.  The full 6x6 run
  // (whose 14 GB table fills in its first minutes) took 1,676 s with idle
  // threads waiting against 1,855 s with them helping, the same night.
  double helper_max_fill = 0.9;
  // Every this many nodes a search walks its own principal line from its
  // root and stores settled the nodes there that their children's entries
  // decide while their own entries are still open (0: never); a helper
  // walks it between its searches.  A search working under one child does
  // not see a sibling's subtree settled from elsewhere (another thread, a
  // transposition) until its thresholds send it back up.
  uint64_t line_walk_nodes = 65536;
  // Plies solved move by move above the searches (> 1: solve() splits the
  // position's moves too, and solve_all_moves() each move's replies).
  int split_depth = 1;
  // A split leaf's first search, in nodes (0: 200,000 / 16^depth, at least
  // 1,000), and the factor each later search of it multiplies its budget by.
  uint64_t split_first_nodes = 0;
  int split_growth = 4;
  // A leaf searched longer than its siblings is taken again while its
  // disproof number is at most (1 + split_stick) times the smallest of
  // theirs (0: always the smallest).
  double split_stick = 0;
  // With several threads: a thread that finds no line left to start, while
  // a line's search with a budget of at least this many nodes runs and
  // that line's mover looks lost (pn > dn: every move of it is to be
  // refuted), splits that line one ply further and stops its search, so
  // that the threads share its moves (0: never).  Otherwise the thread
  // joins the running search (helper_max_fill).  Not where the mover looks
  // like winning: splitting there two plies, to reach replies that are all
  // needed, took the empty 6x6 run's last line (C5 D3) 100M nodes where its
  // one search takes 17M-34M, the lines moving from one candidate move to
  // the next.
  uint64_t split_deepen_nodes = 1'000'000;
  std::vector<int> only_moves{};  // solve_all_moves(): search these moves (and their images) only; empty: all
  // solve_all_moves(): called as each searched move is classified (`verdict`
  // for its player), from a search thread, one call at a time.
  std::function<void(int move, Verdict verdict, uint64_t proof_size)> on_classified{};
  // With a split depth: called after each search of a leaf (a line of
  // moves from the position), from a search thread, one call at a time.
  std::function<void(const LeafSearch&)> on_leaf_searched{};
  bool count_proof = true;     // walk the proof tree to report its size
  // The walk counts a child the screening found lost to a capture as a
  // leaf without running its tactics again, and follows a won node's kept
  // move without them: the same count in half the time (the walks took a
  // ninth of the full 6x6 run); false only to test that.
  bool walk_shortcuts = true;
  uint64_t max_proof_nodes = 50'000'000;
};

struct SolveStats {
  uint64_t nodes = 0;         // df-pn node visits
  uint64_t helper_nodes = 0;  // of those, the ones of threads other than the search's first
  uint64_t line_settled = 0;  // nodes the walks of the main line settled from their children's entries
  uint64_t moves_played = 0;  // stones placed by the search and the capture search
  uint64_t tt_lookups = 0;
  uint64_t tt_hits = 0;
  // Wall and CPU time of the search and of the walk that counts its proof
  // (the figures above are the search's alone).
  double seconds = 0;
  double cpu_seconds = 0;
  double proof_cpu_seconds = 0;  // of cpu_seconds, the walk that counted the proof
  uint64_t proof_nodes = 0;  // nodes that walk searched again (entries the table had given up)

  // Adds the figures of another search (several searches of one answer).
  void add(const SolveStats& o) {
    nodes += o.nodes;
    helper_nodes += o.helper_nodes;
    line_settled += o.line_settled;
    moves_played += o.moves_played;
    tt_lookups += o.tt_lookups;
    tt_hits += o.tt_hits;
    seconds += o.seconds;
    cpu_seconds += o.cpu_seconds;
    proof_cpu_seconds += o.proof_cpu_seconds;
    proof_nodes += o.proof_nodes;
  }
};

struct SolveResult {
  Verdict verdict = Verdict::Unknown;  // for the side to move
  int move = -1;                       // a winning move (Win), else -1
  uint64_t proof_size = 0;             // distinct nodes of the proof tree (0 if not walked)
  bool proof_size_capped = false;      // the walk stopped at max_proof_nodes
  // Unknown: how far the search got, as the proof and disproof numbers of
  // "the side to move wins" it had come to when it stopped (a split
  // solve's from its lines').
  uint32_t pn = 1, dn = 1;
  SolveStats stats;
};

struct MoveResult {
  int move;
  Verdict verdict;  // for the side that plays `move`
  std::string reason;  // "self-atari", "suicide", "capture", "not asked", "" for searched moves
  uint64_t proof_size = 0;
  // Unknown: the proof and disproof numbers of "the player of `move` wins"
  // its searches got to.
  uint32_t pn = 1, dn = 1;
  SolveStats stats;
  bool asked = true;  // false: left out by SolveOptions::only_moves (verdict Unknown)
};

struct SplitNode;
struct SplitLeaf;
template <class W>
struct Worker;

// The budget and stop flag of one search, shared by the threads that run it
// (its own and, in split mode, idle ones that join it).
struct SearchControl {
  std::atomic<bool> stop{false};
  std::chrono::steady_clock::time_point deadline;
  bool has_deadline = false;
  uint64_t max_nodes = 0;
  std::atomic<uint64_t> nodes{0};
};

class Solver {
 public:
  Solver(const Geometry& g, SolveOptions options);

  // Does the side to move in `pos` win?  With split_depth d > 1 the moves
  // (and the replies, down to d plies) are solved one by one by searches
  // of growing budgets, the next going to the most proving line, as in
  // solve_all_moves(); the position is won as soon as one move is proved
  // (the first winning move found), lost when all are.
  SolveResult solve(const Position& pos);

  // Classifies every first move of the side to move (moves the same by a
  // symmetry of the position are searched once and reported for each).
  // The budget in the options is for the whole call.  Each move (with
  // split_depth d > 1, each line of d plies: a position is won as soon as
  // one move is proved, lost when all are) is a leaf solved by searches of
  // growing budgets; the moves take turns, and under each the next search
  // goes to the most proving leaf (smallest disproof number at every
  // ply, the numbers of a leaf read from the table after its last search).
  // The proof sizes are then summed over the separate searches.  The
  // searches run side by side, one thread each (df-pn gains little from a
  // second thread on one root); a thread with no search left to start
  // joins a running one.  *total, if given, gets the figures of the
  // whole call: its wall time and the CPU time of every thread.
  std::vector<MoveResult> solve_all_moves(const Position& pos, SolveStats* total = nullptr);

  const Geometry& geometry() const { return g_; }
  // How many GB of the transposition table are on 1 GB pages (0 unless the
  // system has them reserved: vm.nr_hugepages of that size).
  size_t table_gb_pages() const { return tt_.gb_pages(); }

 private:
  template <class W>
  friend struct Worker;
  // solve() by splitting (split_depth > 1).
  SolveResult solve_split(const Position& pos);
  // solve() with `threads` threads under `ctl` (its budget and stop flag).
  SolveResult search(const Position& pos, SearchControl& ctl, int threads);
  // search(), help() and estimate() with the stones as words of type W
  // (atari_board.h): uint64_t when the board fits one.
  template <class W>
  SolveResult search_w(const Position& pos, SearchControl& ctl, int threads);
  template <class W>
  SolveStats help_w(const Position& pos, SearchControl& ctl, uint64_t salt);
  template <class W>
  void estimate_w(const Position& pos, uint32_t* pn, uint32_t* dn);
  // Joins a search of `pos` under `ctl` as one more thread, helping along
  // its main line (its ties broken by `salt`), until that search stops;
  // returns this thread's figures.
  SolveStats help(const Position& pos, SearchControl& ctl, uint64_t salt);
  // The proof and disproof numbers of `pos` for its side to move, from the
  // table (its children's entries), without searching.
  void estimate(const Position& pos, uint32_t* pn, uint32_t* dn);
  // Gives `node` its children (one per move up to symmetry), or settles it
  // when a move captures or none is legal.
  void expand(SplitNode& node);
  // The open leaf `depth` plies under `node` that the next search should
  // take (the most proving one, not being searched), expanding the nodes on
  // the way; nullptr when none.  *path gets the nodes above it.  With
  // `first_only`, only the most proving line at each node: nullptr when
  // that one is being searched.
  SplitNode* select(SplitNode& node, int depth, std::vector<SplitNode*>* path, bool first_only = false);
  // Searches the leaves `depth` plies under `roots` (the positions after
  // `root_moves`) one at a time, on opt_.threads threads, until every root
  // is settled or `end`.
  void run_best_first(std::vector<SplitNode>& roots, const std::vector<int>& root_moves, int depth,
                      std::chrono::steady_clock::time_point end);
  Geometry g_;
  SolveOptions opt_;
  BoardSymmetries sym_;
  TranspositionTable tt_;
  // The tactics caches of the searches, by the word type they run on.
  template <class W>
  TacticsCachePool<W>& tactics_caches();
  TacticsCachePool<uint64_t> caches64_;
  TacticsCachePool<Bits> caches_bits_;
};

// The symmetries of the board (8 on a square board, 4 otherwise) mapping
// `pos` onto itself; each is a point permutation, the identity first.
std::vector<std::vector<int>> position_symmetries(const Geometry& g, const Position& pos);

const char* verdict_name(Verdict v);  // "win", "loss", "unknown"

}  // namespace sgfpat::solve

// Solving every move of a position: the moves (and, with a split depth,
// their replies) solved one by one by separate proving searches that share
// the transposition table, the next search going to the most proving one.
#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "core/cpu_time.h"
#include "core/deadline.h"
#include "core/tasks.h"
#include "solve/proof_search.h"

namespace sgfpat::solve {

using Clock = std::chrono::steady_clock;

std::vector<std::vector<int>> position_symmetries(const Geometry& g, const Position& pos) {
  std::vector<std::vector<int>> out;
  BoardSymmetries sym(g);
  for (int s = 0; s < sym.count(); ++s) {
    Position img = sym.image(s, pos);
    if (img.black != pos.black || img.white != pos.white) continue;
    std::vector<int> map(size_t(g.index(g.width() - 1, g.height() - 1) + 1), -1);
    for (Bits b = g.board(); b; b &= b - 1) map[size_t(lowest(b))] = sym.image(s, lowest(b));
    out.push_back(std::move(map));
  }
  return out;
}

namespace {
// Sorts moves nearest the board's centre first (stable).
void sort_centre_first(const Geometry& g, std::vector<int>* moves) {
  auto distance = [&](int p) {
    int dx = 2 * g.x_of(p) - (g.width() - 1), dy = 2 * g.y_of(p) - (g.height() - 1);
    return dx * dx + dy * dy;
  };
  std::stable_sort(moves->begin(), moves->end(), [&](int a, int b) { return distance(a) < distance(b); });
}

// The smallest image of point p under the symmetries (position_symmetries()):
// the one move searched for all of them.
int representative(const std::vector<std::vector<int>>& syms, int p) {
  int r = p;
  for (const auto& m : syms) r = std::min(r, m[size_t(p)]);
  return r;
}
}  // namespace

// A position above the proving searches: its moves are solved one by one,
// each by its own search (or split again), so that the budget goes where
// the proof numbers say it is most needed instead of to one search's
// most promising move only.
struct SplitNode {
  Position pos;
  Verdict verdict = Verdict::Unknown;  // for pos.to_move
  uint64_t proof_size = 0;
  SolveStats stats;
  std::vector<SplitNode> kids;  // one per legal move up to the position's symmetries, centre first
                                // (an open node has some once expanded)
  // Proof and disproof numbers of "pos.to_move wins": a leaf's from the
  // table after its last search, a split node's from its kids.
  uint32_t pn = 1, dn = 1;
  int move = -1;      // the move that made the node from its parent (-1: a root)
  int win_move = -1;  // once won: a capture, or the move of a kid proved lost
  uint64_t budget = 0;  // a leaf's last search, nodes (0: not searched yet)
  bool busy = false;  // a leaf a thread is searching
  // A leaf split one ply further while the split ran
  // (SolveOptions::split_deepen_nodes): its kids are leaves, and start from
  // the numbers its searches left in the table (not 1 and 1).
  bool deepened = false;
};

// A leaf being searched, with the split nodes above it (outermost first):
// it stops once one of them is settled.
struct SplitLeaf {
  SplitNode* node;
  std::vector<SplitNode*> path;
  SearchControl control;
};

namespace {

// Settles an open split node when its kids decide it and updates its
// numbers from theirs (kids kept: other threads may still point into them).
void decide(SplitNode& n) {
  if (n.verdict != Verdict::Unknown || n.kids.empty()) return;
  uint64_t proof = 1, sum_pn = 0;
  uint32_t min_dn = kInfiniteNumber;
  bool all_won = true;
  for (const SplitNode& k : n.kids) {
    if (k.verdict == Verdict::Loss) {  // whatever the kids before it
      n.verdict = Verdict::Win;
      n.win_move = k.move;
      n.proof_size = 1 + k.proof_size;
      n.pn = 0;
      n.dn = kInfiniteNumber;
      return;
    }
    all_won &= k.verdict == Verdict::Win;
    proof += k.proof_size;
    min_dn = std::min(min_dn, k.dn);
    sum_pn += k.pn;
  }
  n.pn = min_dn;
  n.dn = uint32_t(std::min<uint64_t>(sum_pn, kInfiniteNumber));
  if (!all_won) return;
  n.verdict = Verdict::Loss;  // every move loses
  n.proof_size = proof;
}

// At the end: the kids' figures added to their parents'.
void fold(SplitNode& n) {
  for (SplitNode& k : n.kids) {
    fold(k);
    n.stats.add(k.stats);
    k.stats = SolveStats{};  // counted once
  }
}

// A root's answer for the player of the move that made it: the verdict
// turned round, and the proof with that move's node on top (0: none).
Verdict move_verdict(const SplitNode& root) {
  return root.verdict == Verdict::Win ? Verdict::Loss : root.verdict == Verdict::Loss ? Verdict::Win : Verdict::Unknown;
}
uint64_t move_proof_size(const SplitNode& root) { return root.proof_size ? root.proof_size + 1 : 0; }

bool still_needed(const SplitLeaf& leaf) {
  if (leaf.node->verdict != Verdict::Unknown) return false;
  for (const SplitNode* a : leaf.path)
    if (a->verdict != Verdict::Unknown) return false;
  return true;
}

}  // namespace

void Solver::expand(SplitNode& n) {
  auto syms = position_symmetries(g_, n.pos);
  std::vector<int> moves;
  for (Bits e = g_.board() & ~n.pos.occupied(); e; e &= e - 1) {
    int p = lowest(e);
    MoveKind kind = classify_move(g_, n.pos, n.pos.to_move, p);
    if (kind == MoveKind::Capture) {
      n.verdict = Verdict::Win;
      n.win_move = p;
      n.proof_size = 1;
      n.pn = 0;
      n.dn = kInfiniteNumber;
      return;
    }
    if (kind == MoveKind::Normal && representative(syms, p) == p) moves.push_back(p);
  }
  if (moves.empty()) {
    n.verdict = Verdict::Loss;
    n.proof_size = 1;
    n.pn = kInfiniteNumber;
    n.dn = 0;
    return;
  }
  sort_centre_first(g_, &moves);
  n.kids.resize(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    SplitNode& k = n.kids[i];
    k.pos = with_stone(n.pos, moves[i]);
    k.move = moves[i];
    // A deepened line's searches have already valued these positions.
    if (n.deepened) estimate(k.pos, &k.pn, &k.dn);
  }
  decide(n);
}

SplitNode* Solver::select(SplitNode& n, int depth, std::vector<SplitNode*>* path, bool first_only) {
  if (n.verdict != Verdict::Unknown) return nullptr;
  if (depth <= 0 && !n.deepened) return n.busy ? nullptr : &n;
  const int below = n.deepened ? 1 : depth;  // plies from n to its leaves
  if (n.kids.empty()) {
    expand(n);
    if (n.verdict != Verdict::Unknown) return nullptr;
  }
  // The kid whose loss would prove this node (smallest disproof number)
  // first, as df-pn picks a child; one being searched gives way to the next.
  std::vector<SplitNode*> order;
  for (SplitNode& k : n.kids)
    if (k.verdict == Verdict::Unknown) order.push_back(&k);
  std::stable_sort(order.begin(), order.end(), [](const SplitNode* a, const SplitNode* b) { return a->dn < b->dn; });
  // Among leaves, the one searched longest keeps its turn while its
  // disproof number stays within split_stick of the smallest: a leaf's
  // numbers grow with its budget, so two leaves of a choice would
  // otherwise take turns, each search of one several times the last of the
  // other, and the one that does not prove the node costs about what the
  // one that does.
  if (opt_.split_stick > 0 && below == 1 && order.size() > 1) {
    auto most = std::max_element(order.begin(), order.end(),
                                 [](const SplitNode* a, const SplitNode* b) { return a->budget < b->budget; });
    if ((*most)->budget > 0 && double((*most)->dn) <= double(order[0]->dn) * (1 + opt_.split_stick))
      std::rotate(order.begin(), most, most + 1);
  }
  path->push_back(&n);
  for (SplitNode* k : order) {
    if (SplitNode* leaf = select(*k, below - 1, path, first_only)) return leaf;
    // The kid may have been settled on the way (its expansion found a
    // capture, or all its kids were settled so).
    decide(n);
    if (n.verdict != Verdict::Unknown || first_only) break;
  }
  path->pop_back();
  return nullptr;
}

void Solver::run_best_first(std::vector<SplitNode>& roots, const std::vector<int>& root_moves, int depth,
                            Clock::time_point end) {
  // A leaf's first search is short, about the same in all at every depth
  // (each ply of splitting multiplies the leaves by some 16 to 30 moves,
  // most of them settled in a few nodes by the tactics); each further
  // search of it has four times the budget, so that a leaf the numbers keep
  // choosing gets most of the work, yet one whose numbers mislead costs at
  // most a few times what the others got.  Budgets count nodes, not
  // seconds (200,000 nodes: about half a second), so that a one-thread run
  // does the same search, and plays the same moves, on any machine and
  // under any load.
  uint64_t first = opt_.split_first_nodes;
  if (first == 0) {
    first = 200'000;
    for (int d = 0; d < depth; ++d) first /= 16;
    first = std::max<uint64_t>(first, 1'000);
  }
  const uint64_t growth = uint64_t(std::max(2, opt_.split_growth));
  std::mutex mu;
  size_t next_root = 0;  // the roots take turns
  std::vector<std::shared_ptr<SplitLeaf>> running;
  std::vector<bool> reported(roots.size(), false);
  auto report = [&] {
    if (!opt_.on_classified) return;
    for (size_t i = 0; i < roots.size(); ++i)
      if (roots[i].verdict != Verdict::Unknown && !reported[i] && root_moves[i] >= 0) {
        reported[i] = true;
        opt_.on_classified(root_moves[i], move_verdict(roots[i]), move_proof_size(roots[i]));
      }
  };
  auto work = [&](int thread) {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      const auto now = Clock::now();
      if (now >= end) return;
      std::shared_ptr<SplitLeaf> run;
      // A root's most proving line first; only when every root's is being
      // searched, a line the numbers rank lower.  Where one move of the
      // root's mover is enough, the second line is wasted once the first
      // is proved: B5's refutation C4 on the empty 6x6, searched beside its
      // reply D4 for 51.2M nodes in some runs, not in others, while C5's
      // lines, all needed, waited.
      for (bool first_only : {true, false})
        for (size_t i = 0; i < roots.size() && !run; ++i) {
          SplitNode& root = roots[(next_root + i) % roots.size()];
          std::vector<SplitNode*> path;
          if (SplitNode* leaf = select(root, depth, &path, first_only)) {
            next_root = (next_root + i + 1) % roots.size();
            run = std::make_shared<SplitLeaf>();
            run->node = leaf;
            run->path = std::move(path);
          }
        }
      report();  // roots the expansions settled
      if (run) {
        SplitNode& leaf = *run->node;
        leaf.busy = true;
        leaf.budget = leaf.budget > 0 ? std::min<uint64_t>(leaf.budget, uint64_t(1) << 56) * growth : first;
        run->control.max_nodes = opt_.max_nodes ? std::min(opt_.max_nodes, leaf.budget) : leaf.budget;
        run->control.has_deadline = true;
        run->control.deadline = end;
        running.push_back(run);
        lock.unlock();
        SolveResult r = search(leaf.pos, run->control, 1);
        uint32_t pn = 0, dn = kInfiniteNumber;
        if (r.verdict == Verdict::Loss) std::swap(pn, dn);
        // An open leaf's numbers are those its search got to.  Read from
        // the table they were stale: the nodes a search stops in keep their
        // older entries, and where the search never came back up to the
        // leaf's children (one move not lost at once), the leaf kept the
        // numbers of its first search whatever its budget (6x6 C4+D5,
        // White's C5 after Black's B6 at "pn 565 dn 30" from 8,000 to 4M
        // nodes, split two plies, one thread: 66M nodes to the proof, 37M
        // with the search's numbers).
        if (r.verdict == Verdict::Unknown) pn = r.pn, dn = r.dn;
        lock.lock();
        running.erase(std::find(running.begin(), running.end(), run));
        leaf.busy = false;
        leaf.stats.add(r.stats);
        leaf.verdict = r.verdict;
        if (r.verdict == Verdict::Win) leaf.win_move = r.move;
        leaf.proof_size = r.proof_size;
        leaf.pn = pn;
        leaf.dn = dn;
        decide(leaf);  // deepened while searched: its lines' numbers
        if (opt_.on_leaf_searched) {
          LeafSearch ls;
          const SplitNode* top = run->path.empty() ? &leaf : run->path.front();
          if (int m = root_moves[size_t(top - roots.data())]; m >= 0) ls.line.push_back(m);
          for (const SplitNode* a : run->path)
            if (a != top) ls.line.push_back(a->move);
          if (&leaf != top) ls.line.push_back(leaf.move);
          ls.budget = leaf.budget;
          ls.nodes = r.stats.nodes;
          ls.verdict = r.verdict;
          ls.pn = pn;
          ls.dn = dn;
          ls.cpu_seconds = r.stats.cpu_seconds;
          ls.proof_cpu_seconds = r.stats.proof_cpu_seconds;
          opt_.on_leaf_searched(ls);
        }
        for (auto a = run->path.rbegin(); a != run->path.rend(); ++a) decide(**a);
        report();
        // Searches whose answer nobody needs any more stop.
        for (const auto& other : running)
          if (!still_needed(*other)) other->control.stop = true;
        continue;
      }
      // Nothing left to start.  The search with the largest budget, when
      // that budget is large and its mover looks lost (every move of it
      // is to be refuted), is split one ply further: its search stops, and
      // the threads take its moves.  Else this thread joins the oldest
      // search still running.
      std::shared_ptr<SplitLeaf> largest;
      for (const auto& r : running)
        if (!r->control.stop.load() && (!largest || r->node->budget > largest->node->budget)) largest = r;
      if (largest && opt_.split_deepen_nodes > 0 && largest->node->budget >= opt_.split_deepen_nodes) {
        uint32_t pn, dn;  // as the running search has left them so far
        estimate(largest->node->pos, &pn, &dn);
        if (pn > dn) {
          largest->node->deepened = true;
          largest->control.stop = true;
          continue;
        }
      }
      for (const auto& r : running)
        if (!r->control.stop.load()) {
          run = r;
          break;
        }
      if (!run) return;
      lock.unlock();
      SolveStats s = help(run->node->pos, run->control, uint64_t(thread) * 0x9e3779b97f4a7c15ull);
      lock.lock();
      s.seconds = 0;  // the search's own wall time counts once
      run->node->stats.add(s);
    }
  };
  const int n = std::max(1, opt_.threads);
  run_on_threads(n, work);
  for (SplitNode& r : roots) fold(r);
}

SolveResult Solver::solve_split(const Position& pos) {
  const auto t0 = Clock::now();
  const double c0 = process_cpu_seconds();
  const auto end = opt_.seconds > 0 ? deadline_after(opt_.seconds) : Clock::time_point::max();
  // The position itself is the one root (no move made it), its leaves
  // split_depth plies below it.
  std::vector<SplitNode> root(1);
  root[0].pos = pos;
  run_best_first(root, {-1}, opt_.split_depth, end);
  const SplitNode& r = root[0];
  SolveResult res;
  res.verdict = r.verdict;
  res.proof_size = r.proof_size;
  res.stats = r.stats;
  res.stats.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  res.stats.cpu_seconds = process_cpu_seconds() - c0;
  res.move = r.win_move;
  res.pn = r.pn;
  res.dn = r.dn;
  return res;
}

std::vector<MoveResult> Solver::solve_all_moves(const Position& pos, SolveStats* total) {
  const auto t0 = Clock::now();
  const double c0 = process_cpu_seconds();
  std::vector<MoveResult> out;
  auto syms = position_symmetries(g_, pos);
  auto t_end = opt_.seconds > 0 ? deadline_after(opt_.seconds) : Clock::time_point::max();
  // Moves equivalent under a symmetry share one search: rep[p] is the
  // smallest image of p.
  std::vector<int> todo;
  std::vector<int> rep(128, -1);
  std::vector<int> asked;  // representatives of opt_.only_moves
  for (int q : opt_.only_moves) asked.push_back(representative(syms, q));
  Bits empty = g_.board() & ~pos.occupied();
  for (Bits e = empty; e; e &= e - 1) {
    int p = lowest(e);
    int r = representative(syms, p);
    rep[p] = r;
    MoveResult mr{p, Verdict::Unknown, "", 0, 1, 1, {}, true};
    switch (classify_move(g_, pos, pos.to_move, p)) {
      case MoveKind::Capture: mr.verdict = Verdict::Win; mr.reason = "capture"; break;
      case MoveKind::Suicide: mr.verdict = Verdict::Loss; mr.reason = "suicide (illegal)"; break;
      default: {
        Position next = with_stone(pos, p);
        Bits theirs = next.stones(pos.to_move);
        Bits emp = g_.board() & ~next.occupied();
        for (Bits s = theirs; s;) {  // a chain of the mover left in atari is captured
          Bits ch = g_.chain(s, lowest(s));
          s &= ~ch;
          if (popcount(g_.neighbours(ch) & emp) == 1) {
            mr.verdict = Verdict::Loss;
            mr.reason = (ch & bit(p)) ? "self-atari" : "leaves a chain in atari";
            break;
          }
        }
        if (mr.verdict != Verdict::Unknown) break;
        if (!asked.empty() && std::find(asked.begin(), asked.end(), r) == asked.end()) {
          mr.asked = false;
          mr.reason = "not asked";
        }
        else if (r == p)
          todo.push_back(p);
      }
    }
    out.push_back(mr);
  }
  // Central moves first: on an empty board they are the likely wins (Black
  // wins the empty 6x6 with a move near the centre), and a pass that runs out
  // of time has then spent it on them.
  sort_centre_first(g_, &todo);
  std::vector<SplitNode> nodes(todo.size());
  for (size_t i = 0; i < todo.size(); ++i) nodes[i].pos = with_stone(pos, todo[i]);
  run_best_first(nodes, todo, opt_.split_depth - 1, t_end);
  for (size_t i = 0; i < todo.size(); ++i)
    for (auto& m : out)
      if (m.move == todo[i]) {
        const SplitNode& n = nodes[i];
        m.stats = n.stats;
        m.stats.moves_played += 1;
        m.proof_size = move_proof_size(n);
        m.verdict = move_verdict(n);
        m.pn = n.dn;  // n's numbers are for the reply's player
        m.dn = n.pn;
      }
  // Symmetric copies take the answer of their representative.
  for (auto& m : out) {
    int r = rep[m.move];
    if (r == m.move || m.reason.size()) continue;
    for (auto& src : out)
      if (src.move == r) {
        m.verdict = src.verdict;
        m.proof_size = src.proof_size;
        m.pn = src.pn;
        m.dn = src.dn;
        m.reason = "symmetric to " + g_.name(r);
      }
  }
  if (total) {
    *total = SolveStats{};
    for (const MoveResult& m : out) total->add(m.stats);
    total->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    total->cpu_seconds = process_cpu_seconds() - c0;
  }
  return out;
}

}  // namespace sgfpat::solve

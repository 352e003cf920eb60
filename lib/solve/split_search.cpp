// Solving every move of a position: the moves (and, with a split depth,
// their replies) solved one by one by separate proving searches that share
// the transposition table, in passes of growing budgets.
#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "core/cpu_time.h"
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
// each by its own search (or split again), so that the budget goes to every
// move in turn instead of to the most promising one only.
struct SplitNode {
  Position pos;
  Verdict verdict = Verdict::Unknown;  // for pos.to_move
  uint64_t proof_size = 0;
  SolveStats stats;
  std::vector<SplitNode> kids;  // one per legal move up to the position's symmetries, centre first
                                // (an open node has some once split: one with none is lost)
};

// A position a pass searches, with the split nodes above it (outermost
// first): it is skipped once one of them is settled.
struct SplitLeaf {
  SplitNode* node;
  std::vector<SplitNode*> path;
};

namespace {

// Settles an open split node when its kids decide it (kids kept: other
// threads may still point into them).
void decide(SplitNode& n) {
  if (n.verdict != Verdict::Unknown || n.kids.empty()) return;
  uint64_t proof = 1;
  bool all_won = true;
  for (const SplitNode& k : n.kids) {
    if (k.verdict == Verdict::Loss) {  // whatever the kids before it
      n.verdict = Verdict::Win;
      n.proof_size = 1 + k.proof_size;
      return;
    }
    all_won &= k.verdict == Verdict::Win;
    proof += k.proof_size;
  }
  if (!all_won) return;
  n.verdict = Verdict::Loss;  // every move loses
  n.proof_size = proof;
}

// After a pass: the kids' figures added to their parents', settled nodes'
// kids dropped.
void fold(SplitNode& n) {
  for (SplitNode& k : n.kids) {
    fold(k);
    n.stats.add(k.stats);
    k.stats = SolveStats{};  // counted once
  }
  if (n.verdict != Verdict::Unknown) n.kids.clear();
}

bool still_needed(const SplitLeaf& leaf) {
  if (leaf.node->verdict != Verdict::Unknown) return false;
  for (const SplitNode* a : leaf.path)
    if (a->verdict != Verdict::Unknown) return false;
  return true;
}

// One search of a pass, which idle threads may join.
struct RunningLeaf {
  const SplitLeaf* leaf;
  SearchControl control;
};

}  // namespace

void Solver::gather(SplitNode& n, int depth, std::vector<SplitNode*>* path, std::vector<SplitLeaf>* out) {
  if (n.verdict != Verdict::Unknown) return;
  if (depth <= 0) {
    out->push_back(SplitLeaf{&n, *path});
    return;
  }
  if (n.kids.empty()) {
    auto syms = position_symmetries(g_, n.pos);
    std::vector<int> moves;
    for (Bits e = g_.board() & ~n.pos.occupied(); e; e &= e - 1) {
      int p = lowest(e);
      MoveKind kind = classify_move(g_, n.pos, n.pos.to_move, p);
      if (kind == MoveKind::Capture) {
        n.verdict = Verdict::Win;
        n.proof_size = 1;
        return;
      }
      if (kind == MoveKind::Normal && representative(syms, p) == p) moves.push_back(p);
    }
    if (moves.empty()) {
      n.verdict = Verdict::Loss;
      n.proof_size = 1;
      return;
    }
    sort_centre_first(g_, &moves);
    for (int p : moves) n.kids.push_back(SplitNode{with_stone(n.pos, p), Verdict::Unknown, 0, {}, {}});
  }
  path->push_back(&n);
  for (SplitNode& k : n.kids) gather(k, depth - 1, path, out);
  path->pop_back();
  decide(n);
}

void Solver::run_leaves(std::vector<SplitLeaf>& leaves, double budget, Clock::time_point end) {
  std::mutex mu;
  size_t next = 0;
  std::vector<std::shared_ptr<RunningLeaf>> running;
  auto work = [&](int thread) {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      while (next < leaves.size() && !still_needed(leaves[next])) ++next;
      const auto now = Clock::now();
      if (now >= end) return;
      if (next < leaves.size()) {
        SplitLeaf& leaf = leaves[next++];
        auto run = std::make_shared<RunningLeaf>();
        run->leaf = &leaf;
        run->control.max_nodes = opt_.max_nodes;
        run->control.has_deadline = true;
        run->control.deadline =
            std::min(end, now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget)));
        running.push_back(run);
        lock.unlock();
        SolveResult r = search(leaf.node->pos, run->control, 1);
        lock.lock();
        running.erase(std::find(running.begin(), running.end(), run));
        leaf.node->stats.add(r.stats);
        leaf.node->verdict = r.verdict;
        leaf.node->proof_size = r.proof_size;
        for (auto a = leaf.path.rbegin(); a != leaf.path.rend(); ++a) decide(**a);
        // Searches whose answer nobody needs any more stop.
        for (const auto& other : running)
          if (!still_needed(*other->leaf)) other->control.stop = true;
        continue;
      }
      // Nothing left to start: join the oldest search still running.
      std::shared_ptr<RunningLeaf> run;
      for (const auto& r : running)
        if (!r->control.stop.load()) {
          run = r;
          break;
        }
      if (!run) return;
      lock.unlock();
      SolveStats s = help(run->leaf->node->pos, run->control, uint64_t(thread) * 0x9e3779b97f4a7c15ull);
      lock.lock();
      s.seconds = 0;  // the search's own wall time counts once
      run->leaf->node->stats.add(s);
    }
  };
  const int n = std::max(1, opt_.threads);
  std::vector<std::thread> threads;
  for (int i = 1; i < n; ++i) threads.emplace_back(work, i);
  work(0);
  for (auto& t : threads) t.join();
}

std::vector<MoveResult> Solver::solve_all_moves(const Position& pos, SolveStats* total) {
  const auto t0 = Clock::now();
  const double c0 = process_cpu_seconds();
  std::vector<MoveResult> out;
  auto syms = position_symmetries(g_, pos);
  auto t_end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(opt_.seconds > 0 ? opt_.seconds : 1e9));
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
    MoveResult mr{p, Verdict::Unknown, "", 0, {}};
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
        if (!asked.empty() && std::find(asked.begin(), asked.end(), r) == asked.end())
          mr.reason = "not asked";
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
  // Passes of growing budgets over the open moves, the table kept between
  // them, so that one hard move does not starve the others.
  // A first pass of about the same total at every depth: each ply of
  // splitting multiplies the searches by some 16 to 30 moves, most of them
  // settled in milliseconds by the tactics.
  double first = 0.5;
  for (int d = 1; d < opt_.split_depth; ++d) first /= 16;
  for (double budget = std::max(first, 0.002);; budget *= 4) {
    std::vector<SplitLeaf> leaves;
    std::vector<SplitNode*> path;
    for (SplitNode& n : nodes) gather(n, opt_.split_depth - 1, &path, &leaves);
    run_leaves(leaves, budget, t_end);
    bool open = false;
    for (SplitNode& n : nodes) {
      fold(n);
      open |= n.verdict == Verdict::Unknown;
    }
    if (!open || Clock::now() >= t_end) break;
  }
  for (size_t i = 0; i < todo.size(); ++i)
    for (auto& m : out)
      if (m.move == todo[i]) {
        const SplitNode& n = nodes[i];
        m.stats = n.stats;
        m.stats.moves_played += 1;
        m.proof_size = n.proof_size ? n.proof_size + 1 : 0;
        m.verdict = n.verdict == Verdict::Win ? Verdict::Loss : n.verdict == Verdict::Loss ? Verdict::Win
                                                                                         : Verdict::Unknown;
      }
  // Symmetric copies take the answer of their representative.
  for (auto& m : out) {
    int r = rep[m.move];
    if (r == m.move || m.reason.size()) continue;
    for (auto& src : out)
      if (src.move == r) {
        m.verdict = src.verdict;
        m.proof_size = src.proof_size;
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

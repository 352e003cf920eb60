#include "solve/atari_player.h"

#include <climits>

namespace sgfpat::solve {

const char* choice_source_name(ChoiceSource s) {
  switch (s) {
    case ChoiceSource::Capture: return "capture";
    case ChoiceSource::Table: return "table";
    case ChoiceSource::Search: return "search";
    case ChoiceSource::Heuristic: return "heuristic";
    case ChoiceSource::None: break;
  }
  return "none";
}

namespace {

// The table's best move among `moves` (none of them a capture); false when
// the table does not hold every child (another size, or moves out of turn).
bool table_choice(const Geometry& g, const Position& pos, const std::vector<int>& moves, const TableReader& table,
                  AtariChoice* out, std::string* error) {
  int best_win = -1, best_win_distance = INT_MAX, best_loss = -1, best_loss_distance = -1;
  for (int p : moves) {
    bool found = false;
    TableValue v;
    Status st = table.lookup(g, with_stone(pos, p), &found, &v);
    if (!st.ok()) {
      if (error) *error = st.message();
      return false;
    }
    if (!found) return false;
    if (!v.win && v.distance < best_win_distance) best_win = p, best_win_distance = v.distance;
    if (v.win && v.distance > best_loss_distance) best_loss = p, best_loss_distance = v.distance;
  }
  if (best_win >= 0) {
    *out = {best_win, Verdict::Win, ChoiceSource::Table, best_win_distance + 1, {}};
  } else {
    *out = {best_loss, Verdict::Loss, ChoiceSource::Table, best_loss_distance + 1, {}};
  }
  return true;
}

// The tactics' best move that a short capture search does not refute (the
// first listed one if all are refuted); -1 if the tactics list none.
int resisting_move(const Geometry& g, const Position& pos) {
  const Bits mine = pos.stones(pos.to_move), theirs = pos.stones(opponent(pos.to_move));
  NodeTactics nt;
  analyse_node(g, mine, theirs, &nt);
  for (const Candidate& c : nt.moves) {
    uint64_t played = 0;
    int first = -1;
    if (!capture_search(g, theirs, mine | bit(c.point), 7, &played, &first)) return c.point;
  }
  return nt.moves.empty() ? -1 : nt.moves.front().point;
}

}  // namespace

AtariChoice choose_atari_move(const Geometry& g, const Position& pos, const AtariPlayOptions& options,
                              std::string* table_error) {
  std::vector<int> moves;
  for (Bits empty = g.board() & ~pos.occupied(); empty; empty &= empty - 1) {
    const int p = lowest(empty);
    const MoveKind k = classify_move(g, pos, pos.to_move, p);
    if (k == MoveKind::Capture) return {p, Verdict::Win, ChoiceSource::Capture, 1, {}};
    if (k == MoveKind::Normal) moves.push_back(p);
  }
  if (moves.empty()) return {-1, Verdict::Loss, ChoiceSource::None, 0, {}};

  AtariChoice choice;
  if (options.table && table_choice(g, pos, moves, *options.table, &choice, table_error)) return choice;

  SolveOptions so = options.search;
  so.count_proof = false;  // a move is wanted, not the proof's size
  Solver solver(g, so);
  SolveResult r = solver.solve(pos);
  choice.stats = r.stats;
  if (r.verdict == Verdict::Win && r.move >= 0) {
    choice.move = r.move;
    choice.verdict = Verdict::Win;
    choice.source = ChoiceSource::Search;
    return choice;
  }
  choice.verdict = r.verdict;  // Loss (proved) or Unknown
  choice.source = ChoiceSource::Heuristic;
  choice.move = resisting_move(g, pos);
  if (choice.move < 0) choice.move = moves.front();  // only self-ataris are left
  return choice;
}

}  // namespace sgfpat::solve

#include "search/continuations.h"

#include <algorithm>
#include <map>

#include "search/symmetry.h"

namespace sgfpat {

std::vector<int> board_stabilizer(const Board& board) {
  std::vector<int> syms;
  const int n = board.size();
  for (int s = 0; s < kSymmetries; ++s) {
    bool same = true;
    for (int y = 0; y < n && same; ++y)
      for (int x = 0; x < n && same; ++x) {
        const Point p{int8_t(x), int8_t(y)};
        same = board.at(apply_symmetry(s, p, n)) == board.at(p);
      }
    if (same) syms.push_back(s);
  }
  return syms;
}

std::vector<Continuation> continuations(const std::vector<PositionHit>& hits, const Board& query) {
  const int n = query.size();
  const std::vector<int> stab = board_stabilizer(query);
  // Key: point order y * n + x of the representative; -1 a pass.
  std::map<int, Continuation> by_move;
  for (const PositionHit& h : hits) {
    if (!h.has_next) continue;
    int key = -1;
    if (!h.next.is_pass()) {
      key = n * n;
      for (int s : stab) {
        const Point q = apply_symmetry(s, h.next, n);
        key = std::min(key, q.y * n + q.x);
      }
    }
    Continuation& c = by_move[key];
    c.move = key < 0 ? kPass : Point{int8_t(key % n), int8_t(key / n)};
    ++c.count;
    if (h.mover_won()) ++c.wins;
  }
  std::vector<Continuation> out;
  for (auto& [key, c] : by_move) out.push_back(c);
  std::stable_sort(out.begin(), out.end(), [](const Continuation& a, const Continuation& b) {
    return a.count != b.count ? a.count > b.count : a.wins > b.wins;
  });
  return out;
}

}  // namespace sgfpat

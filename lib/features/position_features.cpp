#include "features/position_features.h"

namespace sgfpat {

void setup_tactics(const Board& board, Color mover, const RecentMoves& recent, sgfpat_priors::Tactics* tactics) {
  const int n = board.size();
  uint8_t cells[kMaxBoardSize * kMaxBoardSize];
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) cells[y * n + x] = uint8_t(board.at(Point{int8_t(x), int8_t(y)}));
  tactics->setup(cells, n, int(mover), feature_point(recent.last, n), feature_point(recent.before_last, n));
}

RecentMoves recent_moves(const Game& game, int moves_played) {
  RecentMoves recent;
  int seen = 0;
  for (const Action& a : game.actions)
    if (a.kind == Action::Kind::Play && seen++ < moves_played) recent.push(a.point);
  return recent;
}

}  // namespace sgfpat

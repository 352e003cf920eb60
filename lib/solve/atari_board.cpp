#include "solve/atari_board.h"

#include <cctype>

#include "board/board.h"

namespace sgfpat::solve {

Geometry::Geometry(int width, int height) : width_(width), height_(height) {
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) board_ |= bit(index(x, y));
  fits64_ = (board_ >> 64) == 0;
}

std::string Geometry::name(int i) const {
  int x = x_of(i), y = y_of(i);
  char col = char('A' + x + (x >= 8 ? 1 : 0));
  return std::string(1, col) + std::to_string(height_ - y);
}

bool Geometry::parse(const std::string& text, int* out) const {
  if (text.size() < 2) return false;
  char c = char(std::toupper(static_cast<unsigned char>(text[0])));
  if (c < 'A' || c > 'Z' || c == 'I') return false;
  int x = c - 'A' - (c > 'I' ? 1 : 0);
  int row = 0;
  for (size_t k = 1; k < text.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(text[k]))) return false;
    row = row * 10 + (text[k] - '0');
    if (row > 99) return false;
  }
  int y = height_ - row;
  if (x >= width_ || y < 0 || y >= height_) return false;
  *out = index(x, y);
  return true;
}

// The engine's words are indexed by its own dense index; any fixed injective
// map of our points into that range keeps them independent.
uint64_t stone_key(Color c, int point) { return position_zobrist(c, point); }

uint64_t position_key(const Position& pos) {
  uint64_t k = pos.to_move == Color::White ? kWhiteToMoveKey : 0;
  for (Bits b = pos.black; b; b &= b - 1) k ^= stone_key(Color::Black, lowest(b));
  for (Bits b = pos.white; b; b &= b - 1) k ^= stone_key(Color::White, lowest(b));
  return k;
}

MoveKind classify_move(const Geometry& g, const Position& pos, Color mover, int p) {
  Bits occ = pos.occupied();
  if (occ & bit(p)) return MoveKind::Occupied;
  Bits empty = g.board() & ~occ & ~bit(p);
  Bits theirs = pos.stones(opponent(mover));
  for (Bits n = g.neighbours(bit(p)) & theirs; n; n &= n - 1) {
    Bits ch = g.chain(theirs, lowest(n));
    if ((g.neighbours(ch) & empty) == 0) return MoveKind::Capture;
  }
  Bits mine = pos.stones(mover) | bit(p);
  if ((g.neighbours(g.chain(mine, p)) & empty) == 0) return MoveKind::Suicide;
  return MoveKind::Normal;
}

void list_chains(const Geometry& g, Bits stones, Bits empty, std::vector<ChainLibs>* out) {
  while (stones) {
    Bits ch = g.chain(stones, lowest(stones));
    out->push_back(ChainLibs{ch, g.neighbours(ch) & empty});
    stones &= ~ch;
  }
}

bool has_dead_chain(const Geometry& g, Bits stones, Bits empty) {
  while (stones) {
    Bits ch = g.chain(stones, lowest(stones));
    if ((g.neighbours(ch) & empty) == 0) return true;
    stones &= ~ch;
  }
  return false;
}

Status parse_rows(const std::string& text, Geometry* g, Position* pos) {
  std::vector<std::string> rows(1);
  for (char c : text) {
    if (c == '/' || c == '\n') {
      if (!rows.back().empty()) rows.emplace_back();
    } else if (c == ' ' || c == '\t' || c == '\r') {
      continue;
    } else {
      rows.back().push_back(c);
    }
  }
  if (rows.back().empty()) rows.pop_back();
  int h = int(rows.size());
  int w = h ? int(rows[0].size()) : 0;
  if (!Geometry::valid_size(w, h))
    return Status::InvalidInput("board of " + std::to_string(w) + "x" + std::to_string(h) +
                         ": atari-go boards are 2x2 to 9x9");
  Geometry geo(w, h);
  Position p;
  for (int y = 0; y < h; ++y) {
    if (int(rows[y].size()) != w)
      return Status::InvalidInput("row " + std::to_string(y + 1) + " has " + std::to_string(rows[y].size()) +
                           " points, the first row has " + std::to_string(w));
    for (int x = 0; x < w; ++x) {
      char c = rows[y][x];
      if (c == 'X' || c == 'x' || c == 'B' || c == '#')
        p.black |= bit(geo.index(x, y));
      else if (c == 'O' || c == 'o' || c == 'W')
        p.white |= bit(geo.index(x, y));
      else if (c != '.' && c != '+')
        return Status::InvalidInput(std::string("row ") + std::to_string(y + 1) + ": unknown point '" + c +
                             "' (use . X O)");
    }
  }
  Bits empty = geo.board() & ~p.occupied();
  if (has_dead_chain(geo, p.black, empty) || has_dead_chain(geo, p.white, empty))
    return Status::InvalidInput("a chain without liberties: in atari-go the game ended at that capture");
  *g = geo;
  *pos = p;
  return Status::OK();
}

Status from_board(const Board& board, Color to_move, Geometry* g, Position* pos) {
  int n = board.size();
  if (!Geometry::valid_size(n, n))
    return Status::InvalidInput("a " + std::to_string(n) + "x" + std::to_string(n) + " board: atari-go boards are 2x2 to 9x9");
  if (board.captures(Color::Black) || board.captures(Color::White))
    return Status::InvalidInput("stones were captured already: the atari-go game ended at the first capture");
  Geometry geo(n, n);
  Position p;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      Color c = board.at(Point{int8_t(x), int8_t(y)});
      if (c == Color::Black) p.black |= bit(geo.index(x, y));
      if (c == Color::White) p.white |= bit(geo.index(x, y));
    }
  p.to_move = to_move;
  *g = geo;
  *pos = p;
  return Status::OK();
}

std::string to_rows(const Geometry& g, const Position& pos) {
  std::string s;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      Bits b = bit(g.index(x, y));
      s += (pos.black & b) ? 'X' : (pos.white & b) ? 'O' : '.';
    }
    s += '\n';
  }
  return s;
}

}  // namespace sgfpat::solve

// Unit and property tests of Board, written from the contract in board.h and
// docs/patterns.md.  Expected values are worked out by hand in the
// comments, or computed by the small brute-force reference engine below.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "board/board.h"
#include "go_names.h"

using namespace sgfpat;
using namespace testnames;

namespace {

using testnames::pt;
Point pt(const Board& b, const std::string& name) { return pt(b.size(), name); }
int idx(const Board& b, const std::string& name) { return b.index(pt(b, name)); }

// Plays each named move for `c`; every one must be legal.
void play(Board& b, Color c, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    INFO("playing ", color_char(c), " ", n);
    REQUIRE(b.play(pt(b, n), c) == MoveError::None);
  }
}

// A board set up from a diagram, top row first: X black, O white, . empty.
Board diagram(const std::vector<std::string>& rows) {
  Board b(int(rows.size()));
  for (int y = 0; y < b.size(); ++y) {
    REQUIRE(int(rows[y].size()) == b.size());
    for (int x = 0; x < b.size(); ++x) {
      char ch = rows[y][x];
      if (ch == 'X') b.setup(Point{int8_t(x), int8_t(y)}, B);
      if (ch == 'O') b.setup(Point{int8_t(x), int8_t(y)}, W);
    }
  }
  return b;
}

std::set<int> indices(const Board& b, std::initializer_list<const char*> names) {
  std::set<int> s;
  for (const char* n : names) s.insert(idx(b, n));
  return s;
}
std::set<int> as_set(const std::vector<int>& v) { return std::set<int>(v.begin(), v.end()); }

// --- brute force from at() only ---

struct Flood {
  int stones = 0;
  int libs = 0;
};

// Flood fill of the chain at p, reading the board only through at().
Flood flood(const Board& b, Point p) {
  Flood f;
  Color c = b.at(p);
  if (c == E) return f;
  int n = b.size();
  std::vector<char> seen(n * n, 0), lib(n * n, 0);
  std::vector<Point> stack{p};
  seen[p.y * n + p.x] = 1;
  while (!stack.empty()) {
    Point s = stack.back();
    stack.pop_back();
    ++f.stones;
    const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    for (int k = 0; k < 4; ++k) {
      Point q{int8_t(s.x + dx[k]), int8_t(s.y + dy[k])};
      if (q.x < 0 || q.y < 0 || q.x >= n || q.y >= n) continue;
      int qi = q.y * n + q.x;
      if (b.at(q) == E && !lib[qi]) {
        lib[qi] = 1;
        ++f.libs;
      } else if (b.at(q) == c && !seen[qi]) {
        seen[qi] = 1;
        stack.push_back(q);
      }
    }
  }
  return f;
}

uint64_t hash_from_scratch(const Board& b) {
  uint64_t h = 0;
  for (int y = 0; y < b.size(); ++y)
    for (int x = 0; x < b.size(); ++x) {
      Point p{int8_t(x), int8_t(y)};
      if (b.at(p) != E) h ^= position_zobrist(b.at(p), b.index(p));
    }
  return h;
}

// Checks every stone's liberties, chain size and atari flag against flood().
void check_chains(const Board& b) {
  int black = 0, white = 0;
  for (int y = 0; y < b.size(); ++y)
    for (int x = 0; x < b.size(); ++x) {
      Point p{int8_t(x), int8_t(y)};
      if (b.at(p) == E) {
        CHECK(b.liberties(p) == 0);
        CHECK(b.chain_size(p) == 0);
        continue;
      }
      (b.at(p) == B ? black : white)++;
      Flood f = flood(b, p);
      INFO("stone at ", x, ",", y);
      CHECK(b.liberties(p) == f.libs);
      CHECK(b.chain_size(p) == f.stones);
      CHECK(b.in_atari_index(b.index(p)) == (f.libs == 1));
    }
  CHECK(b.stone_count(B) == black);
  CHECK(b.stone_count(W) == white);
  CHECK(b.hash() == hash_from_scratch(b));
}

// --- an independent, slow reference engine for the property tests ---

class RefGo {
 public:
  explicit RefGo(int n) : n_(n), g_(n * n, E) { seen_.insert(g_); }

  int size() const { return n_; }
  Color at(int i) const { return g_[i]; }
  int ko() const { return ko_; }
  int captures(Color c) const { return c == B ? cap_b_ : cap_w_; }

  std::vector<int> neighbours(int i) const {
    std::vector<int> out;
    int x = i % n_, y = i / n_;
    if (x > 0) out.push_back(i - 1);
    if (x + 1 < n_) out.push_back(i + 1);
    if (y > 0) out.push_back(i - n_);
    if (y + 1 < n_) out.push_back(i + n_);
    return out;
  }

  // Stones and liberty count of the chain at i in grid g.
  void chain(const std::vector<Color>& g, int i, std::vector<int>* stones, int* libs) const {
    std::vector<char> seen(n_ * n_, 0), lib(n_ * n_, 0);
    stones->clear();
    *libs = 0;
    std::vector<int> stack{i};
    seen[i] = 1;
    while (!stack.empty()) {
      int s = stack.back();
      stack.pop_back();
      stones->push_back(s);
      for (int q : neighbours(s)) {
        if (g[q] == E && !lib[q]) {
          lib[q] = 1;
          ++*libs;
        } else if (g[q] == g[i] && !seen[q]) {
          seen[q] = 1;
          stack.push_back(q);
        }
      }
    }
  }

  // Simulates c at i following the contract: captures first, then suicide.
  MoveError simulate(int i, Color c, bool allow_suicide, std::vector<Color>* out,
                     std::vector<int>* captured, std::vector<int>* own_removed) const {
    if (g_[i] != E) return MoveError::Occupied;
    if (i == ko_ && c == ko_banned_) return MoveError::Ko;
    std::vector<Color> g = g_;
    g[i] = c;
    captured->clear();
    own_removed->clear();
    std::vector<int> stones;
    int libs = 0;
    for (int q : neighbours(i)) {
      if (g[q] != opponent(c)) continue;
      chain(g, q, &stones, &libs);
      if (libs == 0)
        for (int s : stones) {
          g[s] = E;
          captured->push_back(s);
        }
    }
    chain(g, i, &stones, &libs);
    if (libs == 0) {
      if (!allow_suicide) return MoveError::Suicide;
      for (int s : stones) {
        g[s] = E;
        own_removed->push_back(s);
      }
    }
    *out = g;
    return MoveError::None;
  }

  // Labels the chains of the current position (call before quick_check).
  void analyse() {
    label_.assign(n_ * n_, -1);
    chain_libs_.clear();
    std::vector<int> stones;
    int libs = 0;
    for (int i = 0; i < n_ * n_; ++i) {
      if (g_[i] == E || label_[i] >= 0) continue;
      chain(g_, i, &stones, &libs);
      for (int s : stones) label_[s] = int(chain_libs_.size());
      chain_libs_.push_back(libs);
    }
  }
  int chain_libs(int i) const { return chain_libs_[label_[i]]; }

  // The same verdict as simulate(), from the chains of analyse(): a move is
  // legal if it has an empty neighbour, joins a chain with another liberty,
  // or takes the last liberty of an opponent chain.
  MoveError quick_check(int i, Color c, bool allow_suicide) const {
    if (g_[i] != E) return MoveError::Occupied;
    if (i == ko_ && c == ko_banned_) return MoveError::Ko;
    if (allow_suicide) return MoveError::None;
    for (int q : neighbours(i)) {
      if (g_[q] == E) return MoveError::None;
      if (g_[q] == c && chain_libs(q) >= 2) return MoveError::None;
      if (g_[q] == opponent(c) && chain_libs(q) == 1) return MoveError::None;
    }
    return MoveError::Suicide;
  }

  // Plays; returns whether the new position was seen before.
  bool play(int i, Color c, bool allow_suicide, std::vector<int>* removed) {
    std::vector<Color> g;
    std::vector<int> captured, own;
    MoveError err = simulate(i, c, allow_suicide, &g, &captured, &own);
    REQUIRE(err == MoveError::None);
    g_ = g;
    (c == B ? cap_b_ : cap_w_) += int(captured.size());
    *removed = captured;
    removed->insert(removed->end(), own.begin(), own.end());
    ko_ = -1;
    ko_banned_ = E;
    std::vector<int> stones;
    int libs = 0;
    if (g_[i] == c) {
      chain(g_, i, &stones, &libs);
      if (captured.size() == 1 && stones.size() == 1 && libs == 1) {
        ko_ = captured[0];
        ko_banned_ = opponent(c);
      }
    }
    return !seen_.insert(g_).second;
  }

  void pass() {
    ko_ = -1;
    ko_banned_ = E;
  }

  bool setup(int i, Color c) {
    g_[i] = c;
    ko_ = -1;
    ko_banned_ = E;
    return !seen_.insert(g_).second;
  }

 private:
  int n_;
  std::vector<Color> g_;
  int ko_ = -1;
  Color ko_banned_ = E;
  int cap_b_ = 0, cap_w_ = 0;
  std::set<std::vector<Color>> seen_;
  std::vector<int> label_, chain_libs_;
};

Point ref_point(const RefGo& r, int i) { return Point{int8_t(i % r.size()), int8_t(i / r.size())}; }

// The whole-position comparison done after every step of a property test.
// Returns the reference's legal points for `next` (without suicide).
std::vector<int> compare_with_reference(const Board& b, RefGo& r, Color next,
                                        bool allow_suicide) {
  const int n = r.size();
  for (int i = 0; i < n * n; ++i) REQUIRE(b.at(ref_point(r, i)) == r.at(i));
  CHECK(b.ko_index() == (r.ko() < 0 ? -1 : b.index(ref_point(r, r.ko()))));
  check_chains(b);

  // Small boards: the full simulation for every point; large ones: the
  // quick rule (itself checked against the simulation on small boards).
  const bool full = n <= 9;
  r.analyse();
  std::vector<int> legal_for_next;
  std::vector<Color> scratch;
  std::vector<int> cap, own;
  for (int i = 0; i < n * n; ++i) {
    Point p = ref_point(r, i);
    for (Color c : {B, W})
      for (bool allow : {false, true}) {
        MoveError want = r.quick_check(i, c, allow);
        if (full) REQUIRE(r.simulate(i, c, allow, &scratch, &cap, &own) == want);
        MoveError got = b.check(p, c, allow);
        INFO("point ", int(p.x), ",", int(p.y), " color ", std::string(1, color_char(c)), " allow_suicide ", allow);
        CHECK(got == want);
        CHECK(b.is_legal(p, c, allow) == (got == MoveError::None));
        if (r.at(i) == E) CHECK(b.is_legal_index(b.index(p), c, allow) == (got == MoveError::None));
        if (c == next && allow == allow_suicide && want == MoveError::None) legal_for_next.push_back(i);
      }
  }
  return legal_for_next;
}

AreaScore brute_area(const Board& b) {
  AreaScore s;
  int n = b.size();
  std::vector<char> done(n * n, 0);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      Color c = b.at(Point{int8_t(x), int8_t(y)});
      if (c == B) ++s.black;
      if (c == W) ++s.white;
      if (c != E || done[y * n + x]) continue;
      bool tb = false, tw = false;
      int count = 0;
      std::vector<int> stack{y * n + x};
      done[y * n + x] = 1;
      while (!stack.empty()) {
        int i = stack.back();
        stack.pop_back();
        ++count;
        int cx = i % n, cy = i / n;
        const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        for (int k = 0; k < 4; ++k) {
          int qx = cx + dx[k], qy = cy + dy[k];
          if (qx < 0 || qy < 0 || qx >= n || qy >= n) continue;
          Color qc = b.at(Point{int8_t(qx), int8_t(qy)});
          if (qc == B) tb = true;
          if (qc == W) tw = true;
          if (qc == E && !done[qy * n + qx]) {
            done[qy * n + qx] = 1;
            stack.push_back(qy * n + qx);
          }
        }
      }
      if (tb && !tw) s.black += count;
      else if (tw && !tb) s.white += count;
      else s.neutral += count;
    }
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------
TEST_CASE("every board size 2..25 constructs empty, with sane indices") {
  for (int n = kMinBoardSize; n <= kMaxBoardSize; ++n) {
    CAPTURE(n);
    Board b(n);
    CHECK(b.size() == n);
    CHECK(b.stone_count(B) == 0);
    CHECK(b.stone_count(W) == 0);
    CHECK(b.ko_index() == -1);
    CHECK(b.hash() == 0);
    std::set<int> seen;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        Point p{int8_t(x), int8_t(y)};
        CHECK(b.on_board(p));
        CHECK(b.at(p) == E);
        int i = b.index(p);
        CHECK(i >= 0);
        CHECK(i < Board::kMaxIndex);
        CHECK(b.point(i) == p);
        CHECK(b.at_index(i) == E);
        seen.insert(i);
        if (x + 1 < n) CHECK(b.index(Point{int8_t(x + 1), int8_t(y)}) == i + 1);
        if (y + 1 < n) CHECK(b.index(Point{int8_t(x), int8_t(y + 1)}) == i + b.stride());
      }
    CHECK(int(seen.size()) == n * n);
    // The points around the board read as OffBoard (what eye tests rely on).
    const int top_left = b.index(Point{0, 0});
    for (int idx : {top_left - 1, top_left - b.stride(), top_left - b.stride() - 1,
                    b.index(Point{int8_t(n - 1), int8_t(n - 1)}) + 1,
                    b.index(Point{int8_t(n - 1), int8_t(n - 1)}) + b.stride()})
      CHECK(b.at_index(idx) == Color::OffBoard);
    // Just off each side.
    for (Point off : {Point{-1, 0}, Point{0, -1}, Point{int8_t(n), 0}, Point{0, int8_t(n)}}) {
      CHECK_FALSE(b.on_board(off));
      CHECK(b.check(off, B) == MoveError::OffBoard);
    }
    CHECK(b.check(kPass, B) == MoveError::OffBoard);
    // A lone stone: 2 liberties in a corner, 3 on an edge, 4 inside.
    Board corner(n);
    REQUIRE(corner.play(Point{int8_t(n - 1), int8_t(n - 1)}, W) == MoveError::None);
    CHECK(corner.liberties(Point{int8_t(n - 1), int8_t(n - 1)}) == 2);
    if (n >= 3) {
      Board edge(n), inside(n);
      REQUIRE(edge.play(Point{1, 0}, B) == MoveError::None);
      CHECK(edge.liberties(Point{1, 0}) == 3);
      REQUIRE(inside.play(Point{1, 1}, B) == MoveError::None);
      CHECK(inside.liberties(Point{1, 1}) == 4);
    }
    AreaScore s = b.area_score();
    CHECK(s.black == 0);
    CHECK(s.white == 0);
    CHECK(s.neutral == n * n);
  }
}

TEST_CASE("2x2 board: corners, a two-stone capture and a whole-board capture") {
  Board b(2);
  play(b, B, {"A1"});
  CHECK(b.liberties(pt(b, "A1")) == 2);  // A2, B1
  play(b, W, {"B2"});
  play(b, B, {"B1"});
  CHECK(b.chain_size(pt(b, "A1")) == 2);
  CHECK(b.liberties(pt(b, "A1")) == 1);  // A2
  CHECK(b.liberties(pt(b, "B2")) == 1);  // A2
  CHECK(b.in_atari_index(idx(b, "B1")));
  CHECK(b.in_atari_index(idx(b, "B2")));

  SUBCASE("white A2 captures two") {
    play(b, W, {"A2"});
    CHECK(as_set(b.last_removed()) == indices(b, {"A1", "B1"}));
    CHECK(b.captures(W) == 2);
    CHECK(b.liberties(pt(b, "A2")) == 2);  // A1, B1
    CHECK(b.ko_index() == -1);
  }
  SUBCASE("black A2 captures one, then white B2 captures three") {
    play(b, B, {"A2"});  // joins a 2-stone chain: no ko
    CHECK(as_set(b.last_removed()) == indices(b, {"B2"}));
    CHECK(b.ko_index() == -1);
    CHECK(b.chain_size(pt(b, "A1")) == 3);
    CHECK(b.liberties(pt(b, "A1")) == 1);
    // B2 has no empty neighbour but captures the whole black chain.
    CHECK(b.check(pt(b, "B2"), W) == MoveError::None);
    play(b, W, {"B2"});
    CHECK(b.stone_count(B) == 0);
    CHECK(b.captures(W) == 3);
    CHECK(b.liberties(pt(b, "B2")) == 2);  // A2, B1
    CHECK(b.check(pt(b, "A1"), B) == MoveError::None);
  }
}

TEST_CASE("capture of a single stone in the middle, on the edge and in the corner") {
  SUBCASE("middle") {
    Board b(9);
    play(b, W, {"E5"});
    play(b, B, {"E6", "D5", "F5"});
    CHECK(b.liberties(pt(b, "E5")) == 1);
    CHECK(b.in_atari_index(idx(b, "E5")));
    play(b, B, {"E4"});
    CHECK(b.at(pt(b, "E5")) == E);
    CHECK(b.last_removed() == std::vector<int>{idx(b, "E5")});
    CHECK(b.captures(B) == 1);
    CHECK(b.captures(W) == 0);
    CHECK(b.liberties(pt(b, "E4")) == 4);  // E5 came back
    CHECK(b.ko_index() == -1);             // capturing stone has 4 liberties
    check_chains(b);
  }
  SUBCASE("edge") {
    Board b(9);
    play(b, W, {"E1"});
    play(b, B, {"D1", "F1"});
    CHECK(b.liberties(pt(b, "E1")) == 1);
    play(b, B, {"E2"});
    CHECK(b.last_removed() == std::vector<int>{idx(b, "E1")});
    CHECK(b.liberties(pt(b, "E2")) == 4);  // E1 D2 F2 E3
    CHECK(b.liberties(pt(b, "D1")) == 3);  // C1 D2 E1
    CHECK(b.ko_index() == -1);
    check_chains(b);
  }
  SUBCASE("corner") {
    Board b(9);
    play(b, W, {"A1"});
    play(b, B, {"A2"});
    CHECK(b.liberties(pt(b, "A1")) == 1);
    play(b, B, {"B1"});
    CHECK(b.at(pt(b, "A1")) == E);
    CHECK(b.last_removed() == std::vector<int>{idx(b, "A1")});
    CHECK(b.liberties(pt(b, "B1")) == 3);  // A1 C1 B2
    CHECK(b.ko_index() == -1);
    check_chains(b);
  }
}

TEST_CASE("capture of many stones") {
  SUBCASE("three on the edge") {
    Board b(9);
    play(b, W, {"A1", "B1", "C1"});
    play(b, B, {"A2", "B2", "C2"});
    CHECK(b.liberties(pt(b, "B1")) == 1);  // D1
    play(b, B, {"D1"});
    CHECK(as_set(b.last_removed()) == indices(b, {"A1", "B1", "C1"}));
    CHECK(b.captures(B) == 3);
    CHECK(b.stone_count(W) == 0);
    CHECK(b.ko_index() == -1);
    CHECK(b.liberties(pt(b, "A2")) == 7);  // A1 B1 C1 A3 B3 C3 D2
    check_chains(b);
  }
  SUBCASE("a 2x2 block in the middle") {
    Board b(9);
    play(b, W, {"D4", "E4", "D5", "E5"});
    play(b, B, {"D3", "E3", "F4", "F5", "D6", "E6", "C4"});
    CHECK(b.liberties(pt(b, "D4")) == 1);
    play(b, B, {"C5"});
    CHECK(as_set(b.last_removed()) == indices(b, {"D4", "E4", "D5", "E5"}));
    CHECK(b.captures(B) == 4);
    check_chains(b);
  }
}

TEST_CASE("one move captures several chains") {
  Board b(9);
  play(b, W, {"A1", "C1", "D1"});
  play(b, B, {"A2", "C2", "D2", "E1"});
  CHECK(b.liberties(pt(b, "A1")) == 1);  // B1
  CHECK(b.liberties(pt(b, "C1")) == 1);  // B1
  play(b, B, {"B1"});
  CHECK(as_set(b.last_removed()) == indices(b, {"A1", "C1", "D1"}));
  CHECK(b.captures(B) == 3);
  CHECK(b.ko_index() == -1);
  CHECK(b.liberties(pt(b, "B1")) == 3);  // A1 C1 B2
  check_chains(b);
}

TEST_CASE("snapback") {
  // 3 O O O . .
  // 2 X X X O .
  // 1 . . X O .      black chain A2 B2 C2 C1 has liberties A1, B1.
  Board b = diagram({".....", ".....", "OOO..", "XXXO.", "..XO."});
  CHECK(b.liberties(pt(b, "A2")) == 2);
  play(b, W, {"B1"});  // throw-in: one liberty (A1), black in atari
  CHECK(b.liberties(pt(b, "B1")) == 1);
  CHECK(b.liberties(pt(b, "A2")) == 1);
  play(b, B, {"A1"});  // captures the throw-in ...
  CHECK(b.last_removed() == std::vector<int>{idx(b, "B1")});
  CHECK(b.ko_index() == -1);              // ... with a 5-stone chain: not ko
  CHECK(b.liberties(pt(b, "A1")) == 1);   // B1 only
  CHECK(b.chain_size(pt(b, "A1")) == 5);
  CHECK(b.check(pt(b, "B1"), W) == MoveError::None);
  play(b, W, {"B1"});  // ... and white takes five back
  CHECK(as_set(b.last_removed()) == indices(b, {"A1", "A2", "B2", "C2", "C1"}));
  CHECK(b.captures(W) == 5);
  CHECK(b.captures(B) == 1);
  CHECK(b.liberties(pt(b, "B1")) == 3);  // A1 C1 B2
  check_chains(b);
}

namespace {
// Black E6 D5 E4 and white F6 G5 F4 around the ko points E5 / F5, white at
// E5; black F5 then captures E5 as a ko.
Board ko_position() {
  Board b(9);
  play(b, B, {"E6", "D5", "E4"});
  play(b, W, {"F6", "G5", "F4", "E5"});
  play(b, B, {"F5"});
  return b;
}
}  // namespace

TEST_CASE("ko: immediate recapture is illegal") {
  Board b = ko_position();
  CHECK(b.last_removed() == std::vector<int>{idx(b, "E5")});
  CHECK(b.liberties(pt(b, "F5")) == 1);
  CHECK(b.ko_index() == idx(b, "E5"));
  CHECK(b.check(pt(b, "E5"), W) == MoveError::Ko);
  CHECK_FALSE(b.is_legal(pt(b, "E5"), W));
  CHECK_FALSE(b.is_legal_index(idx(b, "E5"), W));
  CHECK_FALSE(b.is_legal(pt(b, "E5"), W, /*allow_suicide=*/true));
  uint64_t before = b.hash();
  CHECK(b.play(pt(b, "E5"), W) == MoveError::Ko);
  CHECK(b.hash() == before);  // unchanged on error
  CHECK(b.at(pt(b, "E5")) == E);
  CHECK(b.at(pt(b, "F5")) == B);
  check_chains(b);
}

TEST_CASE("ko: the capturer itself may fill the ko point") {
  // The contract forbids only the opponent from playing on the captured point.
  Board b = ko_position();
  CHECK(b.check(pt(b, "E5"), B) == MoveError::None);
  CHECK(b.is_legal_index(idx(b, "E5"), B));
  play(b, B, {"E5"});
  CHECK(b.ko_index() == -1);
  check_chains(b);
}

TEST_CASE("ko: recapture is legal again after moves elsewhere") {
  Board b = ko_position();
  play(b, W, {"A1"});  // ko threat
  CHECK(b.ko_index() == -1);
  play(b, B, {"J9"});  // answer
  CHECK(b.check(pt(b, "E5"), W) == MoveError::None);
  play(b, W, {"E5"});  // retakes: now black may not retake at once
  CHECK(b.last_removed() == std::vector<int>{idx(b, "F5")});
  CHECK(b.ko_index() == idx(b, "F5"));
  CHECK(b.check(pt(b, "F5"), B) == MoveError::Ko);
  check_chains(b);
}

TEST_CASE("ko: a pass clears the ko") {
  Board b = ko_position();
  b.pass();
  CHECK(b.ko_index() == -1);
  CHECK(b.last_removed().empty());
  CHECK(b.check(pt(b, "E5"), W) == MoveError::None);
  SUBCASE("after white passes, black passes, white retakes") {
    b.pass();
    play(b, W, {"E5"});
    CHECK(b.ko_index() == idx(b, "F5"));
  }
}

TEST_CASE("capturing one stone is not always ko") {
  SUBCASE("the capturing stone keeps two liberties") {
    // 4 . . . .
    // 3 . X O .
    // 2 X O . .      white A1 has one liberty, B1; black B1 takes it
    // 1 O . . .      and keeps A1 and C1 (B2 is white).
    Board b = diagram({"....", ".XO.", "XO..", "O..."});
    CHECK(b.liberties(pt(b, "A1")) == 1);
    play(b, B, {"B1"});
    CHECK(b.last_removed() == std::vector<int>{idx(b, "A1")});
    CHECK(b.liberties(pt(b, "B1")) == 2);
    CHECK(b.ko_index() == -1);
    // White A1 would now be plain suicide (A2 and B1 both keep a liberty).
    CHECK(b.check(pt(b, "A1"), W) == MoveError::Suicide);
  }
  SUBCASE("two stones captured by a single stone left with one liberty") {
    // 4 X . . .
    // 3 O X . .      white A3-A2 has one liberty, A1; black A1 takes both
    // 2 O X . .      and is left with the single liberty A2 (B1 white).
    // 1 . O . .
    Board b = diagram({"X...", "OX..", "OX..", ".O.."});
    CHECK(b.liberties(pt(b, "A2")) == 1);
    play(b, B, {"A1"});
    CHECK(as_set(b.last_removed()) == indices(b, {"A2", "A3"}));
    CHECK(b.liberties(pt(b, "A1")) == 1);
    CHECK(b.ko_index() == -1);
    CHECK(b.check(pt(b, "A2"), W) == MoveError::None);  // white may take back
  }
}

TEST_CASE("suicide of one stone") {
  Board b(9);
  play(b, W, {"A2", "B1"});
  CHECK(b.check(pt(b, "A1"), B) == MoveError::Suicide);
  CHECK_FALSE(b.is_legal_index(idx(b, "A1"), B));
  CHECK(b.check(pt(b, "A1"), W) == MoveError::None);  // fine for white
  uint64_t before = b.hash();
  CHECK(b.play(pt(b, "A1"), B) == MoveError::Suicide);
  CHECK(b.hash() == before);
  CHECK(b.at(pt(b, "A1")) == E);

  CHECK(b.check(pt(b, "A1"), B, true) == MoveError::None);
  CHECK(b.is_legal_index(idx(b, "A1"), B, true));
  REQUIRE(b.play(pt(b, "A1"), B, true) == MoveError::None);
  CHECK(b.at(pt(b, "A1")) == E);
  CHECK(b.last_removed() == std::vector<int>{idx(b, "A1")});
  CHECK(b.stone_count(B) == 0);
  CHECK(b.captures(B) == 0);
  CHECK(b.hash() == before);
  CHECK(b.liberties(pt(b, "A2")) == 3);  // A1 A3 B2
  CHECK(b.liberties(pt(b, "B1")) == 3);  // A1 C1 B2
  check_chains(b);
}

TEST_CASE("suicide of several stones") {
  Board b(9);
  play(b, B, {"A1", "B1"});
  play(b, W, {"A2", "B2", "C2", "D1"});
  CHECK(b.liberties(pt(b, "A1")) == 1);  // C1
  CHECK(b.check(pt(b, "C1"), B) == MoveError::Suicide);
  CHECK(b.play(pt(b, "C1"), B) == MoveError::Suicide);
  CHECK(b.chain_size(pt(b, "A1")) == 2);

  REQUIRE(b.play(pt(b, "C1"), B, true) == MoveError::None);
  CHECK(as_set(b.last_removed()) == indices(b, {"A1", "B1", "C1"}));
  CHECK(b.stone_count(B) == 0);
  CHECK(b.captures(B) == 0);
  CHECK(b.liberties(pt(b, "A2")) == 7);  // A1 B1 C1 A3 B3 C3 D2
  CHECK(b.liberties(pt(b, "D1")) == 3);  // C1 D2 E1
  check_chains(b);
  // The freed points are playable again by both.
  CHECK(b.check(pt(b, "B1"), W) == MoveError::None);
  CHECK(b.check(pt(b, "B1"), B) == MoveError::None);
}

TEST_CASE("filling the last liberty while capturing is not suicide") {
  // 3 X . .
  // 2 O X .     white A2 (libs A1) and white B1 (libs A1) are both in atari;
  // 1 . O X     black A1 has no empty neighbour but captures them.
  Board b = diagram({"X..", "OX.", ".OX"});
  CHECK(b.liberties(pt(b, "A2")) == 1);
  CHECK(b.liberties(pt(b, "B1")) == 1);
  CHECK(b.check(pt(b, "A1"), B) == MoveError::None);
  play(b, B, {"A1"});
  CHECK(as_set(b.last_removed()) == indices(b, {"A2", "B1"}));
  CHECK(b.liberties(pt(b, "A1")) == 2);
  CHECK(b.stone_count(W) == 0);
  check_chains(b);
}

TEST_CASE("liberties shared by several stones are counted once") {
  Board b(9);
  SUBCASE("A1 B1 C1 on an empty board: A2 B2 C2 D1") {
    play(b, B, {"A1", "B1", "C1"});
    CHECK(b.liberties(pt(b, "B1")) == 4);
  }
  SUBCASE("A1 A2 B1: A3 B2 C1, B2 touching two stones") {
    play(b, B, {"A1", "A2", "B1"});
    CHECK(b.liberties(pt(b, "A1")) == 3);
    CHECK_FALSE(b.in_atari_index(idx(b, "A1")));
  }
  SUBCASE("a ring of 8 around E5: 1 inner + 12 outer liberties") {
    play(b, B, {"D4", "E4", "F4", "F5", "F6", "E6", "D6", "D5"});
    CHECK(b.chain_size(pt(b, "D4")) == 8);
    CHECK(b.liberties(pt(b, "E6")) == 13);
  }
  SUBCASE("a chain whose only liberty touches two of its stones is in atari") {
    // A2 B2 B1 around A1, hemmed in by white A3 B3 C2 C1.
    play(b, B, {"A2", "B2", "B1"});
    play(b, W, {"A3", "B3", "C2", "C1"});
    CHECK(b.liberties(pt(b, "A2")) == 1);
    CHECK(b.in_atari_index(idx(b, "B1")));
    play(b, W, {"A1"});
    CHECK(b.last_removed().size() == 3);
  }
  check_chains(b);
}

TEST_CASE("setup stones, and splitting a chain by removing its middle stone") {
  Board b(9);
  for (const char* n : {"B5", "C5", "D5", "E5", "F5"}) b.setup(pt(b, n), B);
  CHECK(b.chain_size(pt(b, "B5")) == 5);
  CHECK(b.liberties(pt(b, "B5")) == 12);  // A5 G5 + 5 above + 5 below
  CHECK(b.last_removed().empty());

  b.setup(pt(b, "D5"), E);
  CHECK(b.at(pt(b, "D5")) == E);
  CHECK(b.chain_size(pt(b, "B5")) == 2);
  CHECK(b.chain_size(pt(b, "F5")) == 2);
  CHECK(b.liberties(pt(b, "C5")) == 6);  // A5 B6 C6 B4 C4 D5
  CHECK(b.liberties(pt(b, "E5")) == 6);  // D5 E6 F6 E4 F4 G5
  check_chains(b);

  b.setup(pt(b, "D5"), W);  // a white stone in the gap
  CHECK(b.liberties(pt(b, "D5")) == 2);  // D6 D4
  CHECK(b.liberties(pt(b, "C5")) == 5);
  CHECK(b.liberties(pt(b, "E5")) == 5);
  check_chains(b);

  b.setup(pt(b, "D5"), B);  // recolour: joined again
  CHECK(b.chain_size(pt(b, "B5")) == 5);
  CHECK(b.liberties(pt(b, "B5")) == 12);
  check_chains(b);

  b.setup(pt(b, "C5"), W);  // recolour inside a chain: it splits
  CHECK(b.chain_size(pt(b, "B5")) == 1);
  CHECK(b.chain_size(pt(b, "D5")) == 3);
  CHECK(b.liberties(pt(b, "C5")) == 2);  // C6 C4
  check_chains(b);

  // Play still works on the rebuilt chains: white captures B5.
  play(b, W, {"A5", "B6"});
  CHECK(b.liberties(pt(b, "B5")) == 1);
  play(b, W, {"B4"});
  CHECK(b.last_removed() == std::vector<int>{idx(b, "B5")});
  check_chains(b);
}

TEST_CASE("setup never captures") {
  Board b(9);
  b.setup(pt(b, "A2"), W);
  b.setup(pt(b, "B1"), W);
  b.setup(pt(b, "A1"), B);  // no liberty, but stays
  CHECK(b.at(pt(b, "A1")) == B);
  CHECK(b.at(pt(b, "A2")) == W);
  CHECK(b.liberties(pt(b, "A1")) == 0);
  CHECK(b.captures(B) == 0);
  CHECK(b.captures(W) == 0);
  check_chains(b);
}

TEST_CASE("last_removed and captures") {
  Board b(9);
  play(b, W, {"A1"});
  CHECK(b.last_removed().empty());
  play(b, B, {"A2", "B1"});
  CHECK(b.last_removed() == std::vector<int>{idx(b, "A1")});
  play(b, B, {"J9"});
  CHECK(b.last_removed().empty());  // a play that captures nothing clears it
  play(b, B, {"H1"});
  play(b, W, {"J1"});  // white J1 between black H1 and the corner
  play(b, B, {"J2"});
  CHECK(b.last_removed() == std::vector<int>{idx(b, "J1")});
  CHECK(b.captures(B) == 2);
  CHECK(b.captures(W) == 0);
  b.pass();
  CHECK(b.last_removed().empty());
  CHECK(b.captures(B) == 2);
}

TEST_CASE("hash: same position by different move orders, different positions differ") {
  Board a(9), b(9), c(9);
  play(a, B, {"D4"});
  play(a, W, {"E5"});
  play(a, B, {"F6"});
  play(b, B, {"F6"});
  play(b, W, {"E5"});
  play(b, B, {"D4"});
  CHECK(a.hash() == b.hash());
  play(c, W, {"D4"});
  play(c, W, {"E5"});
  play(c, B, {"F6"});
  CHECK(c.hash() != a.hash());  // colour matters

  // A capture gives the hash of the same position set up directly.
  Board cap(9), direct(9);
  play(cap, W, {"A1"});
  play(cap, B, {"A2", "B1"});
  direct.setup(pt(direct, "A2"), B);
  direct.setup(pt(direct, "B1"), B);
  CHECK(cap.hash() == direct.hash());

  // Setup and removal come back to the empty hash.
  Board e(9), f(9);
  e.setup(pt(e, "C3"), W);
  CHECK(e.hash() != f.hash());
  e.setup(pt(e, "C3"), E);
  CHECK(e.hash() == f.hash());
}

TEST_CASE("last_move_repeated_position flags a ko cycle") {
  Board b = ko_position();  // every position so far is new
  CHECK_FALSE(b.last_move_repeated_position());
  b.pass();  // white
  b.pass();  // black
  play(b, W, {"E5"});  // retakes: the position before black's F5 again
  CHECK(b.last_move_repeated_position());
  b.pass();
  b.pass();
  play(b, B, {"F5"});  // and the one after it
  CHECK(b.last_move_repeated_position());
  play(b, W, {"A1"});  // new
  CHECK_FALSE(b.last_move_repeated_position());
}

TEST_CASE("last_move_repeated_position flags a suicide that changes nothing") {
  // With suicide allowed, a single-stone suicide recreates the position.
  Board b(9);
  play(b, W, {"A2", "B1"});
  CHECK_FALSE(b.last_move_repeated_position());
  REQUIRE(b.play(pt(b, "A1"), B, true) == MoveError::None);
  CHECK(b.last_move_repeated_position());  // same as after W B1
}

TEST_CASE("last_move_repeated_position counts the initial empty board as seen") {
  // 2x2, suicide allowed: black fills the board; the fourth stone kills the
  // whole chain and the board is empty again, as at the start.
  Board b(2);
  play(b, B, {"A1", "B1", "A2"});
  CHECK_FALSE(b.last_move_repeated_position());
  REQUIRE(b.play(pt(b, "B2"), B, true) == MoveError::None);
  CHECK(b.last_removed().size() == 4);
  CHECK(b.stone_count(B) == 0);
  CHECK(b.last_move_repeated_position());
}

TEST_CASE("area_score") {
  SUBCASE("empty board: all neutral") {
    Board b(5);
    AreaScore s = b.area_score();
    CHECK(s.black == 0);
    CHECK(s.white == 0);
    CHECK(s.neutral == 25);
  }
  SUBCASE("one stone owns the board") {
    Board b(5);
    play(b, W, {"C3"});
    AreaScore s = b.area_score();
    CHECK(s.white == 25);
    CHECK(s.black == 0);
    CHECK(s.neutral == 0);
  }
  SUBCASE("walls with a neutral column") {
    // A: black points A5 A3 A1, stones A4 A2 and column B; column C is dame.
    Board b = diagram({".X.O.", "XX.OO", ".X.O.", "XX.OO", ".X.O."});
    AreaScore s = b.area_score();
    CHECK(s.black == 10);  // 7 stones + 3 points
    CHECK(s.white == 10);
    CHECK(s.neutral == 5);
  }
  SUBCASE("a seki-like point between the colours") {
    // B4 touches black and white: neutral.  D5: white.  Rows 1-2: black.
    Board b = diagram({"XXO.O", "X.OOO", "XXXXX", ".....", "....."});
    AreaScore s = b.area_score();
    CHECK(s.black == 18);  // 8 stones + 10
    CHECK(s.white == 6);   // 5 stones + 1
    CHECK(s.neutral == 1);
  }
}

// ---------------------------------------------------------------------------
// Property tests: random playouts compared move by move with RefGo.

namespace {

struct PlayoutStats {
  int moves = 0;
  int captures = 0;
  int kos = 0;
  int suicides = 0;
  int repeats = 0;
};

void random_playouts(int size, int games, int max_moves, bool allow_suicide, uint64_t seed,
                     PlayoutStats* stats) {
  std::mt19937_64 rng(seed);
  for (int game = 0; game < games; ++game) {
    CAPTURE(game);
    Board b(size);
    RefGo r(size);
    Color c = B;
    int passes = 0;
    for (int move = 0; move < max_moves && passes < 2; ++move) {
      CAPTURE(move);
      std::vector<int> legal = compare_with_reference(b, r, c, allow_suicide);
      // Now and then try an illegal point: it must fail and change nothing.
      if (rng() % 8 == 0) {
        int i = int(rng() % uint64_t(size * size));
        if (std::find(legal.begin(), legal.end(), i) == legal.end()) {
          uint64_t h = b.hash();
          CHECK(b.play(ref_point(r, i), c, allow_suicide) != MoveError::None);
          CHECK(b.hash() == h);
        }
      }
      if (legal.empty() || rng() % 64 == 0) {
        b.pass();
        r.pass();
        ++passes;
      } else {
        passes = 0;
        int i = legal[rng() % legal.size()];
        std::vector<int> removed;
        bool repeated = r.play(i, c, allow_suicide, &removed);
        REQUIRE(b.play(ref_point(r, i), c, allow_suicide) == MoveError::None);
        std::set<int> want_removed;
        for (int q : removed) want_removed.insert(b.index(ref_point(r, q)));
        CHECK(as_set(b.last_removed()) == want_removed);
        CHECK(b.last_move_repeated_position() == repeated);
        if (!allow_suicide) {
          CHECK(b.captures(B) == r.captures(B));
          CHECK(b.captures(W) == r.captures(W));
        }
        ++stats->moves;
        if (!removed.empty()) ++stats->captures;
        if (r.ko() >= 0) ++stats->kos;
        if (r.at(i) == E) ++stats->suicides;
        if (repeated) ++stats->repeats;
      }
      c = opponent(c);
    }
    compare_with_reference(b, r, c, allow_suicide);
    AreaScore got = b.area_score(), want = brute_area(b);
    CHECK(got.black == want.black);
    CHECK(got.white == want.white);
    CHECK(got.neutral == want.neutral);
  }
}

}  // namespace

TEST_CASE("property: random playouts on 9x9 agree with a brute-force reference") {
  PlayoutStats st;
  random_playouts(9, 40, 300, false, 20240611, &st);
  MESSAGE("9x9: ", st.moves, " moves, ", st.captures, " captures, ", st.kos, " kos, ",
          st.repeats, " repeated positions");
  CHECK(st.moves >= 5000);
  CHECK(st.kos > 0);       // the test really exercised ko
  CHECK(st.captures > 100);
}

TEST_CASE("property: random playouts on 19x19 agree with a brute-force reference") {
  PlayoutStats st;
  random_playouts(19, 5, 700, false, 19190019, &st);
  MESSAGE("19x19: ", st.moves, " moves, ", st.captures, " captures, ", st.kos, " kos");
  CHECK(st.moves >= 3000);
  CHECK(st.captures > 50);
}

TEST_CASE("property: random playouts with suicide allowed") {
  PlayoutStats st;
  random_playouts(7, 30, 200, true, 777, &st);
  MESSAGE("7x7 with suicide: ", st.moves, " moves, ", st.suicides, " suicides");
  CHECK(st.suicides > 0);
}

TEST_CASE("property: random setup stones (placing, clearing, recolouring) keep chains exact") {
  std::mt19937_64 rng(4242);
  for (int game = 0; game < 30; ++game) {
    CAPTURE(game);
    const int n = 9;
    Board b(n);
    RefGo r(n);
    Color c = B;
    for (int step = 0; step < 150; ++step) {
      CAPTURE(step);
      if (rng() % 3 == 0) {
        // A burst of setup: any point to any colour, splitting chains freely.
        int k = 1 + int(rng() % 4);
        for (int j = 0; j < k; ++j) {
          int i = int(rng() % uint64_t(n * n));
          Color to = Color(rng() % 3);
          b.setup(ref_point(r, i), to);
          r.setup(i, to);
        }
        // Ko after a setup is not part of the contract: clear it on both.
        b.pass();
        r.pass();
      } else {
        std::vector<int> legal = compare_with_reference(b, r, c, false);
        if (!legal.empty()) {
          int i = legal[rng() % legal.size()];
          std::vector<int> removed;
          bool repeated = r.play(i, c, false, &removed);
          REQUIRE(b.play(ref_point(r, i), c) == MoveError::None);
          CHECK(b.last_move_repeated_position() == repeated);
        }
        c = opponent(c);
      }
    }
    compare_with_reference(b, r, c, false);
  }
}

// Pattern geometry, canonical strings, keys, and the incremental tracker
// against keys computed from scratch.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "board/board.h"
#include "board/replay.h"
#include "pattern/diamond.h"
#include "pattern/pattern_string.h"
#include "pattern/tracker.h"
#include "pattern/tracking_observer.h"
#include "test_util.h"

using namespace sgfpat;

TEST_CASE("diamond: sizes, ring order and nesting follow the spec") {
  const auto& offs = diamond_offsets();
  CHECK(level_points(1) == 4);
  CHECK(level_points(10) == 220);
  REQUIRE(int(offs.size()) == level_points(kMaxLevels));
  // Ring 1 is N, E, S, W.
  CHECK((offs[0].dx == 0 && offs[0].dy == -1));
  CHECK((offs[1].dx == 1 && offs[1].dy == 0));
  CHECK((offs[2].dx == 0 && offs[2].dy == 1));
  CHECK((offs[3].dx == -1 && offs[3].dy == 0));
  // Ring 2 starts due north and goes clockwise: (0,-2) (1,-1) (2,0) (1,1) (0,2) ...
  CHECK((offs[4].dx == 0 && offs[4].dy == -2));
  CHECK((offs[5].dx == 1 && offs[5].dy == -1));
  CHECK((offs[6].dx == 2 && offs[6].dy == 0));
  CHECK((offs[11].dx == -1 && offs[11].dy == -1));
  // Every point of |dx|+|dy| <= 16 appears once, ring by ring.
  std::set<std::pair<int, int>> seen;
  for (size_t o = 0; o < offs.size(); ++o) {
    int d = std::abs(offs[o].dx) + std::abs(offs[o].dy);
    CHECK(d == offset_ring(int(o)));
    CHECK(int(o) < level_points(d));
    if (d > 1) CHECK(int(o) >= level_points(d - 1));
    seen.insert({offs[o].dx, offs[o].dy});
  }
  CHECK(seen.size() == offs.size());
}

TEST_CASE("diamond: the 8 symmetries permute each ring and form a group") {
  const int n = level_points(kMaxLevels);
  for (int s = 0; s < 8; ++s) {
    std::set<int> image;
    for (int o = 0; o < n; ++o) {
      int t = sym_index(s, o);
      CHECK(offset_ring(t) == offset_ring(o));
      image.insert(t);
    }
    CHECK(int(image.size()) == n);
  }
  // The transforms are distinct on a point off both diagonals and axes.
  std::set<std::pair<int, int>> images;
  for (int s = 0; s < 8; ++s) {
    Offset t = transform(s, Offset{1, -2});
    images.insert({t.dx, t.dy});
  }
  CHECK(images.size() == 8);
}

namespace {
std::string random_pattern(std::mt19937_64& rng, int level) {
  static const char states[] = "#.OX";
  std::string s(size_t(level_points(level)), '.');
  for (char& c : s) c = states[rng() % 4];
  return s;
}
}  // namespace

TEST_CASE("canonical form is the smallest transform and is shared by all transforms") {
  std::mt19937_64 rng(7);
  KeyScheme scheme;
  for (int level = 1; level <= 6; ++level)
    for (int t = 0; t < 200; ++t) {
      std::string p = random_pattern(rng, level);
      REQUIRE(pattern_level(p) == level);
      std::string c = canonical_pattern(p);
      for (int s = 0; s < 8; ++s) {
        std::string q = transform_pattern(p, s);
        CHECK(c <= q);
        CHECK(canonical_pattern(q) == c);
        CHECK(pattern_key(q, scheme) == pattern_key(p, scheme));
      }
    }
  // A hand-checked level-1 case: one own stone north -> canonical puts it last.
  CHECK(canonical_pattern("X...") == "...X");
  CHECK(canonical_pattern("#X..") == "#..X");
}

TEST_CASE("keys: different patterns get different keys; symmetry off distinguishes rotations") {
  std::mt19937_64 rng(11);
  KeyScheme sym, nosym;
  nosym.symmetry = false;
  std::set<std::string> canon;
  std::set<uint64_t> keys;
  for (int t = 0; t < 3000; ++t) {
    std::string p = random_pattern(rng, 3);
    if (canon.insert(canonical_pattern(p)).second) keys.insert(pattern_key(p, sym));
  }
  CHECK(keys.size() == canon.size());
  CHECK(pattern_key("X...", nosym) != pattern_key(".X..", nosym));
  CHECK(pattern_key("X...", sym) == pattern_key(".X..", sym));
  CHECK(pattern_level("X..") == 0);
  CHECK(pattern_level("X..Z") == 0);
}

namespace {
// Plays random legal moves and checks after each one that the tracker's keys
// equal keys of patterns spelled from scratch, for both players to move.
// With `incremental_rings`, the rings above it are spelled from the board
// at each walk (PatternTracker::set_incremental_rings), and the cursor's
// keys are checked too.
void check_tracker_against_scratch(int size, KeyScheme scheme, int moves, uint64_t seed, int incremental_rings = 0) {
  std::mt19937_64 rng(seed);
  Board board(size);
  PatternTracker tracker(scheme, size);
  if (incremental_rings) tracker.set_incremental_rings(incremental_rings);
  Color to_move = Color::Black;
  int checked = 0;
  for (int m = 0; m < moves; ++m) {
    std::vector<Point> legal;
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        Point p{int8_t(x), int8_t(y)};
        if (board.is_legal(p, to_move)) legal.push_back(p);
      }
    if (legal.empty()) break;
    Point p = legal[rng() % legal.size()];
    REQUIRE(board.play(p, to_move) == MoveError::None);
    tracker.after_play(board, board.index(p));
    to_move = opponent(to_move);
    if (m % 7 != 0) continue;  // scratch spelling is slow: sample positions
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        Point c{int8_t(x), int8_t(y)};
        if (board.at(c) != Color::Empty) continue;
        for (Color mover : {Color::Black, Color::White}) {
          int level = 1 + int(rng() % scheme.levels);
          uint64_t expect = pattern_key(spell_pattern(board, c, level, mover), scheme);
          CHECK(tracker.key(board.index(c), level, mover) == expect);
          ++checked;
          if (!incremental_rings) continue;
          PatternTracker::Cursor cursor;
          uint64_t via_cursor = 0;
          for (int l = 1; l <= level; ++l) {
            if (l < level && l % 2) tracker.fold(board.index(c), &cursor);
            else via_cursor = tracker.next_key(board.index(c), mover, &cursor);
          }
          CHECK(via_cursor == expect);
        }
      }
  }
  CHECK(checked > 0);
}
}  // namespace

TEST_CASE("tracker keys equal keys from scratch during random games") {
  KeyScheme scheme;
  SUBCASE("19x19, L=10, symmetry") { check_tracker_against_scratch(19, scheme, 300, 1); }
  SUBCASE("9x9, L=16 (larger than the board)") {
    scheme.levels = 16;
    check_tracker_against_scratch(9, scheme, 120, 2);
  }
  SUBCASE("13x13, no symmetry") {
    scheme.symmetry = false;
    check_tracker_against_scratch(13, scheme, 200, 3);
  }
  SUBCASE("only the first rings kept up to date, the others spelled at each walk") {
    check_tracker_against_scratch(19, scheme, 300, 6, 1);
    check_tracker_against_scratch(19, scheme, 300, 7, 4);
    scheme.levels = 16;
    check_tracker_against_scratch(9, scheme, 120, 8, 3);
  }
  SUBCASE("2x2 and 25x25") {
    scheme.levels = 3;
    check_tracker_against_scratch(2, scheme, 10, 4);
    check_tracker_against_scratch(25, scheme, 100, 5);
  }
}

TEST_CASE("tracker: the player to move decides which stones are X") {
  KeyScheme scheme;
  Board board(9);
  PatternTracker tracker(scheme, 9);
  Point p{4, 3};
  REQUIRE(board.play(p, Color::Black) == MoveError::None);
  tracker.after_play(board, board.index(p));
  int c = board.index(Point{4, 4});  // south of the stone
  CHECK(tracker.key(c, 1, Color::Black) == pattern_key("X...", scheme));
  CHECK(tracker.key(c, 1, Color::White) == pattern_key("O...", scheme));
  CHECK(tracker.key(c, 1, Color::Black) != tracker.key(c, 1, Color::White));
  // Walk visits levels upward and stops when told.
  int visited = tracker.walk(c, Color::Black, [](int level, uint64_t) { return level < 3; });
  CHECK(visited == 3);
}

TEST_CASE("tracker keys equal keys from scratch at every move and point of real games") {
  // Every move of a few corpus games: at every point (empty or not) and for
  // both players to move, every level's incremental key is the key of the
  // spelled pattern; and equal canonical strings have equal keys.
  KeyScheme scheme;
  struct Check : TrackingObserver {
    using TrackingObserver::TrackingObserver;
    uint64_t compared = 0, mismatches = 0, string_conflicts = 0;
    std::map<std::string, uint64_t> key_of_canonical;  // levels 1..3
    void before_move(const Board& b, Color, Point, int) override {
      for (int y = 0; y < b.size(); ++y)
        for (int x = 0; x < b.size(); ++x) {
          const Point c{int8_t(x), int8_t(y)};
          for (Color mover : {Color::Black, Color::White}) {
            const std::string full = spell_pattern(b, c, tracker.scheme().levels, mover);
            tracker.walk(b.index(c), mover, [&](int level, uint64_t key) {
              const std::string_view sub(full.data(), size_t(level_points(level)));
              ++compared;
              mismatches += key != pattern_key(sub, tracker.scheme());
              if (level <= 3) {
                auto [it, fresh] = key_of_canonical.emplace(canonical_pattern(sub), key);
                string_conflicts += !fresh && it->second != key;
              }
              return true;
            });
          }
        }
    }
  } check(scheme);
  auto lines = testutil::sample_lines(1500, 6);
  REQUIRE(lines.size() == 6);
  int moves = 0;
  for (const std::string& line : lines) {
    Game game;
    REQUIRE(parse_game(line, &game).ok());
    Board board;
    ReplayResult rr;
    check.start_game(game.info.size);
    REQUIRE(replay(game, &board, &rr, &check).ok());
    moves += rr.moves_played;
  }
  CHECK(moves > 600);
  CHECK(check.compared == uint64_t(moves) * 361 * 2 * 10);
  CHECK(check.mismatches == 0);
  CHECK(check.string_conflicts == 0);
  // Level 3 alone has far more shapes than these games hold: the map is a real test.
  CHECK(check.key_of_canonical.size() > 1000);
  // Different canonical strings of a level, different keys (keys of
  // different levels may coincide: empty points add nothing to a key).
  std::set<std::pair<size_t, uint64_t>> keys;
  for (const auto& [str, key] : check.key_of_canonical) keys.insert({str.size(), key});
  CHECK(keys.size() == check.key_of_canonical.size());
}

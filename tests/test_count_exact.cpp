// The counts in the database are exact: every (level, pattern) the real
// `sgfpat ingest` reports is compared with a brute-force counter written
// here from the spec alone (own rules engine, own pattern spelling, own
// canonical form by trying the 8 transforms as strings).  Nothing of
// lib/pattern (except pattern_key, to name a string's key), lib/count or
// lib/store's counting is used to make the expectations.
#include <algorithm>
#include <array>
#include <cstring>
#include <iostream>
#include <set>
#include <string_view>
#include <unordered_map>

#include "pattern/key_scheme.h"
#include "pattern/pattern_string.h"
#include "test_util.h"

using namespace testutil;

namespace {

constexpr int L = 6;                    // deepest level of these tests
constexpr int kPoints = 2 * L * (L + 1);  // 84
constexpr int npoints(int level) { return 2 * level * (level + 1); }
constexpr size_t kCorpusGames = 150;

// ------------------------------------------------------------ geometry

struct Geometry {
  std::array<std::pair<int, int>, kPoints> off;  // spec point order
  std::array<std::array<int, kPoints>, 8> perm;  // perm[s][j]: index of transform_s(off[j])
  Geometry() {
    int j = 0;
    for (int d = 1; d <= L; ++d) {  // the spec's loop, verbatim
      for (int k = 0; k < d; ++k) off[size_t(j++)] = {k, -d + k};
      for (int k = 0; k < d; ++k) off[size_t(j++)] = {d - k, k};
      for (int k = 0; k < d; ++k) off[size_t(j++)] = {-k, d - k};
      for (int k = 0; k < d; ++k) off[size_t(j++)] = {-d + k, -k};
    }
    if (j != kPoints) throw std::logic_error("wrong number of diamond points");
    for (int s = 0; s < 8; ++s)
      for (int i = 0; i < kPoints; ++i) {
        auto [dx, dy] = off[size_t(i)];
        if (s >= 4) dx = -dx;                      // mirror
        for (int r = 0; r < s % 4; ++r) {          // then rotate by 90 degrees
          int t = dx;
          dx = -dy;
          dy = t;
        }
        int found = -1;
        for (int k = 0; k < kPoints; ++k)
          if (off[size_t(k)] == std::make_pair(dx, dy)) found = k;
        if (found < 0) throw std::logic_error("a transform leaves the diamond");
        perm[size_t(s)][size_t(i)] = found;
      }
  }
};
const Geometry& geo() {
  static Geometry g;
  return g;
}

// The pattern around a center, built ring by ring on demand: the raw string
// (transform 0) and its 8 transforms, and the canonical string of each level
// as the smallest of the 8 (only transforms tied so far can still win).
class PatternView {
 public:
  PatternView(const MiniBoard& b, int mover, int x, int y) : b_(b), mover_(mover), x_(x), y_(y) {}

  // Extends to `level` (levels must be asked in order 1, 2, ...).
  void extend(int level) {
    const Geometry& g = geo();
    const int lo = npoints(level - 1), hi = npoints(level);
    for (int j = lo; j < hi; ++j) {
      auto [dx, dy] = g.off[size_t(j)];
      int px = x_ + dx, py = y_ + dy;
      char c;
      if (!b_.on(px, py)) c = '#';
      else if (b_.at(px, py) == 0) c = '.';
      else if (b_.at(px, py) == mover_) c = 'X';
      else c = 'O';
      t_[0][j] = c;
    }
    for (int s = 1; s < 8; ++s)
      for (int j = lo; j < hi; ++j) t_[s][j] = t_[0][g.perm[size_t(s)][size_t(j)]];
    // Among the transforms tied at the previous level, keep the smallest.
    int best = -1;
    uint8_t ties = 0;
    for (int s = 0; s < 8; ++s) {
      if (!(tied_ >> s & 1)) continue;
      int cmp = best < 0 ? -1 : std::memcmp(t_[s] + lo, t_[best] + lo, size_t(hi - lo));
      if (cmp < 0) {
        best = s;
        ties = uint8_t(1u << s);
      } else if (cmp == 0) {
        ties |= uint8_t(1u << s);
      }
    }
    tied_ = ties;
    best_ = best;
    level_ = level;
  }
  std::string_view raw() const { return {t_[0], size_t(npoints(level_))}; }
  std::string_view canonical() const { return {t_[best_], size_t(npoints(level_))}; }

 private:
  const MiniBoard& b_;
  int mover_, x_, y_;
  char t_[8][kPoints];
  uint8_t tied_ = 0xff;
  int best_ = 0;
  int level_ = 0;
};

// Canonical form of a pattern string, from scratch.
std::string canonical_of(const std::string& p) {
  const int n = int(p.size());
  std::string best;
  for (int s = 0; s < 8; ++s) {
    std::string t(size_t(n), '?');
    for (int j = 0; j < n; ++j) t[size_t(j)] = p[size_t(geo().perm[size_t(s)][size_t(j)])];
    if (s == 0 || t < best) best = t;
  }
  return best;
}

// ------------------------------------------------------------ brute force

struct Counts {
  uint64_t played = 0, seen = 0, wins = 0;
};
struct SvHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using Table = std::unordered_map<std::string, Counts, SvHash, std::equal_to<>>;

struct Expected {
  std::vector<std::string> lines;  // the input file, one game a line
  size_t stored = 0, rejected = 0, duplicates = 0;
  uint64_t positions = 0, candidates = 0;
  uint64_t move_not_candidate = 0;  // must stay 0: a stored move is always a legal candidate
  std::array<Table, L + 1> sym, raw;  // [level]: canonical / as-seen string -> counts
  double seconds = 0;
};

// Hand-made records: captures (single and multiple), ko with a forbidden
// recapture, suicide points, passes, a double move, a White win, handicap
// setup stones, a suicide and mid-game setup (New Zealand rules), small
// boards, an illegal record and a duplicate.
const char* kHandMade[] = {
    // 9x9: ko fought three times (B takes, W takes back after a threat, B
    // takes again after a pass), a 2-stone capture, a suicide point for B.
    "(;GM[1]FF[4]SZ[9]KM[5.5]RE[W+5.5]GN[hand-ko];B[dc];W[ec];B[cd];W[fd];B[de];W[ee];B[hh];W[dd];B[ed]"
    ";W[bh];B[hb];W[dd];B[];W[gg];B[ed];W[ah];B[ai];W[ii];B[bi];W[ci];B[ff];W[bi];B[gc];W[];B[fb])",
    // 5x5: a double move by Black, captures on the edge, a suicide point
    // for White, two passes at the end.
    "(;GM[1]FF[4]SZ[5]RE[B+R]GN[hand-5x5];B[cc];W[bc];B[cb];W[cd];B[bd];W[dc];B[bb];B[ac];W[db];B[dd]"
    ";W[ce];B[de];W[ed];B[be];W[cd];B[ce];W[];B[])",
    // 9x9 handicap: setup stones, White moves first, Black wins.
    "(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]AB[cc][gg]RE[B+2.5]GN[hand-hcp];W[gc];B[cg];W[ee];B[ge];W[ec];B[fc]"
    ";W[fb];B[gb];W[eg];B[fg];W[ef];B[dc];W[db];B[cb];W[ed];B[hc])",
    // Illegal: a stone on an occupied point.  Must be rejected entirely.
    "(;GM[1]FF[4]SZ[9]RE[B+R]GN[hand-illegal];B[ee];W[dc];B[ee];W[cc])",
    // A copy of the 5x5 game under another name: one game, stored once.
    "(;GM[1]FF[4]SZ[5]RE[B+R]GN[hand-5x5-copy];B[cc];W[bc];B[cb];W[cd];B[bd];W[dc];B[bb];B[ac];W[db];B[dd]"
    ";W[ce];B[de];W[ed];B[be];W[cd];B[ce];W[];B[])",
    // 5x5 under New Zealand rules: Black's two-stone suicide, then a setup
    // node in mid-game that removes a White stone and adds a Black one.
    "(;GM[1]FF[4]SZ[5]RU[NZ]RE[B+R]GN[hand-nz];B[dd];W[ba];B[de];W[bb];B[aa];W[ac];B[ab];W[cc]"
    ";AE[cc]AB[ee];W[ab];B[ed];W[aa];B[ce];W[];B[])",
    // 19x19 without a winner (RE[0]): nobody's wins count.
    "(;GM[1]FF[4]SZ[19]RE[0]GN[hand-draw];B[pd];W[dp];B[pp];W[dd];B[jj];W[jk];B[kk];W[kj];B[ji];W[ki]"
    ";B[lj];W[ik];B[jl];W[il];B[kl];W[];B[ij])",
};

std::vector<std::string> test_lines() {
  std::vector<std::string> lines = sample_lines(0, kCorpusGames);
  REQUIRE(lines.size() == kCorpusGames);
  for (const char* g : kHandMade) lines.push_back(std::string(g) + "\n");
  return lines;
}

const Expected& expected() {
  static Expected* ex = nullptr;
  if (ex) return *ex;
  ex = new Expected;
  auto t0 = std::chrono::steady_clock::now();
  ex->lines = test_lines();
  std::vector<sgfpat::Game> games = expected_stored_games(ex->lines, &ex->rejected, &ex->duplicates);
  ex->stored = games.size();
  // Pass A: played and wins, every level, both forms.
  for (const auto& g : games) {
    const int winner = re_winner(g.info.result);
    bool ok = mini_replay(g, [&](MiniBoard& b, int mover, int x, int y) {
      ++ex->positions;
      PatternView pv(b, mover, x, y);
      for (int i = 1; i <= L; ++i) {
        pv.extend(i);
        for (auto* t : {&ex->sym[size_t(i)], &ex->raw[size_t(i)]}) {
          std::string_view s = t == &ex->sym[size_t(i)] ? pv.canonical() : pv.raw();
          auto it = t->find(s);
          if (it == t->end()) it = t->emplace(std::string(s), Counts{}).first;
          ++it->second.played;
          it->second.wins += winner == mover;
        }
      }
    });
    REQUIRE(ok);
  }
  // Pass B: seen, for every legal candidate.  Only patterns played at least
  // once can be reported, and a pattern whose level-i part was never played
  // was not played at level i+1 either, so the walk up stops there.
  for (const auto& g : games) {
    const bool suicide = g.info.suicide_allowed();
    mini_replay(g, [&](MiniBoard& b, int mover, int x, int y) {
      auto cands = b.candidates(mover, suicide);
      if (std::find(cands.begin(), cands.end(), std::make_pair(x, y)) == cands.end()) ++ex->move_not_candidate;
      ex->candidates += cands.size();
      for (auto [cx, cy] : cands) {
        PatternView pv(b, mover, cx, cy);
        bool sym_on = true, raw_on = true;
        for (int i = 1; i <= L && (sym_on || raw_on); ++i) {
          pv.extend(i);
          if (sym_on) {
            auto it = ex->sym[size_t(i)].find(pv.canonical());
            if (it == ex->sym[size_t(i)].end()) sym_on = false;
            else ++it->second.seen;
          }
          if (raw_on) {
            auto it = ex->raw[size_t(i)].find(pv.raw());
            if (it == ex->raw[size_t(i)].end()) raw_on = false;
            else ++it->second.seen;
          }
        }
      }
    });
  }
  ex->seconds = seconds_since(t0);
  REQUIRE(ex->move_not_candidate == 0);
  MESSAGE("brute force: " << ex->stored << " games, " << ex->positions << " positions, " << ex->candidates
                          << " candidates in " << ex->seconds << " s");
  return *ex;
}

// Expected reported counts: (level, key) -> counts for played >= k, plus
// the string of each key (to explain differences and check closure).
struct Reported {
  std::map<CountKey, sgfpat::PatternCounts> counts;
  std::map<CountKey, std::string> pattern;
};
Reported expected_reported(bool symmetry, int k) {
  const Expected& ex = expected();
  sgfpat::KeyScheme scheme;
  scheme.levels = L;
  scheme.symmetry = symmetry;
  Reported r;
  size_t collisions = 0;
  for (int i = 1; i <= L; ++i)
    for (const auto& [s, c] : (symmetry ? ex.sym : ex.raw)[size_t(i)]) {
      if (c.played < uint64_t(k)) continue;
      CountKey key{i, sgfpat::pattern_key(s, scheme)};
      if (!r.counts.emplace(key, sgfpat::PatternCounts{c.played, c.seen, c.wins}).second) {
        FAIL_CHECK("two patterns share a key: " << s << " and " << r.pattern[key]);
        ++collisions;
      }
      r.pattern[key] = s;
    }
  REQUIRE(collisions == 0);
  return r;
}

// How the count must have gone: every kept pattern in memory at once, or
// parts.
enum class Mode { kResident, kParts };

void check_db(bool symmetry, int k, const std::vector<std::string>& extra_flags, Mode mode) {
  const Expected& ex = expected();
  TempDir tmp("sgfpat-exact");
  std::string input = tmp / "games.sgf";
  write_file(input, join(ex.lines));
  std::vector<std::string> flags = {"--levels", std::to_string(L), "--min-played", std::to_string(k)};
  if (!symmetry) flags.push_back("--no-symmetry");
  flags.insert(flags.end(), extra_flags.begin(), extra_flags.end());
  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json j = ingest_ok(tmp / "db", flags, {input}, tmp.path());
  double ingest_s = seconds_since(t0);

  // The import's own numbers.
  CHECK(j["games_read"].get<size_t>() == ex.lines.size());
  CHECK(j["ingested"].get<size_t>() == ex.stored);
  CHECK(j["games_in_db"].get<size_t>() == ex.stored);
  CHECK(j["rejected"].get<size_t>() == ex.rejected);
  CHECK(j["duplicates"].get<size_t>() == ex.duplicates);
  REQUIRE(j["recounted"].get<bool>());
  CHECK(j["count"]["games"].get<size_t>() == ex.stored);
  CHECK(j["count"]["positions"].get<uint64_t>() == ex.positions);
  CHECK(j["count"]["candidates"].get<uint64_t>() == ex.candidates);
  // Small budgets count in several parts, each over its own replay;
  // otherwise every kept pattern is counted in memory at once.
  if (mode == Mode::kParts) {
    CHECK(j["count"]["mode"] == "parts");
    CHECK(j["count"]["parts"].get<uint64_t>() >= 2);
    CHECK(j["count"]["drains"].get<uint64_t>() == 0);
  } else {
    CHECK(j["count"]["mode"] == "resident");
    CHECK(j["count"]["drains"].get<uint64_t>() == 0);
  }

  Reported want = expected_reported(symmetry, k);
  DbSnapshot db = read_db(tmp / "db");
  INFO("reading the db: " << db.error);
  REQUIRE(db.opened);
  CHECK(db.game_count == ex.stored);
  CHECK(db.settings.min_played == k);
  CHECK(db.settings.scheme.levels == L);
  CHECK(db.settings.scheme.symmetry == symmetry);
  auto got = db.reported();

  // Same reported set, same counts.
  std::string why;
  size_t diffs = diff_counts(want.counts, got, &why);
  if (diffs) {
    // Name the patterns of the first differences.
    std::ostringstream o;
    size_t shown = 0;
    for (const auto& [key, c] : want.counts) {
      auto it = got.find(key);
      if (it != got.end() && same_counts(it->second, c)) continue;
      if (++shown > 5) break;
      o << "  L" << key.first << " " << want.pattern[key] << " want (" << c.played << "," << c.seen << ","
        << c.wins << ")";
      if (it != got.end()) o << " got (" << it->second.played << "," << it->second.seen << "," << it->second.wins << ")";
      else o << " got nothing";
      o << "\n";
    }
    why += o.str();
  }
  INFO("expected vs database (level key: (played,seen,wins)):\n" << why);
  CHECK(diffs == 0);

  // Entries kept below the threshold are not reported, but their played
  // count must not be wrong either: played is exact wherever it is stored.
  Reported all = expected_reported(symmetry, 1);
  size_t bad_unreported = 0, bad_level = 0;
  for (const auto& [key, c] : db.counts) {
    if (key.first < 1 || key.first > L) ++bad_level;
    if (c.played >= uint64_t(k)) continue;
    auto it = all.counts.find(key);
    uint64_t true_played = it == all.counts.end() ? 0 : it->second.played;
    if (c.played != true_played) ++bad_unreported;
  }
  CHECK(bad_unreported == 0);
  CHECK(bad_level == 0);

  // Closed under smaller levels: the level-(i-1) part of every reported
  // level-i pattern is reported.
  sgfpat::KeyScheme scheme;
  scheme.levels = L;
  scheme.symmetry = symmetry;
  size_t open_holes = 0;
  for (const auto& [key, c] : got) {
    if (key.first == 1) continue;
    auto name = want.pattern.find(key);
    if (name == want.pattern.end()) continue;  // already a difference above
    std::string sub = name->second.substr(0, size_t(npoints(key.first - 1)));
    if (symmetry) sub = canonical_of(sub);
    if (!got.count({key.first - 1, sgfpat::pattern_key(sub, scheme)})) ++open_holes;
  }
  CHECK(open_holes == 0);

  // The summary's per-level numbers agree with what is stored.
  std::vector<uint64_t> per_level(L, 0);
  for (const auto& [key, c] : got) per_level[size_t(key.first - 1)]++;
  CHECK(j["count"]["patterns_per_level"].get<std::vector<uint64_t>>() == per_level);

  std::string label = std::string("symmetry ") + (symmetry ? "on" : "off") + ", min-played " + std::to_string(k);
  for (const auto& f : extra_flags) label += " " + f;
  MESSAGE(label << ": compared " << want.counts.size() << " reported patterns (" << db.counts.size()
          << " stored entries); ingest " << ingest_s << " s, " << j["count"]["drains"] << " drains, "
          << j["count"]["parts"] << " parts");
}

}  // namespace

TEST_CASE("brute force self-check: the rules engine and the spelling follow the spec") {
  // Ring 1 is N, E, S, W; ring 2 starts due north and goes clockwise.
  const Geometry& g = geo();
  CHECK(g.off[0] == std::make_pair(0, -1));
  CHECK(g.off[1] == std::make_pair(1, 0));
  CHECK(g.off[2] == std::make_pair(0, 1));
  CHECK(g.off[3] == std::make_pair(-1, 0));
  CHECK(g.off[4] == std::make_pair(0, -2));
  CHECK(g.off[5] == std::make_pair(1, -1));
  CHECK(g.off[6] == std::make_pair(2, 0));
  // The 8 transforms are distinct permutations.
  std::set<std::array<int, kPoints>> perms(g.perm.begin(), g.perm.end());
  CHECK(perms.size() == 8);

  // A corner stone seen by both colors: off-board points are '#'.
  MiniBoard b(9);
  REQUIRE(b.play(0, 1, 1, false) == MiniBoard::kOk);  // B at a8 (x=0, y=1)
  PatternView v(b, 1, 0, 0);  // around a9, Black to move
  v.extend(1);
  CHECK(v.raw() == "#.X#");  // N off, E empty, S own stone, W off
  PatternView w(b, 2, 0, 0);
  w.extend(1);
  CHECK(w.raw() == "#.O#");
  CHECK(w.canonical() == "##.O");
  CHECK(canonical_of("#.O#") == "##.O");

  // The ko of the first hand-made game: right after B takes at e6 (x=4,
  // y=3), W may not take back at d6 (x=3, y=3), though it is empty; a
  // suicide point is no candidate either.
  sgfpat::Game game;
  REQUIRE(sgfpat::parse_game(kHandMade[0], &game).ok());
  int move = 0;
  bool checked_ko = false, checked_suicide = false;
  bool legal = mini_replay(game, [&](MiniBoard& bd, int mover, int, int) {
    ++move;
    auto c = bd.candidates(mover, false);
    auto has = [&](int x, int y) { return std::find(c.begin(), c.end(), std::make_pair(x, y)) != c.end(); };
    if (move == 9) {  // B[ed] is about to capture; then W's turn
      CHECK(has(4, 3));
    }
    if (move == 10) {  // W right after the ko capture
      CHECK(bd.at(3, 3) == 0);
      CHECK_FALSE(has(3, 3));
      checked_ko = true;
    }
    if (move == 11) CHECK(has(3, 3));  // B to move: d6 is empty, among B's own stones with liberties
    if (move == 22) {  // B[gc]: a9 (x=0,y=8) is empty and surrounded by W with liberties
      CHECK(bd.at(0, 8) == 0);
      CHECK_FALSE(has(0, 8));
      checked_suicide = true;
    }
  });
  CHECK(legal);
  CHECK(checked_ko);
  CHECK(checked_suicide);
}

TEST_CASE("count exact: symmetry on, min-played 1") { check_db(true, 1, {}, Mode::kResident); }
TEST_CASE("count exact: symmetry on, min-played 2") { check_db(true, 2, {}, Mode::kResident); }
TEST_CASE("count exact: symmetry off, min-played 1") { check_db(false, 1, {}, Mode::kResident); }
TEST_CASE("count exact: symmetry off, min-played 2") { check_db(false, 2, {}, Mode::kResident); }
// A budget just above it counted in parts: each part's patterns are
// reached through the base levels every part holds, and written once.
TEST_CASE("count exact: small memory budget, counted in parts") {
  check_db(true, 1, {"--memory-mb", "7", "--threads", "2"}, Mode::kParts);
}
TEST_CASE("count exact: small memory budget, counted in parts, symmetry off, one thread") {
  check_db(false, 1, {"--memory-mb", "7", "--threads", "1"}, Mode::kParts);
}
// Too little room beside the sketch for the listing's lists: listed with
// the least room (a run written after nearly every batch), then counted in
// parts.
TEST_CASE("count exact: tiny memory budget, listed with the least room, counted in parts") {
  check_db(true, 1, {"--memory-mb", "4", "--threads", "2"}, Mode::kParts);
}
TEST_CASE("count exact: small memory budget, min-played 3") {
  check_db(false, 3, {"--memory-mb", "16", "--threads", "2"}, Mode::kResident);
}

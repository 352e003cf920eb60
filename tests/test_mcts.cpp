// Monte Carlo tree search with the seed tree policy (TreePolicy::Seed, plain
// random playouts): tactics on small boards, tree accounting, priors for
// both colors, threads, and the suggest / gtp commands.  The engine's
// policy (PUCT-RAVE, tactical playouts) is tested in test_mcts_tactics.cpp.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "board_diagram.h"
#include "mcts/mcts.h"

using namespace sgfpat;
using namespace sgfpat::mcts;
using sgfpat::test::make_board;
using sgfpat::test::pt;

namespace {

SearchOptions opts(int64_t iterations, uint64_t seed = 1, int threads = 1) {
  SearchOptions o;
  o.iterations = iterations;
  o.seed = seed;
  o.threads = threads;
  o.explore = 1;
  o.policy = TreePolicy::Seed;
  o.prior_heuristics = false;
  o.playout_tactics = false;
  return o;
}

// Black to move: the black chain on the bottom row and the white chain
// above it share their only liberty G1 (r6,c6).  Capturing there wins
// (komi 30); any other move lets White capture and live.
const char* kRace = ".......|.......|.......|.......|XXXXXXX|XOOOOOO|XOXXXX.";
// White to move: seven white stones in atari, their one liberty D2 (r5,c3).
const char* kSaveWhite = ".......|..XXX..|.XOOOX.|.XOOOX.|..XOX..|.......|.......";
const char* kSaveBlack = ".......|..OOO..|.OXXXO.|.OXXXO.|..OXO..|.......|.......";

// Checks the identities of the header on every node; returns the node count.
int64_t check_tree(const Node& node, bool is_root) {
  CHECK(node.vloss.load() == 0);
  const int32_t n = node.n.load();
  if (node.state.load() != Node::kExpanded) {
    CHECK(n == 0);  // a node reached by an iteration is expanded by it
    return 1;
  }
  if (!is_root) CHECK(n >= 1);
  int64_t sum = 0, count = 1;
  for (int i = 0; i < node.num_children; ++i) {
    sum += node.children[size_t(i)].n.load();
    count += check_tree(node.children[size_t(i)], false);
  }
  if (node.num_children > 0) CHECK(n == sum + (is_root ? 0 : 1));
  CHECK(node.black_wins_x2.load() >= 0);
  CHECK(node.black_wins_x2.load() <= 2 * n);
  return count;
}

struct Proc {
  std::string out;
  int status = -1;
};
// Runs the sgfpat binary with `args`, feeding `input` on stdin.
Proc run_binary(const std::string& args, const std::string& input) {
  char tmpl[] = "/tmp/sgfpat-mcts-XXXXXX";
  int fd = mkstemp(tmpl);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::ofstream(tmpl) << input;
  std::string cmd = std::string(SGFPAT_BINARY) + " " + args + " < " + tmpl + " 2>/dev/null";
  Proc p;
  FILE* f = ::popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  char buf[4096];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) p.out.append(buf, k);
  p.status = ::pclose(f);
  ::unlink(tmpl);
  return p;
}

}  // namespace

TEST_CASE("eye definition of the default policy") {
  Board b = make_board("X.X..|XXX..|.....|.....|.....");
  CHECK(is_own_eye(b, b.index(pt(0, 1)), Color::Black));   // edge, no diagonal opponent
  CHECK_FALSE(is_own_eye(b, b.index(pt(0, 1)), Color::White));
  CHECK_FALSE(is_own_eye(b, b.index(pt(2, 2)), Color::Black));
  Board d = make_board(".....|.XXX.|.X.X.|.XXO.|.....");
  CHECK(is_own_eye(d, d.index(pt(2, 2)), Color::Black));  // centre: one opponent diagonal allowed
  Board e = make_board(".....|.OXX.|.X.X.|.XXO.|.....");
  CHECK_FALSE(is_own_eye(e, e.index(pt(2, 2)), Color::Black));  // two opponent diagonals
  Board f = make_board("X.X..|OXX..|.....|.....|.....");
  CHECK_FALSE(is_own_eye(f, f.index(pt(0, 1)), Color::Black));  // edge: no opponent diagonal
}

TEST_CASE("playouts end with a result") {
  Rng rng(5);
  Board b(9);
  for (int i = 0; i < 50; ++i) {
    int r = random_playout(b, i % 2 ? Color::White : Color::Black, 7.5, rng);
    CHECK((r == 0 || r == 1 || r == 2));
  }
  // Integer komi on an empty 2x2 board: scores can tie.
  CHECK(random_playout(Board(2), Color::Black, 0.5, rng) >= 0);
}

TEST_CASE("action value: same formula for both colors, priors as given") {
  CHECK(action_value(Color::Black, 0, 0, 0.3) == doctest::Approx(0.3));
  CHECK(action_value(Color::White, 0, 0, 0.3) == doctest::Approx(0.3));  // not 1 - 0.3
  // n = 4, Black won 3: Black's value 3/4 + p/5, White's 1/4 + p/5.
  CHECK(action_value(Color::Black, 4, 3, 0.5) == doctest::Approx(0.75 + 0.1));
  CHECK(action_value(Color::White, 4, 3, 0.5) == doctest::Approx(0.25 + 0.1));
}

TEST_CASE("White, like Black, prefers its high-prior moves before any visit") {
  Board b(5);
  const Point favourite = pt(3, 4);  // late in board order
  SearchOptions o = opts(1);
  o.explore = 0;
  o.prior_fn = [&](const Board& board, Color mover, std::vector<MovePrior>* out) {
    out->clear();
    for (int y = 0; y < board.size(); ++y)
      for (int x = 0; x < board.size(); ++x) {
        Point p{int8_t(x), int8_t(y)};
        if (board.is_legal(p, mover)) out->push_back({p, p == favourite ? 0.5 : 0.5 / 24});
      }
  };
  for (Color mover : {Color::Black, Color::White}) {
    CAPTURE(int(mover));
    Search search(nullptr, {}, o);
    SearchResult r = search.run(b, mover);
    REQUIRE(r.has_move);
    CHECK(r.best == favourite);
    // The only visited root child is the favourite.
    for (const ChildStats& c : r.children) CHECK(c.visits == (c.move == favourite ? 1 : 0));
    // And on the fresh tree's root the selection picks it too.
    CHECK(search.root()->children[size_t(select_child(*search.root(), mover))].move == favourite);
  }
  // Ties of value go to the larger prior, then to the first in order.
  Node parent;
  parent.num_children = 3;
  parent.children = std::make_unique<Node[]>(3);
  parent.children[0].prior = 0.2f;
  parent.children[1].prior = 0.4f;
  parent.children[2].prior = 0.4f;
  CHECK(select_child(parent, Color::White) == 1);
  CHECK(select_child(parent, Color::Black) == 1);
}

TEST_CASE("finds the capture that wins a capturing race") {
  Board b = make_board(kRace);
  for (uint64_t seed : {1, 2, 3}) {
    SearchOptions o = opts(3000, seed);
    o.komi = 30;
    Search search(nullptr, {}, o);
    SearchResult r = search.run(b, Color::Black);
    CAPTURE(seed);
    CHECK(r.best == pt(6, 6));
  }
}

TEST_CASE("saves its own stones in atari (both colors)") {
  for (uint64_t seed : {1, 2}) {
    CAPTURE(seed);
    Search w(nullptr, {}, opts(3000, seed));
    CHECK(w.run(make_board(kSaveWhite), Color::White).best == pt(5, 3));
    SearchOptions ob = opts(3000, seed);
    ob.komi = -7.5;  // the colors swapped, komi too
    Search bl(nullptr, {}, ob);
    CHECK(bl.run(make_board(kSaveBlack), Color::Black).best == pt(5, 3));
  }
}

TEST_CASE("visits add up (one thread) and the search is reproducible") {
  Board b = make_board(kSaveWhite);
  Search s1(nullptr, {}, opts(2000, 7));
  SearchResult r1 = s1.run(b, Color::White);
  CHECK(r1.iterations == 2000);
  CHECK(r1.root_visits == 2000);
  CHECK(s1.root()->n.load() == 2000);
  int64_t sum = 0;
  for (const ChildStats& c : r1.children) sum += c.visits;
  CHECK(sum == 2000);
  CHECK(check_tree(*s1.root(), true) == r1.nodes);

  Search s2(nullptr, {}, opts(2000, 7));
  SearchResult r2 = s2.run(b, Color::White);
  REQUIRE(r1.children.size() == r2.children.size());
  for (size_t i = 0; i < r1.children.size(); ++i) {
    CHECK(r1.children[i].visits == r2.children[i].visits);
    CHECK(r1.children[i].black_wins == r2.children[i].black_wins);
  }
  CHECK(r1.best == r2.best);
}

TEST_CASE("threads: visits add up and the tree is consistent") {
  Board b(9);
  b.play(pt(4, 4), Color::Black);
  b.play(pt(2, 6), Color::White);
  for (int threads : {2, 4}) {
    CAPTURE(threads);
    Search s(nullptr, {}, opts(3000, 11, threads));
    SearchResult r = s.run(b, Color::Black);
    CHECK(r.root_visits == 3000);
    int64_t sum = 0;
    for (const ChildStats& c : r.children) sum += c.visits;
    CHECK(sum == 3000);
    CHECK(check_tree(*s.root(), true) == r.nodes);
  }
}

TEST_CASE("threads: tactics still found with several threads") {
  // Threads make the search order, hence the result, vary from run to run:
  // enough playouts that the saving move wins every time, not most times
  // (3,000 failed 3 runs in 40 on a loaded machine).
  Search s(nullptr, {}, opts(12000, 3, 2));
  CHECK(s.run(make_board(kSaveWhite), Color::White).best == pt(5, 3));
}

TEST_CASE("threads: the input board is never modified") {
  Board b = make_board(kRace);
  b.play(pt(0, 0), Color::White);  // a real move too, so ko/hash state is live
  const Board before = b;
  for (int threads : {1, 2}) {
    Search s(nullptr, {}, opts(1500, 1, threads));
    s.run(b, Color::Black);
    CHECK(b.hash() == before.hash());
    CHECK(b.ko_index() == before.ko_index());
    CHECK(b.captures(Color::Black) == before.captures(Color::Black));
    CHECK(b.captures(Color::White) == before.captures(Color::White));
    for (int y = 0; y < b.size(); ++y)
      for (int x = 0; x < b.size(); ++x) CHECK(b.at(pt(y, x)) == before.at(pt(y, x)));
  }
}

TEST_CASE("no legal move: no search, and Pas_de_coup_valide from the binary") {
  Board full = make_board("XOX|OXO|XOX");
  Search s(nullptr, {}, opts(100));
  SearchResult r = s.run(full, Color::Black);
  CHECK_FALSE(r.has_move);
  CHECK(r.root_visits == 0);

  Proc p = run_binary("suggest --player B --board 'XOX|OXO|XOX' --iterations 100", "");
  CHECK(p.status == 0);
  CHECK(p.out == "Pas_de_coup_valide\n");
  // White's only empty points are the eyes of a living black group.
  p = run_binary("suggest --player Blanc --board 'N.N/NNN/N.N' --iterations 100", "");
  CHECK(p.out == "Pas_de_coup_valide\n");
}

TEST_CASE("suggest: the interactive dialogue through a pipe") {
  Proc p = run_binary("suggest", "Noir\n3\n. . .\n. B .\n. . .\n10000\n");
  CHECK(p.status == 0);
  const std::string dialogue =
      "Joueur? Noir\n"
      "Taille? 3\n"
      "Goban: . . .\n"
      "       . B .\n"
      "       . . .\n"
      "Budget d'itérations? 10000\n";
  REQUIRE(p.out.substr(0, dialogue.size()) == dialogue);
  std::string last = p.out.substr(dialogue.size());
  std::smatch m;
  REQUIRE(std::regex_match(last, m, std::regex("Coup conseillé: \\(([0-2]),([0-2])\\) [A-C][1-3]\n")));
  CHECK_FALSE((m[1] == "1" && m[2] == "1"));  // the centre is taken
  // Flags and the JSON form.
  p = run_binary("suggest --player W --board '...|.X.|...' --iterations 500 --json", "");
  CHECK(p.out.find("\"has_move\": true") != std::string::npos);
  CHECK(p.out.find("\"iterations\": 500") != std::string::npos);
}

TEST_CASE("gtp: a session through the binary") {
  const std::string session =
      "1 protocol_version\n"
      "2 boardsize 9\n"
      "3 clear_board\n"
      "4 komi 7.5\n"
      "5 play B E5\n"
      "6 genmove W\n"
      "7 play W E5\n"
      "8 play B Z9\n"
      "9 undo\n"
      "10 final_score\n"
      "11 known_command genmove\n"
      "12 known_command fly\n"
      "frobnicate\n"
      "13 showboard\n"
      "14 quit\n"
      "15 name\n";
  Proc p = run_binary("gtp --playouts 300", session);
  CHECK(p.status == 0);
  const std::string& o = p.out;
  CHECK(o.find("=1 2\n\n") == 0);
  CHECK(o.find("=2\n\n") != std::string::npos);
  CHECK(o.find("=5\n\n") != std::string::npos);
  std::smatch m;
  REQUIRE(std::regex_search(o, m, std::regex("=6 ([A-HJ][1-9])\n\n")));
  CHECK(m[1] != "E5");
  CHECK(o.find("?7 illegal move\n\n") != std::string::npos);
  CHECK(o.find("?8 invalid color or coordinate\n\n") != std::string::npos);
  CHECK(o.find("=9\n\n") != std::string::npos);
  CHECK(std::regex_search(o, std::regex("=10 (B\\+|W\\+)[0-9.]+\n\n")));  // settled by playouts
  CHECK(o.find("=11 true\n\n") != std::string::npos);
  CHECK(o.find("=12 false\n\n") != std::string::npos);
  CHECK(o.find("? unknown command\n\n") != std::string::npos);
  CHECK(o.find("=13 \n") != std::string::npos);
  CHECK(o.find("=14\n\n") != std::string::npos);
  CHECK(o.find("=15") == std::string::npos);  // nothing after quit
}

TEST_CASE("threads: priors of the nodes below the root match the evaluator") {
  // Priors from the 9x9 sample games, built with the binary.
  char dir[] = "/tmp/sgfpat-mcts-priors-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string d = dir;
  const std::string sgf = std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-9x9.sgf";
  REQUIRE(run_binary("ingest -q --db " + d + "/db " + sgf + " --sizes 9", "").status == 0);
  REQUIRE(run_binary("export --db " + d + "/db --format priors -o " + d + "/p.priors", "").status == 0);
  sgfpat_priors::Priors priors;
  std::string error;
  REQUIRE_MESSAGE(priors.open(d + "/p.priors", &error), error);
  Evaluator evaluator(priors);

  Board b(9);
  b.play(pt(2, 2), Color::Black);
  b.play(pt(2, 3), Color::White);
  b.play(pt(3, 3), Color::Black);
  b.play(pt(3, 2), Color::White);
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    Search s(&priors, {}, opts(400, 3, threads));
    SearchResult r = s.run(b, Color::Black);
    std::vector<MoveEval> root_evals = evaluator.evaluate(b, Color::Black);
    REQUIRE(root_evals.size() == r.children.size());
    for (size_t i = 0; i < root_evals.size(); ++i)
      CHECK(r.children[i].prior == doctest::Approx(root_evals[i].prob).epsilon(1e-5));
    // Two levels down: the children's priors are those of their positions.
    int checked = 0;
    const Node& root = *s.root();
    for (int i = 0; i < root.num_children; ++i) {
      const Node& a = root.children[size_t(i)];
      if (a.state.load() != Node::kExpanded) continue;
      Board ba = b;
      ba.play(a.move, Color::Black);
      std::vector<MoveEval> ea = evaluator.evaluate(ba, Color::White);
      REQUIRE(int(ea.size()) == a.num_children);
      for (int j = 0; j < a.num_children; ++j) {
        const Node& c = a.children[size_t(j)];
        CHECK(c.prior == doctest::Approx(ea[size_t(j)].prob).epsilon(1e-5));
        if (c.state.load() != Node::kExpanded || c.num_children == 0) continue;
        Board bc = ba;
        bc.play(c.move, Color::White);
        std::vector<MoveEval> ec = evaluator.evaluate(bc, Color::Black);
        REQUIRE(int(ec.size()) == c.num_children);
        for (int k = 0; k < c.num_children; ++k)
          CHECK(c.children[size_t(k)].prior == doctest::Approx(ec[size_t(k)].prob).epsilon(1e-5));
        ++checked;
      }
    }
    CHECK(checked > 0);
  }
  std::filesystem::remove_all(d);
}

TEST_CASE("skip_own_eyes leaves eye-filling moves out of the tree") {
  Board b = make_board("X.X|XXX|X.X");
  SearchOptions o = opts(50);
  Search all(nullptr, {}, o);
  SearchResult r = all.run(b, Color::Black);
  CHECK(r.has_move);
  CHECK(r.children.size() == 2);
  o.skip_own_eyes = true;
  Search skip(nullptr, {}, o);
  CHECK_FALSE(skip.run(b, Color::Black).has_move);
  // The GTP engine passes there.
  Proc p = run_binary("gtp --playouts 50", "boardsize 3\nplay B A3\nplay B C3\nplay B A2\nplay B B2\nplay B C2\n"
                                           "play B A1\nplay B C1\ngenmove B\n");
  CHECK(p.out.find("= pass\n\n") != std::string::npos);
}

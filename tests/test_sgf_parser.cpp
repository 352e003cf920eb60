// SGF parser: syntax (escapes, whitespace, old-style names, variations),
// meaning (moves, passes, setup, board size, metadata) and error messages.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "board/replay.h"
#include "sgf/parser.h"

using namespace sgfpat;

namespace {

Game parse_ok(const std::string& text) {
  Game g;
  Status s = parse_game(text, &g);
  INFO("text: " << text);
  INFO("error: " << s.message());
  REQUIRE(s.ok());
  return g;
}

std::string parse_error(const std::string& text) {
  Game g;
  Status s = parse_game(text, &g);
  INFO("text: " << text);
  REQUIRE_FALSE(s.ok());
  return s.message();
}

Action play(Color c, int x, int y) { return Action{Action::Kind::Play, c, Point{int8_t(x), int8_t(y)}}; }
Action pass(Color c) { return Action{Action::Kind::Play, c, kPass}; }
Action setup(Color c, int x, int y) { return Action{Action::Kind::Setup, c, Point{int8_t(x), int8_t(y)}}; }

// The main line as "B pd, W dp, B -" for readable comparisons.
std::string moves(const Game& g) {
  std::string s;
  for (const Action& a : g.actions) {
    if (a.kind != Action::Kind::Play) continue;
    if (!s.empty()) s += ", ";
    s += color_char(a.color);
    s += ' ';
    s += a.point.is_pass() ? std::string("-") : sgf_name(a.point);
  }
  return s;
}

}  // namespace

TEST_CASE("a plain FF[4] game: metadata and moves") {
  Game g = parse_ok(
      "(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]HA[0]DT[2005-11-02]PB[kaaka46]PW[kikwk]BR[9d]WR[8d]"
      "RE[W+Resign]RU[Japanese]GN[tygem-75803708];B[qd];W[dp];B[pq])");
  CHECK(g.info.size == 19);
  CHECK(g.info.komi == 6.5);
  CHECK(g.info.handicap == 0);
  CHECK(g.info.date == "2005-11-02");
  CHECK(g.info.black_name == "kaaka46");
  CHECK(g.info.white_name == "kikwk");
  CHECK(g.info.black_rank == "9d");
  CHECK(g.info.white_rank == "8d");
  CHECK(g.info.result == "W+Resign");
  CHECK(g.info.rules == "Japanese");
  CHECK(g.info.name == "tygem-75803708");
  REQUIRE(g.actions.size() == 3);
  CHECK(g.actions[0] == play(Color::Black, 16, 3));
  CHECK(g.actions[1] == play(Color::White, 3, 15));
  CHECK(g.actions[2] == play(Color::Black, 15, 16));
  CHECK(g.move_count() == 3);
}

TEST_CASE("parse keeps the origin and clears what an earlier parse left") {
  Game g;
  g.origin.file = "x.sgf";
  g.origin.index = 7;
  REQUIRE(parse_game("(;SZ[9]PB[first]KM[7]HA[2];B[aa];W[bb])", &g).ok());
  REQUIRE(parse_game("(;SZ[13];B[cc])", &g).ok());
  CHECK(g.origin.file == "x.sgf");
  CHECK(g.origin.index == 7);
  CHECK(g.info.size == 13);
  CHECK(g.info.black_name.empty());
  CHECK(g.info.komi == 0.0);
  CHECK(g.info.handicap == 0);
  CHECK(moves(g) == "B cc");
}

TEST_CASE("escapes and soft line breaks in property values") {
  Game g = parse_ok("(;PB[a\\]b]PW[back\\\\slash]GN[soft\\\nbreak]RE[B+\\R]DT[cr\\\r\nlf]RU[lf\\\n\rcr]"
                    "C[comment with \\] and ) and ( inside];B[aa])");
  CHECK(g.info.black_name == "a]b");
  CHECK(g.info.white_name == "back\\slash");
  CHECK(g.info.name == "softbreak");
  CHECK(g.info.result == "B+R");
  CHECK(g.info.date == "crlf");
  CHECK(g.info.rules == "lfcr");
  CHECK(moves(g) == "B aa");
  // A value ending in an escaped backslash is closed by the next ']'.
  Game h = parse_ok("(;PB[x\\\\]PW[y];W[bb])");
  CHECK(h.info.black_name == "x\\");
  CHECK(h.info.white_name == "y");
  // A hard line break is kept as is.
  CHECK(parse_ok("(;GN[two\nlines])").info.name == "two\nlines");
}

TEST_CASE("text is decoded to UTF-8 by the record's charset (CA)") {
  // GB2312 (read as GB18030, its superset), wherever CA stands in the root.
  Game g = parse_ok("(;PB[\xb9\xc5\xc1\xa6]CA[GB2312]PW[GO\xa3\xa8P\xa3\xa9]RE[B+R])");
  CHECK(g.info.black_name == "\u53e4\u529b");                 // 古力
  CHECK(g.info.white_name == "GO\uff08P\uff09");              // GO（P）
  CHECK(g.info.result == "B+R");
  CHECK(parse_ok("(;CA[gbk]PB[\xbf\xc2\xbd\xe0])").info.black_name == "\u67ef\u6d01");  // 柯洁
  // Big5, Shift_JIS, EUC-KR, Latin-1.
  CHECK(parse_ok("(;CA[Big5]PB[\xa4\xab\xa4s\xb8\xce\xa4\xd3])").info.black_name == "\u4e95\u5c71\u88d5\u592a");
  CHECK(parse_ok("(;CA[Shift_JIS]PW[\x88\xe4\x8eR\x97T\x91\xbe])").info.white_name == "\u4e95\u5c71\u88d5\u592a");
  CHECK(parse_ok("(;CA[EUC-KR]PB[\xc0\xcc\xbc\xbc\xb5\xb9]PW[\xd7\xdd\xe1\xa6\xd4\xcc])").info.black_name ==
        "\uc774\uc138\ub3cc");  // 이세돌, and 李世乭 in the white name
  CHECK(parse_ok("(;CA[EUC-KR]PW[\xd7\xdd\xe1\xa6\xd4\xcc])").info.white_name == "\u674e\u4e16\u4e6d");
  CHECK(parse_ok("(;CA[ISO-8859-1]PB[M\xfcller])").info.black_name == "M\u00fcller");
  // No CA: UTF-8 stays, other bytes are SGF's default, Latin-1.
  CHECK(parse_ok("(;PB[M\xc3\xbcller])").info.black_name == "M\u00fcller");
  CHECK(parse_ok("(;PB[M\xfcller])").info.black_name == "M\u00fcller");
  // A record labelled GB2312 whose names are UTF-8 (a common mislabelling).
  CHECK(parse_ok("(;CA[GB2312]PB[\xe5\x8f\xa4\xe5\x8a\x9b])").info.black_name == "\u53e4\u529b");
  // What does not decode is escaped, so the text is always UTF-8.
  CHECK(parse_ok("(;CA[UTF-8]PB[a\xff" "b])").info.black_name == "a\\xFFb");
  CHECK(parse_ok("(;CA[GB2312]PB[a\xff\xff" "b])").info.black_name == "a\\xFF\\xFFb");
  CHECK(parse_ok("(;CA[no-such-charset]PB[a\xff" "b])").info.black_name == "a\\xFFb");
  CHECK(parse_ok("(;CA[x/../../y]PB[a\xff" "b])").info.black_name == "a\\xFFb");
  // CA outside the root does not count; ASCII is never changed.
  CHECK(parse_ok("(;PB[M\xfcller];B[aa]CA[GB2312])").info.black_name == "M\u00fcller");
  CHECK(parse_ok("(;CA[Shift_JIS]PB[Lee\\\\Sedol])").info.black_name == "Lee\\Sedol");
}

TEST_CASE("whitespace anywhere between tokens") {
  Game g = parse_ok(" \r\n( \t;\n GM [1]\r\n SZ\t[9]  KM [ 5.5 ]\n AB [aa] \n [bb]\n;\nB\n[ee] \n ;W[ff]\n)\n\n");
  CHECK(g.info.size == 9);
  CHECK(g.info.komi == 5.5);
  REQUIRE(g.actions.size() == 4);
  CHECK(g.actions[0] == setup(Color::Black, 0, 0));
  CHECK(g.actions[1] == setup(Color::Black, 1, 1));
  CHECK(moves(g) == "B ee, W ff");
}

TEST_CASE("old-style property names: lowercase letters are ignored") {
  Game g = parse_ok(
      "(;GaMe[1]FileFormat[3]SiZe[9]CoPyright[me]PlayerBlack[Honinbo]AddBlack[cc][gg]"
      "AddWhite[cg];Black[ee];White[tt];Black[dd])");
  CHECK(g.info.size == 9);
  CHECK(g.info.black_name == "Honinbo");
  REQUIRE(g.actions.size() == 6);
  CHECK(g.actions[0] == setup(Color::Black, 2, 2));
  CHECK(g.actions[1] == setup(Color::Black, 6, 6));
  CHECK(g.actions[2] == setup(Color::White, 2, 6));
  CHECK(moves(g) == "B ee, W -, B dd");
  CHECK(parse_error("(;b[aa])").find("property name without an uppercase letter") != std::string::npos);
}

TEST_CASE("variations: the main line is the first variation at every node") {
  // Parentheses inside values of skipped variations must not confuse depth.
  Game g = parse_ok(
      "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd]C[x)y])(;W[ee]C[(]))(;W[ff]C[\\]((];B[gg](;W[hh]))"
      "(;W[ii]))");
  CHECK(moves(g) == "B aa, W bb, B cc, W dd");

  // Variations right at the root, and nested first variations.
  Game h = parse_ok("(;SZ[9](;B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))(;B[ff]))");
  CHECK(moves(h) == "B aa, W bb, B cc");

  // Skipped variations may hold anything syntactically sound, even moves
  // off the board: they are not read.
  CHECK(moves(parse_ok("(;SZ[5];B[aa](;W[bb])(;W[zz]))")) == "B aa, W bb");
}

TEST_CASE("deeply nested variations do not exhaust the stack") {
  std::string text = "(;SZ[19]";
  const int depth = 20000;
  for (int i = 0; i < depth; ++i) text += (i % 2 ? "(;W[" : "(;B[") + sgf_name(Point{int8_t(i % 19), int8_t(i / 19 % 19)}) + "]";
  for (int i = 0; i < depth; ++i) text += ")";
  text += ")";
  CHECK(parse_ok(text).move_count() == depth);
}

TEST_CASE("passes: empty value, and tt on boards up to 19x19 only") {
  CHECK(moves(parse_ok("(;SZ[19];B[];W[tt];B[pd])")) == "B -, W -, B pd");
  CHECK(moves(parse_ok("(;SZ[9];B[tt];W[])")) == "B -, W -");
  CHECK(moves(parse_ok("(;;B[tt])")) == "B -");  // default size 19
  // On 21x21 and up, tt is the point (19, 19).
  Game g = parse_ok("(;SZ[21];B[tt];W[];B[uu])");
  REQUIRE(g.actions.size() == 3);
  CHECK(g.actions[0] == play(Color::Black, 19, 19));
  CHECK(g.actions[1] == pass(Color::White));
  CHECK(g.actions[2] == play(Color::Black, 20, 20));
  CHECK(moves(parse_ok("(;SZ[25];B[yy];W[aa])")) == "B yy, W aa");
  CHECK(parse_error("(;SZ[20];B[uu])") == "move 1: bad coordinate 'uu'");
  // tt as a setup point is not a pass.
  CHECK(parse_error("(;AB[tt])") == "root: bad coordinate 'tt' in AB");
}

TEST_CASE("setup: lists, compressed rectangles, order AE AB AW, then PL, then the move") {
  Game g = parse_ok("(;SZ[9]AB[aa:cb]AW[ee];B[ff]AW[gg:gh]AE[aa]PL[W]AB[ii][hh])");
  std::vector<Action> want = {
      setup(Color::Black, 0, 0), setup(Color::Black, 1, 0), setup(Color::Black, 2, 0),
      setup(Color::Black, 0, 1), setup(Color::Black, 1, 1), setup(Color::Black, 2, 1),
      setup(Color::White, 4, 4),
      setup(Color::Empty, 0, 0), setup(Color::Black, 8, 8), setup(Color::Black, 7, 7),
      setup(Color::White, 6, 6), setup(Color::White, 6, 7),
      Action{Action::Kind::SetPlayer, Color::White, kPass},
      play(Color::Black, 5, 5),
  };
  CHECK(g.actions == want);
  // Corners in any order give the same rectangle.
  CHECK(parse_ok("(;AB[cc:aa])").actions.size() == 9);
  CHECK(parse_ok("(;AW[ac:ca])").actions.size() == 9);
  CHECK(parse_error("(;SZ[9]AB[aa:jj])") == "root: bad coordinate 'aa:jj' in AB");
  CHECK(parse_error("(;SZ[9];B[aa];AE[a])") == "move 2: bad coordinate 'a' in AE");
  CHECK(parse_ok("(;PL[B])").actions == std::vector<Action>{{Action::Kind::SetPlayer, Color::Black, kPass}});
}

TEST_CASE("compressed lists cannot blow up memory") {
  std::string many = "(;AB";
  for (int i = 0; i < 11000; ++i) many += "[aa:ss]";
  CHECK(parse_ok(many + ")").actions.size() == 11000u * 361u);
  std::string too_many = "(;AB";
  for (int i = 0; i < 12000; ++i) too_many += "[aa:ss]";
  CHECK(parse_error(too_many + ")") == "root: too many actions in one game");
  std::string many_nodes = "(;";
  for (int i = 0; i < 12000; ++i) many_nodes += ";AW[aa:ss]";
  CHECK(parse_error(many_nodes + ")") == "move 1: too many actions in one game");
}

TEST_CASE("SZ is applied before the root's coordinates are checked") {
  CHECK(parse_ok("(;AB[ii]SZ[9])").actions.size() == 1);
  CHECK(parse_error("(;AB[jj]SZ[9])") == "root: bad coordinate 'jj' in AB");
  CHECK(parse_ok("(;B[ss]SZ[19])").move_count() == 1);
}

TEST_CASE("board sizes: square 2..25 only") {
  CHECK(parse_ok("(;SZ[2];B[bb])").info.size == 2);
  CHECK(parse_ok("(;SZ[25])").info.size == 25);
  CHECK(parse_ok("(;SZ[ 13 ])").info.size == 13);
  CHECK(parse_ok("(;SZ[19:19])").info.size == 19);
  CHECK(parse_error("(;SZ[19:13])") == "root: unsupported board size 19:13 (only square boards 2..25)");
  CHECK(parse_error("(;SZ[26])") == "root: unsupported board size 26 (only square boards 2..25)");
  CHECK(parse_error("(;SZ[1])") == "root: unsupported board size 1 (only square boards 2..25)");
  CHECK(parse_error("(;SZ[nine])") == "root: bad board size 'nine'");
  CHECK(parse_error("(;SZ[9];B[aa]SZ[13])") == "move 1: board size changes outside the root node (SZ[13])");
}

TEST_CASE("bad coordinates name the move") {
  CHECK(parse_error("(;SZ[9];B[aa];W[jj])") == "move 2: bad coordinate 'jj'");
  CHECK(parse_error("(;SZ[19];B[aa];W[bb];B[zz])") == "move 3: bad coordinate 'zz'");
  CHECK(parse_error("(;B[a])") == "move 1: bad coordinate 'a'");
  CHECK(parse_error("(;B[pdd])") == "move 1: bad coordinate 'pdd'");
  CHECK(parse_error("(;B[A1])") == "move 1: bad coordinate 'A1'");
  // Uppercase letters are FF[4] coordinates 26..51: off any board we take.
  CHECK(parse_error("(;B[Aa])") == "move 1: bad coordinate 'Aa'");
}

TEST_CASE("structural errors: two moves in a node, not Go") {
  CHECK(parse_error("(;SZ[9];B[aa]W[bb])") == "move 1: node has both B and W");
  CHECK(parse_error("(;SZ[9];B[aa];W[bb]B[cc])") == "move 2: node has both B and W");
  CHECK(parse_error("(;B[aa][bb])") == "move 1: more than one move in a node");
  CHECK(parse_error("(;GM[2])") == "root: not a Go game (GM[2])");
  CHECK(parse_ok("(;GM[1]FF[1])").actions.empty());
}

TEST_CASE("komi and handicap are read tolerantly") {
  CHECK(parse_ok("(;KM[6,5])").info.komi == 6.5);
  CHECK(parse_ok("(;KM[])").info.komi == 0.0);
  CHECK(parse_ok("(;KM[-3])").info.komi == -3.0);
  CHECK(parse_ok("(;KM[+7.5])").info.komi == 7.5);
  CHECK(parse_ok("(;KM[six])").info.komi == 0.0);
  CHECK(parse_ok("(;HA[4])").info.handicap == 4);
  CHECK(parse_ok("(;HA[x])").info.handicap == 0);
}

TEST_CASE("unknown properties are skipped, including long and escaped ones") {
  Game g = parse_ok("(;XYZZYX[a\\]b][c]MULTIGOGM[1]AP[CGoban:3]C[(;B[aa\\])];TB[aa:bb]B[cc]LB[dd:x])");
  CHECK(g.actions == std::vector<Action>{play(Color::Black, 2, 2)});
}

TEST_CASE("syntax errors carry the byte offset") {
  CHECK(parse_error("") == "syntax error at byte 0: expected '(' at the start of the game");
  CHECK(parse_error("  x(;)") == "syntax error at byte 2: expected '(' at the start of the game");
  CHECK(parse_error("(;B[aa") == "syntax error at byte 6: expected ']' (value opened at byte 3)");
  CHECK(parse_error("(;B[aa];W[bb]") == "syntax error at byte 13: unexpected end of input (missing ')')");
  CHECK(parse_error("(;B[aa](;W[bb])") == "syntax error at byte 15: unexpected end of input (missing ')')");
  CHECK(parse_error("(;GM[1]B) ") == "syntax error at byte 8: expected '['");
  CHECK(parse_error("(B[aa])") == "syntax error at byte 1: expected ';'");
  CHECK(parse_error("(;B[aa]#)") == "syntax error at byte 7: expected ';', '(' or ')'");
  CHECK(parse_error("(;B[aa])(;W[bb])") == "syntax error at byte 8: unexpected text after the game tree");
  CHECK(parse_error("()") == "syntax error at byte 1: expected ';'");
  CHECK(parse_error("(;B[]]])") == "syntax error at byte 5: expected ';', '(' or ')'");
  CHECK(parse_error("(;W[a\\]])") == "move 1: bad coordinate 'a\\]'");
}

TEST_CASE("every proper prefix of a game is an error, never a crash") {
  const std::string text =
      "(;GM[1]FF[4]SZ[9]PB[a\\]b]C[x\\\ny];B[ee](;W[cc]AB[aa:bb];B[dd])(;W[gg]))";
  parse_ok(text);
  for (size_t n = 0; n < text.size(); ++n) {
    Game g;
    CHECK_FALSE(parse_game(std::string_view(text).substr(0, n), &g).ok());
  }
}

TEST_CASE("the hand-made format samples in data/sgf-formats parse and replay") {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(SGFPAT_SOURCE_DIR) / "data" / "sgf-formats";
  REQUIRE(fs::is_directory(dir));
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".sgf") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    Game g;
    Status s = parse_game(ss.str(), &g);
    INFO(e.path().string() << ": " << s.message());
    CHECK(s.ok());
    CHECK(g.move_count() > 0);
    // They are meant as legal games: the replay engine must accept them.
    Board board;
    ReplayResult result;
    Status r = replay(g, &board, &result);
    INFO("replay: " << r.message());
    CHECK(r.ok());
    CHECK(result.moves_played == g.move_count());
    ++files;
  }
  CHECK(files >= 3);
}

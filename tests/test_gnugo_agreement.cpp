// Integration: our SGF parser + replay() must end every recorded game on
// exactly the position GNU Go (an independent engine) reaches from the same
// file: the 2,000 games of the shipped sample, and (a corpus case) every game
// of the corpus's tygem-2006-01.  Games our replay rejects as illegal are
// listed, must be rare, and GNU Go is asked whether the offending move is
// legal for it too.
//
// Needs gnugo on PATH or /usr/games (scripts/deps.sh installs it): the test
// fails, not skips, when it is missing.  Every answer of GNU Go is awaited
// at most kAnswerSeconds.
#include <doctest/doctest.h>

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <zlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "board/replay.h"
#include "sgf/parser.h"
#include "corpus.h"

using namespace sgfpat;
namespace fs = std::filesystem;

namespace {

const char* const kSetupHint = "run scripts/deps.sh (or scripts/setup.sh), which installs gnugo";

// The longest GNU Go may take to answer one command (a loadsgf of a whole
// game takes milliseconds).
constexpr int kAnswerSeconds = 60;

std::string find_gnugo() {
  if (const char* env = getenv("GNUGO"); env && access(env, X_OK) == 0) return env;
  std::string path = getenv("PATH") ? getenv("PATH") : "";
  path += ":/usr/games:/usr/local/games";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    std::string candidate = dir + "/gnugo";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// A temporary directory, removed with everything in it.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "sgfpat-gnugo-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// One GNU Go process spoken to in GTP over two pipes.
class GtpEngine {
 public:
  GtpEngine(const std::string& binary, const fs::path& stderr_file) {
    signal(SIGPIPE, SIG_IGN);  // a dead engine must fail a check, not kill us
    int to_child[2], from_child[2];
    REQUIRE(pipe(to_child) == 0);
    REQUIRE(pipe(from_child) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      if (FILE* err = fopen(stderr_file.c_str(), "w")) dup2(fileno(err), 2);
      close(to_child[0]);
      close(to_child[1]);
      close(from_child[0]);
      close(from_child[1]);
      execl(binary.c_str(), "gnugo", "--mode", "gtp", "--quiet", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    to_ = to_child[1];
    from_ = from_child[0];
  }
  ~GtpEngine() {
    std::string ignored;
    if (alive_) command("quit", &ignored);
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ > 0) {
      // Bounded: an engine that does not quit is killed.
      int status = 0;
      for (int i = 0; i < 200 && waitpid(pid_, &status, WNOHANG) == 0; ++i) usleep(10000);
      if (waitpid(pid_, &status, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
      }
    }
  }
  bool alive() const { return alive_; }

  // Sends one command.  True on "= answer", false on "? error" or when the
  // engine is gone; `answer` gets the text after "= " / "? ".
  bool command(const std::string& cmd, std::string* answer) {
    answer->clear();
    if (!alive_) return false;
    std::string line = cmd + "\n";
    for (size_t done = 0; done < line.size();) {
      ssize_t n = write(to_, line.data() + done, line.size() - done);
      if (n <= 0) return alive_ = false;
      done += size_t(n);
    }
    bool first = true, success = false;
    while (true) {
      std::string text;
      if (!read_line(&text)) {
        alive_ = false;
        break;
      }
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      if (first) {
        if (text.empty()) continue;  // stray blank line
        success = text[0] == '=';
        *answer = text.size() > 2 ? text.substr(2) : "";
        first = false;
      } else if (text.empty()) {
        break;
      } else {
        *answer += "\n" + text;
      }
    }
    return alive_ && success;
  }

 private:
  // One line of the engine's output; false when it ended, failed, or said
  // nothing for kAnswerSeconds (then the check that follows fails).
  bool read_line(std::string* line) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kAnswerSeconds);
    for (;;) {
      const size_t eol = pending_.find('\n');
      if (eol != std::string::npos) {
        *line = pending_.substr(0, eol + 1);
        pending_.erase(0, eol + 1);
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        FAIL_CHECK("GNU Go gave no answer for " << kAnswerSeconds << " s");
        return false;
      }
      pollfd p{from_, POLLIN, 0};
      const int r = poll(&p, 1, int(left.count()));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) continue;  // the deadline is checked above
      char buf[4096];
      const ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) return false;
      pending_.append(buf, size_t(n));
    }
  }

  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::string pending_;
  bool alive_ = true;
};

// GTP vertex ("Q16": column letters skip I, row 1 at the bottom) -> Point.
bool gtp_vertex(const std::string& v, int size, Point* p) {
  if (v.size() < 2) return false;
  char c = char(toupper((unsigned char)v[0]));
  if (c < 'A' || c > 'Z' || c == 'I') return false;
  int x = c - 'A' - (c > 'I' ? 1 : 0);
  int row = atoi(v.c_str() + 1);
  if (x >= size || row < 1 || row > size) return false;
  *p = Point{int8_t(x), int8_t(size - row)};
  return true;
}

std::string point_key(Point p) { return std::to_string(p.x) + "," + std::to_string(p.y); }

std::set<std::string> engine_stones(GtpEngine& gg, const char* color, int size, bool* ok) {
  std::set<std::string> out;
  std::string answer;
  if (!gg.command(std::string("list_stones ") + color, &answer)) {
    *ok = false;
    return out;
  }
  std::stringstream words(answer);
  std::string v;
  while (words >> v) {
    Point p;
    if (!gtp_vertex(v, size, &p)) {
      *ok = false;
      continue;
    }
    out.insert(point_key(p));
  }
  return out;
}

std::set<std::string> our_stones(const Board& b, Color c) {
  std::set<std::string> out;
  for (int y = 0; y < b.size(); ++y)
    for (int x = 0; x < b.size(); ++x) {
      Point p{int8_t(x), int8_t(y)};
      if (b.at(p) == c) out.insert(point_key(p));
    }
  return out;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string first_differences(const std::set<std::string>& ours, const std::set<std::string>& theirs) {
  std::string s;
  int shown = 0;
  for (const auto& k : ours)
    if (!theirs.count(k) && shown++ < 5) s += " only-ours(" + k + ")";
  for (const auto& k : theirs)
    if (!ours.count(k) && shown++ < 10) s += " only-gnugo(" + k + ")";
  return s;
}

// For a game our replay rejected with "move N (B Q16): reason" (replay.h):
// does GNU Go, loaded up to the position before move N, also call that move
// illegal?  `detail` says what it answered.
bool gnugo_rejects_too(GtpEngine& gg, const fs::path& file, const std::string& message,
                       std::string* detail) {
  int number = 0;
  char color = 0;
  char vertex[8] = {0};
  if (sscanf(message.c_str(), "move %d (%c %7[A-Z0-9])", &number, &color, vertex) != 3) {
    *detail = "unexpected error text";
    return false;
  }
  std::string answer;
  if (!gg.command("loadsgf " + file.string() + " " + std::to_string(number), &answer)) {
    *detail = "loadsgf failed: " + answer;
    return false;
  }
  if (!gg.command(std::string("is_legal ") + (color == 'B' ? "black " : "white ") + vertex, &answer)) {
    *detail = "is_legal failed: " + answer;
    return false;
  }
  *detail = "gnugo is_legal: " + answer;
  return answer == "0";
}

// "B E6" (GTP name) -> ";B[ed]" on a board of `size`.
std::string sgf_move(const std::string& move, int size) {
  Point p;
  REQUIRE(gtp_vertex(move.substr(2), size, &p));
  return ";" + move.substr(0, 1) + "[" + char('a' + p.x) + char('a' + p.y) + "]";
}

}  // namespace

// Replays every game of `files` (one game each), and checks it against GNU Go
// (see the top of this file).  `what` names the games in messages.
void check_agreement(const std::vector<fs::path>& files, const TempDir& tmp, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  const std::string gnugo = find_gnugo();
  REQUIRE_MESSAGE(!gnugo.empty(), "gnugo not found on PATH or in /usr/games: ", kSetupHint);
  GtpEngine gg(gnugo, tmp.path / "gnugo.stderr");
  std::string answer;
  REQUIRE_MESSAGE(gg.command("name", &answer), "gnugo does not answer GTP: ", gnugo);
  REQUIRE(answer.find("GNU Go") != std::string::npos);

  int compared = 0, agreed = 0, moves = 0;
  std::vector<std::string> parse_failures, mismatches, rejected, gnugo_accepts_rejected;
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();
    Game game;
    Status ps = parse_game(read_file(file), &game);
    if (!ps.ok()) {
      parse_failures.push_back(name + ": " + ps.message());
      continue;
    }
    Board board;
    ReplayResult rr;
    Status st = replay(game, &board, &rr);
    if (!st.ok()) {
      rejected.push_back(name + ": " + st.message());
      std::string detail;
      if (!gnugo_rejects_too(gg, file, st.message(), &detail))
        gnugo_accepts_rejected.push_back(name + ": " + st.message() + " (" + detail + ")");
      continue;
    }
    ++compared;
    moves += rr.moves_played;
    bool ok = gg.command("loadsgf " + file.string(), &answer);
    std::set<std::string> black, white;
    if (ok) black = engine_stones(gg, "black", board.size(), &ok);
    if (ok) white = engine_stones(gg, "white", board.size(), &ok);
    if (!ok) {
      mismatches.push_back(name + ": gnugo failed (" + answer + ")");
      REQUIRE_MESSAGE(gg.alive(), "gnugo died on ", name, "; its stderr:\n",
                      read_file(tmp.path / "gnugo.stderr"));
      continue;
    }
    std::set<std::string> our_black = our_stones(board, Color::Black), our_white = our_stones(board, Color::White);
    if (our_black == black && our_white == white) {
      ++agreed;
    } else {
      mismatches.push_back(name + ": black" + first_differences(our_black, black) + "; white" +
                           first_differences(our_white, white));
    }
  }

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string report;
  for (const auto& r : rejected) report += "\n  rejected " + r;
  for (const auto& r : gnugo_accepts_rejected) report += "\n  GNU GO DISAGREES: " + r;
  for (const auto& r : parse_failures) report += "\n  PARSE FAILURE " + r;
  for (size_t i = 0; i < mismatches.size() && i < 50; ++i) report += "\n  MISMATCH " + mismatches[i];
  MESSAGE("gnugo agreement on ", what, ": ", files.size(), " games, ", compared, " compared (", moves, " moves), ",
          agreed, " agreed, ", mismatches.size(), " differ, ", rejected.size(),
          " rejected as illegal, ", parse_failures.size(), " unparsable; ", seconds, " s", report);

  CHECK_MESSAGE(parse_failures.empty(), "the games are clean SGF: every one must parse");
  CHECK_MESSAGE(mismatches.empty(), "every accepted game must end on GNU Go's position");
  CHECK_MESSAGE(agreed == compared, "agreed ", agreed, " of ", compared);
  CHECK_MESSAGE(rejected.size() * 100 < files.size(), "rejected games must stay under 1%");
  CHECK_MESSAGE(gnugo_accepts_rejected.empty(),
                "for every move we reject, GNU Go's is_legal must say 0 in the same position");
}

TEST_CASE("replaying every game of the shipped sample agrees with GNU Go") {
  TempDir tmp;
  const fs::path sample = fs::path(SGFPAT_SOURCE_DIR) / "data" / "tygem-sample.sgf.gz";
  gzFile in = gzopen(sample.c_str(), "rb");
  REQUIRE_MESSAGE(in != nullptr, "cannot open ", sample.string());
  std::vector<fs::path> files;
  std::string text;
  char buf[1 << 16];
  for (int n; (n = gzread(in, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
  gzclose(in);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    char name[32];
    std::snprintf(name, sizeof name, "g%04zu.sgf", files.size());
    files.push_back(tmp.path / name);
    std::ofstream(files.back()) << line << "\n";
  }
  CHECK_MESSAGE(files.size() == 2000, "data/README.md says 2,000 games");
  check_agreement(files, tmp, "the sample");
}

TEST_CASE("corpus: replaying every game of tygem-2006-01 agrees with GNU Go") {
  const fs::path archive = fs::path(testutil::corpus_path("tygem-2006-01.tar.gz"));
  REQUIRE_MESSAGE(fs::exists(archive), archive.string(), " is missing");
  TempDir tmp;
  const std::string untar = "tar -xzf '" + archive.string() + "' -C '" + tmp.path.string() + "'";
  REQUIRE_MESSAGE(system(untar.c_str()) == 0, "failed: ", untar);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(tmp.path / "2006-01"))
    if (e.path().extension() == ".sgf") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  CHECK_MESSAGE(files.size() == 6967, "the corpus README says 6,967 games");
  REQUIRE(files.size() >= 1500);
  check_agreement(files, tmp, "tygem-2006-01");
}

TEST_CASE("GNU Go agrees with the moves replay() rejects, on hand-made records") {
  // This checks the rejected-game path of the test above, which the corpus
  // month may not exercise, and GNU Go's view of the three reasons.
  const std::string gnugo = find_gnugo();
  REQUIRE_MESSAGE(!gnugo.empty(), "gnugo not found on PATH or in /usr/games: ", kSetupHint);
  TempDir tmp;
  GtpEngine gg(gnugo, tmp.path / "gnugo.stderr");

  struct Case {
    const char* name;
    std::vector<std::string> moves;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"occupied", {"B C3", "W D4", "B E5", "W C3"}, "occupied"},
      {"suicide", {"B E5", "W A2", "B E6", "W B1", "B A1"}, "suicide"},
      // Black F5 takes E5 as a ko; white retakes at once.
      {"ko", {"B E6", "W F6", "B D5", "W G5", "B E4", "W F4", "B A9", "W E5", "B F5", "W E5"}, "ko"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string sgf = "(;GM[1]FF[4]SZ[9]";
    for (const auto& m : c.moves) sgf += sgf_move(m, 9);
    sgf += ")";
    fs::path file = tmp.path / (std::string(c.name) + ".sgf");
    std::ofstream(file) << sgf;

    Game game;
    Status ps = parse_game(sgf, &game);
    REQUIRE_MESSAGE(ps.ok(), ps.message());
    Board board;
    ReplayResult rr;
    Status st = replay(game, &board, &rr);
    REQUIRE_FALSE(st.ok());
    CHECK(st.message().find(c.reason) != std::string::npos);
    CHECK(st.message().find("move " + std::to_string(c.moves.size())) == 0);
    std::string detail;
    CHECK_MESSAGE(gnugo_rejects_too(gg, file, st.message(), &detail), detail);

    // Control: in the same position GNU Go accepts a plainly legal move.
    std::string answer;
    REQUIRE(gg.command("is_legal black J1", &answer));
    CHECK(answer == "1");
  }
}

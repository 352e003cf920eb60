// sgfpat gtp: a GTP version 2 engine on stdin/stdout, playing with the
// Monte Carlo tree search of lib/mcts.
//
// Commands: protocol_version name version known_command list_commands
// boardsize clear_board komi play genmove undo showboard final_score quit.
// Simple ko is enforced (by Board), positional superko is not.  genmove
// never fills its own eyes (see SearchOptions::skip_own_eyes) and passes
// when the mover has no other legal move, or when the opponent has just
// passed and the position as it stands (area score with komi) already wins
// for the mover; it never resigns.
#include <cmath>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "board_text.h"
#include "commands.h"
#include "core/version.h"
#include "mcts/mcts.h"
#include "priors_flags.h"

namespace sgfpat::cli {

namespace {
struct GtpArgs {
  PriorsFlags priors;
  int64_t playouts = 3000;
  int threads = 1;
  uint64_t seed = 1;
  double explore = 1;
  bool playout_priors = false;
  bool verbose = false;
};

const char* const kCommands[] = {"protocol_version", "name",        "version", "known_command", "list_commands",
                                 "boardsize",        "clear_board", "komi",    "play",          "genmove",
                                 "undo",             "showboard",   "final_score", "quit"};

bool parse_color(std::string s, Color* c) {
  for (char& ch : s) ch = char(std::tolower((unsigned char)ch));
  if (s == "b" || s == "black") *c = Color::Black;
  else if (s == "w" || s == "white") *c = Color::White;
  else return false;
  return true;
}

struct Played {
  Color color;
  Point point;
};

class Engine {
 public:
  Engine(const GtpArgs& a, const sgfpat_priors::Priors* priors) : args_(a), priors_(priors) { clear(19); }

  void clear(int size) {
    board_ = Board(size);
    history_.clear();
    moves_.clear();
  }

  // Runs one command line; false on quit.
  bool handle(const std::string& raw) {
    std::string line;
    for (char ch : raw) {
      if (ch == '#') break;
      if (ch == '\t') ch = ' ';
      if ((unsigned char)ch < 32 && ch != '\n') continue;
      line += ch;
    }
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    if (words.empty()) return true;
    std::string id;
    if (std::all_of(words[0].begin(), words[0].end(), [](char ch) { return std::isdigit((unsigned char)ch); })) {
      id = words[0];
      words.erase(words.begin());
      if (words.empty()) {
        reply(false, id, "empty command");
        return true;
      }
    }
    const std::string cmd = words[0];
    std::vector<std::string> args(words.begin() + 1, words.end());
    std::string out;
    bool ok = run(cmd, args, &out);
    reply(ok, id, out);
    return cmd != "quit";
  }

 private:
  static void reply(bool ok, const std::string& id, const std::string& text) {
    std::cout << (ok ? '=' : '?') << id;
    if (!text.empty()) std::cout << ' ' << text;
    std::cout << "\n\n" << std::flush;
  }

  bool run(const std::string& cmd, const std::vector<std::string>& args, std::string* out) {
    if (cmd == "protocol_version") return *out = "2", true;
    if (cmd == "name") return *out = "sgfpat", true;
    if (cmd == "version") return *out = kVersion, true;
    if (cmd == "known_command") {
      bool known = !args.empty() && std::find(std::begin(kCommands), std::end(kCommands), args[0]) != std::end(kCommands);
      return *out = known ? "true" : "false", true;
    }
    if (cmd == "list_commands") {
      for (const char* c : kCommands) *out += (out->empty() ? "" : "\n") + std::string(c);
      return true;
    }
    if (cmd == "quit") return true;
    if (cmd == "boardsize") {
      int n = 0;
      if (args.empty() || std::sscanf(args[0].c_str(), "%d", &n) != 1) return *out = "boardsize not an integer", false;
      if (n < kMinBoardSize || n > kMaxBoardSize) return *out = "unacceptable size", false;
      clear(n);
      return true;
    }
    if (cmd == "clear_board") {
      clear(board_.size());
      return true;
    }
    if (cmd == "komi") {
      double k;
      if (args.empty() || std::sscanf(args[0].c_str(), "%lf", &k) != 1 || !std::isfinite(k))
        return *out = "komi not a float", false;
      komi_ = k;
      return true;
    }
    if (cmd == "play") {
      Color c;
      if (args.size() < 2 || !parse_color(args[0], &c)) return *out = "invalid color or coordinate", false;
      std::string v = args[1];
      for (char& ch : v) ch = char(std::tolower((unsigned char)ch));
      Point p = kPass;
      if (v != "pass" && (v.size() < 2 || !std::isalpha((unsigned char)v[0]) || !std::isdigit((unsigned char)v[1]) ||
                            !parse_point(v, board_.size(), &p)))
        return *out = "invalid color or coordinate", false;
      if (!play(c, p)) return *out = "illegal move", false;
      return true;
    }
    if (cmd == "genmove") {
      Color c;
      if (args.empty() || !parse_color(args[0], &c)) return *out = "invalid color", false;
      Point p = genmove(c);
      play(c, p);
      *out = gtp_name(p, board_.size());
      return true;
    }
    if (cmd == "undo") {
      if (history_.empty()) return *out = "cannot undo", false;
      board_ = history_.back();
      history_.pop_back();
      moves_.pop_back();
      return true;
    }
    if (cmd == "showboard") {
      Point last = moves_.empty() ? kPass : moves_.back().point;
      *out = "\n" + board_pretty(board_, last);
      while (!out->empty() && out->back() == '\n') out->pop_back();
      return true;
    }
    if (cmd == "final_score") {
      AreaScore s = board_.area_score();
      double margin = double(s.black) - double(s.white) - komi_;
      char buf[32];
      if (margin == 0) *out = "0";
      else {
        std::snprintf(buf, sizeof buf, "%c+%g", margin > 0 ? 'B' : 'W', margin > 0 ? margin : -margin);
        *out = buf;
      }
      return true;
    }
    *out = "unknown command";
    return false;
  }

  bool play(Color c, Point p) {
    Board before = board_;
    if (p.is_pass()) {
      board_.pass();
    } else if (board_.play(p, c) != MoveError::None) {
      return false;
    }
    history_.push_back(std::move(before));
    moves_.push_back({c, p});
    return true;
  }

  Point genmove(Color c) {
    if (!moves_.empty() && moves_.back().point.is_pass() && moves_.back().color != c) {
      AreaScore s = board_.area_score();
      double margin = double(s.black) - double(s.white) - komi_;
      if ((c == Color::Black && margin > 0) || (c == Color::White && margin < 0)) return kPass;
    }
    mcts::SearchOptions so;
    so.iterations = args_.playouts;
    so.threads = args_.threads;
    so.seed = args_.seed + uint64_t(moves_.size());
    so.komi = komi_;
    so.explore = args_.explore;
    so.playout_priors = args_.playout_priors;
    so.skip_own_eyes = true;  // never fill an own eye: pass instead
    mcts::Search search(priors_, args_.priors.options(), so);
    mcts::SearchResult r = search.run(board_, c);
    if (args_.verbose) {
      std::fprintf(stderr, "genmove %c: %s, %lld playouts in %.2f s (%.0f/s)\n", color_char(c),
                   r.has_move ? gtp_name(r.best, board_.size()).c_str() : "pass", (long long)r.root_visits, r.seconds,
                   r.playouts_per_second);
    }
    return r.has_move ? r.best : kPass;
  }

  const GtpArgs& args_;
  const sgfpat_priors::Priors* priors_;
  Board board_;
  double komi_ = 7.5;
  std::vector<Board> history_;
  std::vector<Played> moves_;
};

int run_gtp(const GtpArgs& a) {
  sgfpat_priors::Priors priors;
  if (!a.priors.path.empty()) {
    Status st = a.priors.open(&priors);
    if (!st.ok()) {
      return fail("sgfpat gtp: ", st);
    }
  }
  Engine engine(a, priors.is_open() ? &priors : nullptr);
  std::string line;
  while (std::getline(std::cin, line))
    if (!engine.handle(line)) break;
  return kOk;
}
}  // namespace

Runner register_gtp(CLI::App& app) {
  auto a = std::make_shared<GtpArgs>();
  auto* cmd = app.add_subcommand("gtp", "A GTP v2 engine on stdin/stdout, playing with the Monte Carlo tree search");
  a->priors.add_to(cmd, /*required=*/false);
  cmd->add_option("--playouts", a->playouts, "Search iterations (playouts) per genmove")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads,-t", a->threads, "Search threads")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--seed", a->seed, "Random seed")->capture_default_str();
  cmd->add_option("--explore", a->explore, "Exploration: explore * sqrt(ln(N+1) / (1+n)) is added to the action value\n"
                  "(0: exactly v/n + prior/(1+n), which never tries unvisited moves once a move wins)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--playout-priors", a->playout_priors, "Weight playout moves by the priors' levels 1..2");
  cmd->add_flag("--verbose,-v", a->verbose, "Search statistics on stderr");
  return [a]() { return run_gtp(*a); };
}

}  // namespace sgfpat::cli

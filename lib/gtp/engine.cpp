#include "gtp/engine.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sgf/game_stream.h"

namespace sgfpat::gtp {

namespace {
const char* const kCommands[] = {
    "protocol_version", "name",        "version",      "known_command",          "list_commands",
    "boardsize",        "clear_board", "komi",         "play",                   "genmove",
    "kgs-genmove_cleanup", "undo",     "showboard",    "final_score",            "final_status_list",
    "time_settings",    "time_left",   "loadsgf",      "gogui-analyze_commands", "sgfpat-priors",
    "sgfpat-ownership", "quit"};

bool parse_color(std::string s, Color* c) {
  for (char& ch : s) ch = char(std::tolower((unsigned char)ch));
  if (s == "b" || s == "black") *c = Color::Black;
  else if (s == "w" || s == "white") *c = Color::White;
  else return false;
  return true;
}

bool parse_number(const std::string& s, double* v) {
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  // NaN and infinite komi would make every score meaningless.
  return !s.empty() && end && *end == 0 && std::isfinite(*v);
}

std::string plain_board(const Board& b, Point) {
  std::string out;
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      Color c = b.at(Point{int8_t(x), int8_t(y)});
      out += c == Color::Black ? 'X' : c == Color::White ? 'O' : '.';
    }
    out += '\n';
  }
  return out;
}

std::string score_text(double margin) {
  if (margin == 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%c+%g", margin > 0 ? 'B' : 'W', margin > 0 ? margin : -margin);
  return buf;
}
}  // namespace

Engine::Engine(const sgfpat_priors::Priors* priors, EngineOptions options)
    : priors_(priors), options_(std::move(options)) {
  search_ = std::make_unique<mcts::Search>(priors_, options_.eval, options_.search);
  clear(options_.rules == Rules::Atari ? 9 : 19);
}

void Engine::clear(int size) {
  board_ = Board(size);
  record_.clear();
  moves_.clear();
  search_->clear_tree();
}

bool Engine::handle(const std::string& raw, std::string* response) {
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
  }
  std::string out;
  bool ok = false;
  std::string cmd;
  if (words.empty()) {
    out = "empty command";
  } else {
    cmd = words[0];
    std::vector<std::string> args(words.begin() + 1, words.end());
    ok = run(cmd, args, &out);
  }
  *response += (ok ? '=' : '?') + id;
  if (!out.empty()) *response += ' ' + out;
  *response += "\n\n";
  return cmd != "quit";
}

Color Engine::next_to_move() const {
  return moves_.empty() ? Color::Black : opponent(moves_.back().color);
}

Color Engine::atari_winner() const {
  if (board_.captures(Color::Black) > 0) return Color::Black;
  if (board_.captures(Color::White) > 0) return Color::White;
  return Color::Empty;
}

bool Engine::play(Color c, Point p, std::string* why) {
  const bool atari = options_.rules == Rules::Atari;
  if (atari && atari_winner() != Color::Empty) return *why = "illegal move", false;  // the game ended at the first capture
  if (moves_.size() >= size_t(std::max(0, options_.max_moves)))
    return *why = "game too long (at most " + std::to_string(options_.max_moves) + " moves)", false;
  if (p.is_pass()) {
    board_.pass();
  } else if (board_.play(p, c, !atari && options_.search.allow_suicide) != MoveError::None) {
    return *why = "illegal move", false;
  }
  record_.push_back(Action{Action::Kind::Play, c, p});
  moves_.push_back({c, p});
  return true;
}

void Engine::replay_record() {
  const bool suicide = options_.rules != Rules::Atari && options_.search.allow_suicide;
  board_ = Board(board_.size());
  for (const Action& a : record_) {
    if (a.kind == Action::Kind::Setup) board_.setup(a.point, a.color);
    else if (a.point.is_pass()) board_.pass();
    else board_.play(a.point, a.color, suicide);  // legal when it was played: the same board again
  }
}

double Engine::time_budget(Color c) const {
  if (main_time_ < 0) return 0;
  const int ci = int(c);
  double left = clock_known_[ci] ? time_left_[ci] : main_time_;
  int stones = clock_known_[ci] ? stones_left_[ci] : 0;
  if (main_time_ == 0 && byo_time_ == 0 && byo_stones_ == 0) return 0;  // "no time limits"
  if (stones == 0 && left <= 0 && byo_stones_ > 0) {  // main time over: the first byo-yomi period
    left = byo_time_;
    stones = byo_stones_;
  }
  const double margin = 0.5;  // the referee's and the pipe's share of each move
  if (stones > 0) return std::max(0.05, left / stones - margin);
  // Main time: spread over the moves still to come (about half the empty
  // points are ours), keeping the byo-yomi period for when it runs out.
  int empty = 0;
  for (int y = 0; y < board_.size(); ++y)
    for (int x = 0; x < board_.size(); ++x) empty += board_.at(Point{int8_t(x), int8_t(y)}) == Color::Empty;
  const double moves_to_come = std::max(10.0, empty / 2.0);
  double budget = left / moves_to_come;
  if (byo_stones_ > 0) budget += 0.8 * byo_time_ / byo_stones_;
  return std::max(0.05, std::min(budget, left - margin));
}

Settlement Engine::settlement_of(const std::vector<float>& black_owned, const std::vector<float>& white_owned) const {
  Settlement s;
  const int n = board_.size();
  if (black_owned.empty()) {  // no playouts: the board as it stands
    AreaScore a = board_.area_score();
    s.black_points = a.black;
    s.white_points = a.white;
  } else {
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const size_t k = size_t(y * n + x);
        const Point p{int8_t(x), int8_t(y)};
        const Color owner = black_owned[k] > 0.5f ? Color::Black : white_owned[k] > 0.5f ? Color::White : Color::Empty;
        if (owner == Color::Black) ++s.black_points;
        else if (owner == Color::White) ++s.white_points;
        const Color stone = board_.at(p);
        if (stone != Color::Empty && owner == opponent(stone)) s.dead.push_back(board_.index(p));
      }
  }
  s.margin = s.black_points - s.white_points - komi_;
  return s;
}

Settlement Engine::settle() {
  mcts::Ownership o =
      mcts::playout_ownership(board_, next_to_move(), komi_, options_.score_playouts, options_.search.seed);
  return settlement_of(o.black, o.white);
}

Point Engine::genmove_atari(Color c, bool* resign) {
  const Color winner = atari_winner();
  if (winner != Color::Empty) {
    *resign = winner != c;
    return kPass;
  }
  solve::Geometry g;
  solve::Position pos;
  Status st = solve::from_board(board_, c, &g, &pos);
  if (!st.ok()) {
    if (options_.log) options_.log("genmove: " + st.message());
    return kPass;
  }
  solve::AtariPlayOptions o = options_.atari;
  const double budget = time_budget(c);
  if (budget > 0) o.search.seconds = budget;
  std::string table_error;
  const solve::AtariChoice ch = solve::choose_atari_move(g, pos, o, &table_error);
  if (!table_error.empty() && options_.log) options_.log("genmove: table not used: " + table_error);
  if (ch.move < 0) {
    *resign = true;  // no legal move: the mover lost
    return kPass;
  }
  const Point p{int8_t(g.x_of(ch.move)), int8_t(g.y_of(ch.move))};
  if (options_.verbose && options_.log) {
    char line[256];
    std::snprintf(line, sizeof line, "genmove %c: %s by %s, %s (%d plies to the end, -1: unknown), %llu nodes in %.2f s",
                  color_char(c), gtp_name(p, board_.size()).c_str(), solve::choice_source_name(ch.source),
                  solve::verdict_name(ch.verdict), ch.distance, (unsigned long long)ch.stats.nodes, ch.stats.seconds);
    options_.log(line);
  }
  return p;
}

Point Engine::genmove(Color c, bool cleanup, bool* resign) {
  *resign = false;
  if (options_.rules == Rules::Atari) return genmove_atari(c, resign);
  mcts::SearchOptions& o = search_->options();
  o.komi = komi_;
  // The clocks' budget when GTP set clocks; otherwise the time a move the
  // engine was given (--seconds, the server's cap on an engine seat), which
  // the tree search's options would otherwise lose here.
  const double budget = time_budget(c);
  o.max_seconds = budget > 0 ? budget : options_.search.max_seconds;
  o.seed = options_.search.seed + uint64_t(moves_.size());
  const double sign = c == Color::Black ? 1 : -1;
  const AreaScore a = board_.area_score();
  const double board_margin = sign * (double(a.black) - double(a.white) - komi_);
  // After the opponent's pass: pass if the game is won both on the board
  // and with the dead stones the playouts settle (and, in cleanup, once no
  // dead opponent stone is left to take).
  const bool opponent_passed = !moves_.empty() && moves_.back().point.is_pass() && moves_.back().color != c;
  if (opponent_passed && board_margin > 0) {
    const Settlement settled = settle();
    int dead_opponent_stones = 0;
    for (int idx : settled.dead) dead_opponent_stones += board_.at_index(idx) == opponent(c);
    if (sign * settled.margin > 0 && (!cleanup || dead_opponent_stones == 0)) {
      if (options_.verbose && options_.log)
        options_.log(std::string("genmove ") + color_char(c) + ": pass, won (settled " + score_text(settled.margin) +
                     ", board " + score_text(double(a.black) - double(a.white) - komi_) + ")");
      return kPass;
    }
  }
  const Point last = moves_.empty() ? kPass : moves_.back().point;
  mcts::SearchResult r = search_->run(board_, c, last);
  last_result_ = r;
  if (!r.has_move) return kPass;
  double best_rate = 0;
  for (const mcts::ChildStats& ch : r.children)
    if (ch.move == r.best) best_rate = ch.mover_win_rate();
  if (options_.verbose && options_.log) {
    const Settlement settled = settlement_of(r.black_owned, r.white_owned);
    char line[256];
    std::snprintf(line, sizeof line,
                  "genmove %c: %s, win %.1f%%, %lld playouts (%lld reused) in %.2f s (%.0f/s), %lld nodes%s, "
                  "settled %s, board %s",
                  color_char(c), gtp_name(r.best, board_.size()).c_str(), 100 * best_rate, (long long)r.iterations,
                  (long long)r.reused_visits, r.seconds, r.playouts_per_second, (long long)r.nodes,
                  r.tree_full ? " (full)" : "", score_text(settled.margin).c_str(),
                  score_text(double(a.black) - double(a.white) - komi_).c_str());
    options_.log(line);
  }
  if (options_.resign_threshold > 0 && r.root_visits >= 500 && best_rate < options_.resign_threshold &&
      moves_.size() >= size_t(board_.size())) {
    *resign = true;
    return kPass;
  }
  // A chain put in atari by its own move is taken next: the most visited
  // root move that does not do that to a chain of several stones is played
  // instead (a seki's shared liberty is never filled), and a pass when every
  // move does.
  auto suicidal = [&](Point p) {
    if (p.is_pass()) return false;
    const mcts::MoveCheck m = mcts::check_move(board_, board_.index(p), c);
    return m.self_atari() && m.joins;
  };
  Point choice = r.best;
  if (suicidal(choice)) {
    choice = kPass;
    int64_t most = -1;
    for (const mcts::ChildStats& ch : r.children)
      if (ch.visits > most && !suicidal(ch.move)) {
        most = ch.visits;
        choice = ch.move;
      }
  }
  // A pass in a game the playouts settle as lost concedes it anyway: resign.
  // (The win rate alone can stay above the threshold there: the tree's
  // exploration of the opponent's forced blunders keeps it at 10-15% when
  // nothing is left but self-ataris.)
  if (choice.is_pass() && options_.resign_threshold > 0 && moves_.size() >= size_t(board_.size()) &&
      sign * settlement_of(r.black_owned, r.white_owned).margin < 0) {
    *resign = true;
    return kPass;
  }
  return choice;
}

bool Engine::load_sgf(const std::string& path, int move_number, std::string* error) {
  // The reader every command uses (compressed files, archives, UTF-16, a
  // cap on a record's bytes, devices refused); the first game of the file.
  GameStream stream({path});
  Game game;
  Status st;
  if (!stream.next(&game, &st)) return *error = "cannot read " + path + ": no SGF game in this file", false;
  if (!st.ok())
    return *error = (stream.input_error() && !stream.game_lost() ? "cannot open " : "cannot read ") + st.message(),
           false;
  if (game.info.size < kMinBoardSize || game.info.size > kMaxBoardSize) return *error = "unacceptable size", false;
  if (options_.rules == Rules::Atari && !solve::Geometry::valid_size(game.info.size, game.info.size))
    return *error = "unacceptable size", false;
  const int moves = game.move_count();
  const int wanted = move_number > 0 ? std::min(moves, move_number - 1) : moves;
  if (wanted > options_.max_moves)
    return *error = "game too long (" + std::to_string(moves) + " moves; at most " +
                    std::to_string(options_.max_moves) + ")",
           false;
  clear(game.info.size);
  komi_ = game.info.komi;
  int played = 0;
  for (const Action& a : game.actions) {
    if (a.kind == Action::Kind::Setup) {
      if (board_.on_board(a.point)) {
        board_.setup(a.point, a.color);
        record_.push_back(a);
      }
    } else if (a.kind == Action::Kind::Play) {
      if (move_number > 0 && played + 1 >= move_number) break;
      std::string why;
      if (!play(a.color, a.point, &why)) {
        *error = why + ": move " + std::to_string(played + 1) + " in " + path;
        return false;
      }
      ++played;
    }
  }
  return true;
}

bool Engine::run(const std::string& cmd, const std::vector<std::string>& args, std::string* out) {
  if (cmd == "protocol_version") return *out = "2", true;
  if (cmd == "name") return *out = options_.name, true;
  if (cmd == "version") return *out = options_.version, true;
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
    if (options_.rules == Rules::Atari && !solve::Geometry::valid_size(n, n)) return *out = "unacceptable size", false;
    clear(n);
    return true;
  }
  if (cmd == "clear_board") {
    clear(board_.size());
    return true;
  }
  if (cmd == "komi") {
    double k;
    if (args.empty() || !parse_number(args[0], &k)) return *out = "komi not a float", false;
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
    return play(c, p, out);
  }
  if (cmd == "genmove" || cmd == "kgs-genmove_cleanup") {
    Color c;
    if (args.empty() || !parse_color(args[0], &c)) return *out = "invalid color", false;
    if (moves_.size() >= size_t(std::max(0, options_.max_moves)))
      return *out = "game too long (at most " + std::to_string(options_.max_moves) + " moves)", false;
    bool resign = false;
    Point p = genmove(c, cmd != "genmove", &resign);
    if (resign) return *out = "resign", true;
    // The move is legal (the game length was checked above); only a pass
    // after an atari-go game ended at its capture is not played.
    std::string why;
    play(c, p, &why);
    *out = gtp_name(p, board_.size());
    return true;
  }
  if (cmd == "undo") {
    if (moves_.empty()) return *out = "cannot undo", false;
    // Back to before the last move: it and the setup after it go.
    size_t last = record_.size();
    while (record_[--last].kind != Action::Kind::Play) {
    }
    record_.resize(last);
    moves_.pop_back();
    replay_record();
    return true;
  }
  if (cmd == "showboard") {
    Point last = moves_.empty() ? kPass : moves_.back().point;
    *out = "\n" + (options_.show_board ? options_.show_board(board_, last) : plain_board(board_, last));
    while (!out->empty() && out->back() == '\n') out->pop_back();
    return true;
  }
  if (cmd == "final_score") {
    if (options_.rules == Rules::Atari) {
      const Color w = atari_winner();  // the winner by capture, as SGF writes it
      *out = w == Color::Empty ? "0" : std::string(w == Color::Black ? "B" : "W") + "+R";
      return true;
    }
    *out = score_text(settle().margin);
    return true;
  }
  if (cmd == "final_status_list") {
    if (args.empty()) return *out = "missing status", false;
    const std::string& want = args[0];
    if (want != "dead" && want != "alive" && want != "seki") return *out = "unknown status", false;
    if (want == "seki") return true;  // seki stones are listed as alive
    Settlement s = settle();
    std::vector<bool> dead(size_t(Board::kMaxIndex), false);
    for (int idx : s.dead) dead[size_t(idx)] = true;
    // One line per chain, its stones in board order.
    std::vector<bool> done(size_t(Board::kMaxIndex), false);
    for (int y = 0; y < board_.size(); ++y)
      for (int x = 0; x < board_.size(); ++x) {
        const int idx = board_.index(Point{int8_t(x), int8_t(y)});
        if (board_.at_index(idx) == Color::Empty || done[size_t(idx)] || dead[size_t(idx)] != (want == "dead")) continue;
        std::vector<int> chain;
        int t = idx;
        do {
          chain.push_back(t);
          done[size_t(t)] = true;
          t = board_.next_stone(t);
        } while (t != idx);
        std::sort(chain.begin(), chain.end());
        if (!out->empty()) *out += '\n';
        for (size_t k = 0; k < chain.size(); ++k)
          *out += (k ? " " : "") + gtp_name(board_.point(chain[k]), board_.size());
      }
    return true;
  }
  if (cmd == "time_settings") {
    double m, b, s;
    if (args.size() < 3 || !parse_number(args[0], &m) || !parse_number(args[1], &b) || !parse_number(args[2], &s) ||
        m < 0 || b < 0 || s < 0)
      return *out = "syntax error", false;
    main_time_ = m;
    byo_time_ = b;
    byo_stones_ = int(s);
    for (bool& k : clock_known_) k = false;
    return true;
  }
  if (cmd == "time_left") {
    Color c;
    double t, s;
    if (args.size() < 3 || !parse_color(args[0], &c) || !parse_number(args[1], &t) || !parse_number(args[2], &s))
      return *out = "syntax error", false;
    if (main_time_ < 0) main_time_ = t;  // clocks without time_settings: take them as they come
    time_left_[int(c)] = t;
    stones_left_[int(c)] = int(s);
    clock_known_[int(c)] = true;
    return true;
  }
  if (cmd == "loadsgf") {
    if (args.empty()) return *out = "missing file name", false;
    int move_number = 0;
    if (args.size() > 1 && std::sscanf(args[1].c_str(), "%d", &move_number) != 1) return *out = "syntax error", false;
    std::string error;
    if (!load_sgf(args[0], move_number, &error)) {
      *out = error;
      return false;
    }
    return true;
  }
  if (cmd == "gogui-analyze_commands") {
    *out = "gfx/Priors (black)/sgfpat-priors black\n"
           "gfx/Priors (white)/sgfpat-priors white\n"
           "gfx/Ownership of the last search/sgfpat-ownership";
    return true;
  }
  if (cmd == "sgfpat-priors") {
    Color c;
    if (args.empty() || !parse_color(args[0], &c)) return *out = "invalid color", false;
    std::vector<mcts::MovePrior> priors = search_->priors_of(board_, c);
    double top = 0;
    for (const auto& m : priors) top = std::max(top, m.prior);
    *out = "INFLUENCE";
    char buf[48];
    for (const auto& m : priors) {
      std::snprintf(buf, sizeof buf, " %s %.3f", gtp_name(m.point, board_.size()).c_str(), top > 0 ? m.prior / top : 0);
      *out += buf;
    }
    return true;
  }
  if (cmd == "sgfpat-ownership") {
    *out = "INFLUENCE";
    const int n = board_.size();
    if (last_result_.black_owned.size() != size_t(n * n)) return true;
    char buf[48];
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const size_t k = size_t(y * n + x);
        std::snprintf(buf, sizeof buf, " %s %.2f", gtp_name(Point{int8_t(x), int8_t(y)}, n).c_str(),
                      double(last_result_.black_owned[k] - last_result_.white_owned[k]));
        *out += buf;
      }
    return true;
  }
  *out = "unknown command";
  return false;
}

}  // namespace sgfpat::gtp

// sgfpat solve: the atari-go solver (proving search, retrograde tables).
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "flag_checks.h"
#include "game_select.h"
#include "json_text.h"
#include "solve/proof_search.h"
#include "solve/table_build.h"
#include "tuning.h"

namespace sgfpat::cli {

namespace {

using namespace sgfpat::solve;


// The search's flags default to the library's SolveOptions.
struct Args {
  std::string board, sgf, size, player, db, moves;
  int game = 1, move = -1;
  int threads = SolveOptions{}.threads, table_mb = int(SolveOptions{}.table_mb),
      tactics_cache_mb = int(SolveOptions{}.tactics_cache_mb),
      capture_plies = SolveOptions{}.capture_plies, init_rank_cost = SolveOptions{}.init_rank_cost,
      init_mobility = SolveOptions{}.init_mobility;
  int init_dn_moves = SolveOptions{}.init_dn_moves;
  double seconds = SolveOptions{}.seconds, epsilon = SolveOptions{}.epsilon,
         helper_fill = SolveOptions{}.helper_max_fill;
  bool all_moves = false, json = false, table = false, progress = false, trace_leaves = false,
       lazy_child_reads = false;
  std::string threat2 = "every";
  int split_depth = SolveOptions{}.split_depth;
  uint64_t split_first = SolveOptions{}.split_first_nodes;
  int split_growth = SolveOptions{}.split_growth;
  double split_stick = SolveOptions{}.split_stick;
  uint64_t split_deepen = SolveOptions{}.split_deepen_nodes;
  uint64_t line_walk = SolveOptions{}.line_walk_nodes;
};

bool parse_size(const std::string& s, int* w, int* h) {
  int a = 0, b = 0;
  char x = 0, extra = 0;
  int n = std::sscanf(s.c_str(), "%d%c%d%c", &a, &x, &b, &extra);
  if (n == 1) b = a;
  else if (n != 3 || (x != 'x' && x != 'X')) return false;
  *w = a;
  *h = b;
  return Geometry::valid_size(a, b);
}

std::string side_name(Color c) { return c == Color::White ? "White" : "Black"; }

// An open answer's numbers, for the side to move (or the move's player):
// how far its searches got.
std::string numbers_text(uint32_t pn, uint32_t dn) {
  return " proof number " + std::to_string(pn) + ", disproof number " + std::to_string(dn);
}

// The position to solve, from --board, --sgf or --size.
Status read_position(const Args& a, Geometry* g, Position* pos) {
  if (!a.board.empty()) {
    Status st = parse_rows(a.board, g, pos);
    if (!st.ok()) return st.with_context("--board");
    Color side = table_side(*pos);
    pos->to_move = side == Color::Empty ? Color::Black : side;
  } else if (!a.sgf.empty()) {
    Game game;
    Status st = load_game(a.sgf, a.game, &game);
    if (!st.ok()) return st;
    Board board;
    ReplayResult rr;
    st = position_after(game, a.move, &board, &rr);
    if (!st.ok()) return st;
    st = from_board(board, rr.to_move, g, pos);
    if (!st.ok()) return st.with_context(a.sgf);
  } else {
    int w = 6, h = 6;
    if (!a.size.empty() && !parse_size(a.size, &w, &h))
      return Status::InvalidArgument("--size " + a.size + ": expected WxH (or N) with sides 2..9");
    *g = Geometry(w, h);
    *pos = Position{};
  }
  if (!a.player.empty()) pos->to_move = (a.player == "W" || a.player == "w") ? Color::White : Color::Black;
  return Status::OK();
}

// --moves: comma-separated empty points of the board.
Status parse_moves(const Geometry& g, const Position& pos, const std::string& text, std::vector<int>* out) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string name = text.substr(start, end - start);
    int p = -1;
    if (!g.parse(name, &p)) return Status::InvalidArgument("--moves: '" + name + "' is not a point of the board");
    if (pos.occupied() & bit(p)) return Status::InvalidArgument("--moves: " + name + " is not empty");
    out->push_back(p);
    start = end + 1;
  }
  return Status::OK();
}

nlohmann::json stats_json(const SolveStats& s) {
  return {{"nodes", s.nodes},     {"helper_nodes", s.helper_nodes}, {"line_settled", s.line_settled},
          {"moves_played", s.moves_played},
          {"tt_lookups", s.tt_lookups}, {"tt_hits", s.tt_hits},     {"seconds", s.seconds},
          {"cpu_seconds", s.cpu_seconds}, {"proof_cpu_seconds", s.proof_cpu_seconds},
          {"proof_nodes", s.proof_nodes}};
}

void print_stats(const SolveStats& s, int threads) {
  std::printf("Moves played: %llu   nodes: %llu", (unsigned long long)s.moves_played, (unsigned long long)s.nodes);
  if (s.helper_nodes) std::printf(" (%llu by a helper)", (unsigned long long)s.helper_nodes);
  std::printf("   TT hits: %llu of %llu lookups\n", (unsigned long long)s.tt_hits, (unsigned long long)s.tt_lookups);
  std::printf("Time: %.3f s (CPU %.3f s, %d thread%s)\n", s.seconds, s.cpu_seconds, threads, threads == 1 ? "" : "s");
}

int run_table(const Args& a) {
  int w = 4, h = 4;
  if (!a.size.empty() && !parse_size(a.size, &w, &h)) {
    std::cerr << "sgfpat solve --table: --size " << a.size << ": expected WxH with sides 2..9\n";
    return kUsage;
  }
  if (a.db.empty()) {
    std::cerr << "sgfpat solve --table: --db DIR is required\n";
    return kUsage;
  }
  TableSummary sum;
  bool built = false;
  TableBuildEvents events;
  events.building = [w, h] { std::fprintf(stderr, "building the %dx%d table...\n", w, h); };
  events.progress = [](uint64_t done, uint64_t total) {
    std::fprintf(stderr, "\r  %5.1f%% of %llu cells", 100.0 * double(done) / double(total), (unsigned long long)total);
  };
  events.built = [](const Status&) { std::fprintf(stderr, "\n"); };
  Status st = ensure_table(a.db, w, h, events, &sum, &built);
  if (!st.ok()) return fail("sgfpat solve --table: ", st);
  TableReader reader;
  st = reader.open(a.db);
  if (!st.ok()) return fail("sgfpat solve --table: ", st);
  nlohmann::json out = {{"size", std::to_string(w) + "x" + std::to_string(h)},
                        {"built", built},
                        {"positions", sum.positions},
                        {"wins", sum.wins}};
  if (!a.board.empty()) {
    Geometry g;
    Position pos;
    st = read_position(a, &g, &pos);
    if (st.ok() && (g.width() != w || g.height() != h))
      st = Status::InvalidInput("the --board position is not " + std::to_string(w) + "x" + std::to_string(h));
    bool found = false;
    TableValue v;
    if (st.ok()) st = reader.lookup(g, pos, &found, &v);
    if (!st.ok()) return fail("sgfpat solve --table: ", st);
    if (!found) {
      std::cerr << "sgfpat solve --table: the table holds positions of games from the empty board only"
                   " (Black to move with equal stones, White with one stone less)\n";
      return kBadInput;
    }
    out["to_move"] = side_name(pos.to_move);
    out["result"] = v.win ? "win" : "loss";
    out["distance"] = v.distance;
  }
  if (a.json) {
    std::cout << json_text(out) << "\n";
    return kOk;
  }
  std::printf("%dx%d table in %s: %llu positions, %llu won by the side to move%s\n", w, h, a.db.c_str(),
              (unsigned long long)sum.positions, (unsigned long long)sum.wins, built ? " (built now)" : "");
  if (out.contains("result"))
    std::printf("%s to move: %s, the game ends in %d plies with best play\n",
                out["to_move"].get<std::string>().c_str(), out["result"].get<std::string>().c_str(),
                out["distance"].get<int>());
  return kOk;
}

}  // namespace

Runner register_solve(CLI::App& app) {
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "solve",
      "Solve an atari-go position (first capture wins; no passes; suicide forbidden, a player with no legal "
      "move loses). Exit 0 when proved, 4 when the budget ran out first.");
  cmd->add_option("--board", a->board, "Position as rows top first (. X O), separated by / or newlines");
  cmd->add_option("--sgf", a->sgf, "Take the position from this game record (boards up to 9x9)");
  cmd->add_option("--game,-g", a->game, "Game number in --sgf, from 1")->capture_default_str();
  cmd->add_option("--move,-m", a->move, "With --sgf: position after this many moves (default: all)");
  cmd->add_option("--size", a->size, "Empty board WxH (or N) when no position is given; table size with --table");
  cmd->add_option("--player", a->player, "Side to move B or W (default: by stone counts, Black first)")
      ->check(CLI::IsMember({"B", "W", "b", "w"}));
  cmd->add_option("--time", a->seconds, "Time budget in seconds (0: none)")->capture_default_str()->check(at_least(0));
  cmd->add_option("--threads", a->threads, "Search threads sharing the transposition table")->capture_default_str();
  cmd->add_option("--table-mb", a->table_mb, "Transposition table size in MB")
      ->check(in_range(1, 65536))
      ->capture_default_str();
  tuning(cmd, cmd->add_option("--tactics-cache-mb", a->tactics_cache_mb,
                  "Cache of the capture and threat searches' answers, per thread, in MB (rounded down to a power of "
                  "two of entries): larger plays fewer moves, but past the processor's caches takes more time")
      ->check(in_range(1, 4096))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--capture-plies", a->capture_plies, "Depth of the capture search at every node (0: off)")
      ->check(in_range(0, 81))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--threat2", a->threat2,
                  "Which node visits settle the moves that leave on an opponent's two-move threat: every, revisits "
                  "(a node's visits after its first) or off.  Most of the moves played go to those threat searches: "
                  "revisits and off play fewer moves a node and search more nodes")
      ->check(CLI::IsMember({"every", "revisits", "off"}, CLI::ignore_case))
      ->type_name("MODE")
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--init-rank-cost", a->init_rank_cost,
                  "df-pn: an unvisited move's disproof number grows by this much per rank in move order (larger: "
                  "the first moves are searched deeper before the last are tried)")
      ->check(in_range(0, 1000))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--init-mobility", a->init_mobility, "df-pn: once a search has run " + std::to_string(SolveOptions{}.init_after_nodes) +
                      " nodes, unvisited moves start at (empty points - 1) / this (0: always at 1)")
      ->check(in_range(0, 100))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--init-dn-moves", a->init_dn_moves,
                  "df-pn: with --init-mobility's values above 1, an unvisited move's disproof number is at least "
                  "(empty points - 1) x that value / this (0: off), near what its first visit finds")
      ->check(in_range(0, 100))
      ->capture_default_str());
  tuning(cmd, cmd->add_flag("--lazy-child-reads", a->lazy_child_reads,
                "df-pn: a node's first visit reads a move's table entry only before searching it, not every "
                "move's (cheaper nodes; in one search often fewer nodes too, but where searches share the "
                "table, as --all-moves with --split-depth, many more)"));
  tuning(cmd, cmd->add_option("--epsilon", a->epsilon,
                  "df-pn's 1+epsilon trick: a move is searched until its disproof number passes the next best "
                  "move's by this fraction")
      ->check(in_range(0.0, 64.0))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--helper-fill", a->helper_fill,
                  "With 2 threads or more: a thread that helps another's search stops helping once the table "
                  "is this full (1: never), as its entries would then push out the open nodes of that search")
      ->check(in_range(0.0, 1.0))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--line-walk-nodes", a->line_walk,
                  "df-pn: every this many nodes a search walks its principal line and settles the nodes whose "
                  "moves' table entries already decide them (0: never)")
      ->check(in_range(0, double(uint64_t(1) << 40)))
      ->capture_default_str());
  auto* all_moves = cmd->add_flag("--all-moves", a->all_moves, "Classify every move of the side to move");
  cmd->add_option("--split-depth", a->split_depth,
                  "Solve the moves and replies one by one down to this many plies (each line its own search, "
                  "the next going to the most proving line) instead of one search: with --all-moves for every "
                  "move, else until one move is proved (the first winning move) or all are lost")
      ->check(in_range(1, 4))
      ->capture_default_str();
  tuning(cmd, cmd->add_option("--split-first-nodes", a->split_first,
                  "With --split-depth 2 or more: a line's first search stops after this many nodes (0: "
                  "200,000 / 16^plies, at least 1,000)")
      ->check(in_range(0, double(uint64_t(1) << 40)))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--split-growth", a->split_growth,
                  "With --split-depth 2 or more: each later search of a line gets this many times its last "
                  "budget")
      ->check(in_range(2, 64))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--split-stick", a->split_stick,
                  "With --split-depth 2 or more: the line searched longest among a move's replies is taken "
                  "again while its disproof number is at most 1 + this times the smallest (0: always the "
                  "smallest), instead of lines taking turns")
      ->check(in_range(0.0, 100.0))
      ->capture_default_str());
  tuning(cmd, cmd->add_option("--split-deepen-nodes", a->split_deepen,
                  "With --split-depth 2 or more and 2 threads or more: a thread with no line left to start "
                  "splits a running line whose search has a budget of this many nodes or more, and whose "
                  "mover looks lost, one ply further, so that the threads share its moves (0: never; it helps "
                  "that search instead)")
      ->check(in_range(0, double(uint64_t(1) << 40)))
      ->capture_default_str());
  cmd->add_option("--moves", a->moves,
                  "With --all-moves: search only these moves, comma-separated (e.g. C6,B5), and their mirror "
                  "images; the others are reported as not asked");
  cmd->add_flag("--progress", a->progress,
                "With --all-moves: print each move on stderr as it is classified, with the time (the default "
                "when stderr is a terminal)")
      ->needs(all_moves);
  tuning(cmd, cmd->add_flag("--trace-leaves", a->trace_leaves,
                "With --split-depth 2 or more: print each search of a line on stderr (its moves, budget, "
                "nodes, win or loss for the side to move at its end or its proof and disproof numbers, CPU "
                "time)"));
  cmd->add_flag("--json", a->json, "Print the result as one JSON object");
  cmd->add_flag("--table", a->table,
                "Retrograde table: build it into --db for --size (at most 20 points) unless there, "
                "and look up --board in it");
  cmd->add_option("--db", a->db, "RocksDB folder of the retrograde tables");
  return [a]() -> int {
    if (a->table) return run_table(*a);
    if (!a->board.empty() && !a->sgf.empty()) {
      std::cerr << "sgfpat solve: give --board or --sgf, not both\n";
      return kUsage;
    }
    Geometry g;
    Position pos;
    Status st = read_position(*a, &g, &pos);
    if (!st.ok()) return fail("sgfpat solve: ", st);
    SolveOptions opt;
    opt.seconds = a->seconds;
    opt.threads = a->threads;
    opt.table_mb = size_t(a->table_mb);
    opt.capture_plies = a->capture_plies;
    opt.init_rank_cost = a->init_rank_cost;
    opt.init_mobility = a->init_mobility;
    opt.init_dn_moves = a->init_dn_moves;
    opt.lazy_child_reads = a->lazy_child_reads;
    opt.epsilon = a->epsilon;
    opt.helper_max_fill = a->helper_fill;
    opt.line_walk_nodes = a->line_walk;
    opt.split_depth = a->split_depth;
    opt.split_first_nodes = a->split_first;
    opt.split_growth = a->split_growth;
    opt.split_stick = a->split_stick;
    opt.split_deepen_nodes = a->split_deepen;
    std::string mode = a->threat2;  // checked against the three names, in any case
    for (char& c : mode) c = char(std::tolower(static_cast<unsigned char>(c)));
    opt.threat2 = mode == "off"        ? SolveOptions::Threat2::Off
                  : mode == "revisits" ? SolveOptions::Threat2::Revisits
                                       : SolveOptions::Threat2::Every;
    opt.tactics_cache_mb = size_t(a->tactics_cache_mb);
    if (!a->moves.empty()) {
      if (!a->all_moves) {
        std::cerr << "sgfpat solve: --moves needs --all-moves\n";
        return kUsage;
      }
      st = parse_moves(g, pos, a->moves, &opt.only_moves);
      if (!st.ok()) return fail("sgfpat solve: ", st);
    }
    const auto t0 = std::chrono::steady_clock::now();
    if (a->all_moves && (a->progress || ::isatty(STDERR_FILENO)))
      opt.on_classified = [&g, t0](int move, Verdict v, uint64_t proof) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "  %-4s %-7s at %.1f s%s\n", g.name(move).c_str(), verdict_name(v), s,
                     proof ? (", proof tree " + std::to_string(proof) + " nodes").c_str() : "");
      };
    if (a->trace_leaves)
      opt.on_leaf_searched = [&g](const LeafSearch& l) {
        std::string line;
        for (int m : l.line) line += (line.empty() ? "" : " ") + g.name(m);
        std::string answer = l.verdict != Verdict::Unknown
                                 ? std::string(verdict_name(l.verdict))
                                 : "open, pn " + std::to_string(l.pn) + " dn " + std::to_string(l.dn);
        std::fprintf(stderr, "  leaf %-12s budget %llu: %llu nodes, %s, %.1f CPU s", line.c_str(),
                     (unsigned long long)l.budget, (unsigned long long)l.nodes, answer.c_str(), l.cpu_seconds);
        if (l.verdict != Verdict::Unknown) std::fprintf(stderr, " (%.1f of them counting the proof)", l.proof_cpu_seconds);
        std::fputc('\n', stderr);
      };
    Solver solver(g, opt);
    nlohmann::json out = {{"size", std::to_string(g.width()) + "x" + std::to_string(g.height())},
                          {"to_move", side_name(pos.to_move)},
                          {"board", to_rows(g, pos)}};
    if (!a->json) std::printf("%s%dx%d, %s to move\n", to_rows(g, pos).c_str(), g.width(), g.height(),
                              side_name(pos.to_move).c_str());
    bool undecided = false;
    if (a->all_moves) {
      SolveStats total;
      auto moves = solver.solve_all_moves(pos, &total);
      nlohmann::json list = nlohmann::json::array();
      for (const MoveResult& m : moves) {
        const bool open = m.verdict == Verdict::Unknown && m.asked;
        undecided |= open;
        list.push_back({{"move", g.name(m.move)},
                        {"result", verdict_name(m.verdict)},
                        {"reason", m.reason},
                        {"proof_size", m.proof_size},
                        {"stats", stats_json(m.stats)}});
        if (open) {
          list.back()["pn"] = m.pn;
          list.back()["dn"] = m.dn;
        }
        if (!a->json)
          std::printf("  %-4s %-7s %s%s%s\n", g.name(m.move).c_str(), verdict_name(m.verdict), m.reason.c_str(),
                      m.proof_size ? (" proof tree " + std::to_string(m.proof_size) + " nodes").c_str() : "",
                      open ? numbers_text(m.pn, m.dn).c_str() : "");
      }
      out["moves"] = list;
      out["stats"] = stats_json(total);
      if (!a->json) print_stats(total, a->threads);
    } else {
      SolveResult r = solver.solve(pos);
      undecided = r.verdict == Verdict::Unknown;
      out["result"] = verdict_name(r.verdict);
      if (r.move >= 0) out["move"] = g.name(r.move);
      out["proof_size"] = r.proof_size;
      out["proof_size_capped"] = r.proof_size_capped;
      out["stats"] = stats_json(r.stats);
      if (undecided) {
        out["pn"] = r.pn;
        out["dn"] = r.dn;
      }
      if (!a->json) {
        if (r.verdict == Verdict::Unknown)
          std::printf("Result: unknown (no proof within the budget;%s)\n", numbers_text(r.pn, r.dn).c_str());
        else
          std::printf("Result: %s wins (proved)%s\n",
                      side_name(r.verdict == Verdict::Win ? pos.to_move : opponent(pos.to_move)).c_str(),
                      r.move >= 0 ? (", winning move " + g.name(r.move)).c_str() : "");
        if (r.proof_size)
          std::printf("Proof tree: %llu nodes%s\n", (unsigned long long)r.proof_size,
                      r.proof_size_capped ? " (walk stopped there)" : "");
        print_stats(r.stats, a->threads);
      }
    }
    out["table_gb_pages"] = solver.table_gb_pages();
    if (!a->json && solver.table_gb_pages())
      std::printf("Table: %zu GB on 1 GB pages\n", solver.table_gb_pages());
    if (a->json) std::cout << json_text(out) << "\n";
    return undecided ? kUndecided : kOk;
  };
}

}  // namespace sgfpat::cli

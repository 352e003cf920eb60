// sgfpat similar: the stored positions equal to a given one (up to symmetry
// and colour exchange, from the position index) or nearest to it (a scan of
// every stored game), what was played next and how it turned out.
#include <chrono>
#include <iostream>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "board/position_text.h"
#include "commands.h"
#include "export/rates.h"
#include "export/text_format.h"
#include "flag_checks.h"
#include "game_select.h"
#include "io/bounded_text.h"
#include "json_text.h"
#include "progress.h"
#include "render/svg_board.h"
#include "render/svg_file.h"
#include "search/continuations.h"
#include "search/nearest_scan.h"
#include "search/position_index.h"
#include "search/similar_report.h"
#include "store/game_record.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;

struct SimilarArgs {
  std::string db;
  std::string sgf;
  int game = 1;
  int move = -1;
  bool exact = false;
  int k = 10;
  std::string region;
  int near_last = 0;
  int limit = 20;
  int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  bool json = false;
  std::string svg;
};

std::string point_text(bool has, Point p, int size) { return has ? gtp_name(p, size) : "end"; }

std::string hit_text(const ShownHit& s, int size) {
  const PositionHit& h = s.hit;
  std::string who = "(game no longer stored)";
  if (s.found) {
    const GameInfo& g = s.game.info;
    who = g.black_name + (g.black_rank.empty() ? "" : " " + g.black_rank) + " (B) vs " + g.white_name +
          (g.white_rank.empty() ? "" : " " + g.white_rank) + " (W), " + (g.date.empty() ? "no date" : g.date) +
          ", " + (g.result.empty() ? "no result" : g.result) + ", " + s.game.origin.describe();
  }
  return format_text("%6d %6d  %-3s %-5s %s\n", h.distance, h.position + 1, std::string(1, color_char(h.mover)).c_str(),
                     point_text(h.has_next, h.next, size).c_str(), who.c_str());
}

int run_similar(const SimilarArgs& a, const CLI::App& cmd) {
  const char* me = "sgfpat similar: ";
  // ---- the query position ----
  Board board;
  Color to_move = Color::Black;
  Point last = kPass;
  if (!a.sgf.empty()) {
    if (!cmd.count("--move")) {
      std::cerr << me << "--sgf needs --move N (the position after N moves)\n";
      return kUsage;
    }
    Game game;
    Status st = load_game(a.sgf, a.game, &game);
    ReplayResult rr;
    if (st.ok()) st = position_after(game, a.move, &board, &rr);
    if (!st.ok()) return fail(me, st);
    to_move = rr.to_move;
    int seen = 0;
    for (const Action& act : game.actions)
      if (act.kind == Action::Kind::Play && seen++ < rr.moves_played) last = act.point;
  } else {
    std::string text;
    Status st = read_all_bounded(std::cin, kMaxPositionText, "the text", &text);
    TextPosition pos;
    if (st.ok()) st = parse_position_text(text, &pos);
    if (!st.ok()) {
      std::cerr << me << "the board on stdin: " << st.message() << "\n";
      return kBadInput;
    }
    board = pos.board;
    to_move = pos.to_move;
  }
  if (a.exact && (cmd.count("--region") || cmd.count("--near-last") || cmd.count("-k"))) {
    std::cerr << me << "--region, --near-last and -k go with the nearest search, not with --exact\n";
    return kUsage;
  }
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(a.db, &db);
  if (!st.ok()) return fail(me, st);
  // ---- search ----
  std::vector<PositionHit> hits;
  ScanStats scan;
  const auto t0 = Clock::now();
  if (a.exact) {
    st = find_exact(db.get(), board, &hits);
  } else {
    std::vector<DistanceQuery> q(1);
    q[0].board = board;
    q[0].to_move = to_move;
    st = make_weights(board.size(), a.region, last, a.near_last, &q[0].weight);
    if (!st.ok()) {
      std::cerr << me << st.message() << "\n";
      return kUsage;
    }
    ScanOptions so;
    so.k = a.k;
    so.threads = a.threads;
    ProgressLine progress;
    so.progress = [&](uint64_t done, uint64_t total) {
      static std::mutex mu;
      std::lock_guard<std::mutex> lock(mu);
      progress.update("scan: " + with_commas(done) + " / " + with_commas(total) + " games");
    };
    std::vector<std::vector<PositionHit>> all;
    st = scan_nearest(db.get(), q, so, &all, &scan);
    progress.finish();
    if (st.ok()) hits = std::move(all[0]);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!st.ok()) return fail(me, st);
  const std::vector<Continuation> table = continuations(hits, board);
  std::vector<ShownHit> shown;
  const size_t n_shown = a.exact ? std::min(hits.size(), size_t(std::max(0, a.limit))) : hits.size();
  st = shown_hits(db.get(), hits, n_shown, &shown);
  if (!st.ok()) return fail(me, st);
  const int n = board.size();
  // ---- drawing ----
  if (!a.svg.empty()) {
    SvgOptions so;
    so.last = last;
    so.title = std::string("sgfpat similar: ") + (a.exact ? "exact" : "nearest") + " continuations";
    for (const Continuation& c : table)
      if (!c.move.is_pass())
        so.marks.push_back({c.move, std::to_string(c.count), percent_text(rate(c.wins, c.count))});
    Status written = write_svg_file(a.svg, board_svg(board, so));
    if (!written.ok()) return fail(me, written);
  }
  // ---- report ----
  if (a.json) {
    nlohmann::ordered_json j;
    j["search"] = a.exact ? "exact" : "nearest";
    j["to_move"] = std::string(1, color_char(to_move));
    if (!a.exact) {
      j["k"] = a.k;
      j["region"] = a.region.empty() ? "all" : a.region;
      j["near_last"] = a.near_last;
      j["games_scanned"] = scan.games;
      j["positions_scanned"] = scan.positions;
    }
    j["seconds"] = seconds;
    j["hits_total"] = hits.size();
    j["continuations"] = continuations_json(table, n);
    nlohmann::ordered_json hj = nlohmann::ordered_json::array();
    for (const ShownHit& s : shown) hj.push_back(hit_json(s, n));
    j["hits"] = hj;
    std::cout << json_text(j, 2) << "\n";
    return kOk;
  }
  if (a.exact)
    std::cout << "Exact matches (up to symmetry and colour exchange): " << with_commas(hits.size())
              << " positions, looked up in " << format_text("%.1f", seconds * 1000) << " ms\n";
  else
    std::cout << "Nearest " << hits.size() << " of " << with_commas(scan.positions) << " positions in "
              << with_commas(scan.games) << " games (distance: differing points"
              << (a.region.empty() ? "" : " in " + a.region)
              << (a.near_last ? ", weighted near the last move" : "") << "), scanned in "
              << format_text("%.2f", seconds) << " s\n";
  std::cout << "\nContinuations (win rate for the player to move, 95% Wilson interval):\n"
            << format_text("  %-5s %8s %8s  %s\n", "move", "count", "win rate", "interval");
  for (const Continuation& c : table) {
    const Interval ci = wilson95(c.wins, c.count);
    std::cout << format_text("  %-5s %8s %8s  [%s, %s]\n", gtp_name(c.move, n).c_str(), with_commas(c.count).c_str(),
                             percent_text(rate(c.wins, c.count)).c_str(), percent_text(ci.low).c_str(),
                             percent_text(ci.high).c_str());
  }
  std::cout << "\nPositions" << (shown.size() < hits.size() ? " (first " + std::to_string(shown.size()) + ")" : "")
            << ":\n"
            << format_text("%6s %6s  %-3s %-5s %s\n", "dist", "move", "tm", "next", "game");
  for (const ShownHit& s : shown) std::cout << hit_text(s, n);
  return kOk;
}
}  // namespace

Runner register_similar(CLI::App& app) {
  auto a = std::make_shared<SimilarArgs>();
  auto* cmd = app.add_subcommand(
      "similar",
      "Find the stored positions equal (--exact) or nearest to a given one, what was played next and how it ended.\n"
      "The position: --sgf FILE --move N, or board text on stdin (player line, size line, rows of . X O).\n"
      "Distance (nearest search): the number of points whose content differs (empty / stone of the player to\n"
      "move / opponent's stone), weighted 0 outside --region and 1 + max(0, R - Manhattan distance to the last\n"
      "move) with --near-last R; the smallest over the 8 symmetries.  Positions of other board sizes are skipped.");
  cmd->add_option("--db", a->db, "Pattern database directory")->required();
  cmd->add_option("--sgf", a->sgf, "SGF input holding the game (file, compressed file, archive, - for stdin)");
  cmd->add_option("--game,-g", a->game, "Game number in the SGF input, from 1")->capture_default_str();
  cmd->add_option("--move,-m", a->move, "The position after this many moves (0: the start)");
  cmd->add_flag("--exact", a->exact, "Equal positions up to the 8 symmetries and colour exchange (position index)");
  cmd->add_option("-k", a->k, "Nearest search: how many positions")->capture_default_str()->check(in_range(1, 100000));
  cmd->add_option("--region", a->region, "Nearest search: tl, tr, bl, br (a corner) or a rectangle like D4:K10");
  cmd->add_option("--near-last", a->near_last, "Nearest search: weight points near the last move up to 1 + R");
  cmd->add_option("--limit", a->limit, "Exact search: positions listed (all count in the table)")->capture_default_str();
  cmd->add_option("--threads,-t", a->threads, "Scanning threads")->capture_default_str();
  cmd->add_flag("--json", a->json, "Print one JSON object: continuations and hits with their games");
  cmd->add_option("--svg", a->svg, "Draw the position with the continuations' counts and win rates to this file");
  return [a, cmd]() { return run_similar(*a, *cmd); };
}

}  // namespace sgfpat::cli

#include "serve/engine_tasks.h"

#include <algorithm>
#include <chrono>

#include "board/replay.h"
#include "features/position_features.h"
#include "gtp/engine.h"
#include "mcts/mcts.h"
#include "solve/atari_board.h"
#include "solve/proof_search.h"

namespace sgfpat::serve {

namespace {

const char* color_code(Color c) { return c == Color::White ? "W" : "B"; }

// The GTP engine's one-line answer: "= D4" -> "D4"; false on "? ...".
bool gtp_ok(gtp::Engine& e, const std::string& command, std::string* answer) {
  std::string r;
  e.handle(command, &r);
  if (r.size() < 2 || r[0] != '=') {
    *answer = r;
    return false;
  }
  size_t b = 1;
  while (b < r.size() && r[b] == ' ') ++b;
  size_t end = r.find('\n', b);
  *answer = r.substr(b, end == std::string::npos ? std::string::npos : end - b);
  return true;
}

}  // namespace

Status engine_move(const EngineContext& ctx, const GameRules& rules, const std::vector<sgfpat::Action>& moves,
                   Color to_move, const EngineStrength& strength, SeatAction* out) {
  gtp::EngineOptions o;
  o.eval = ctx.eval;
  o.rules = rules.ruleset == Ruleset::Atari ? gtp::Rules::Atari : gtp::Rules::Chinese;
  o.search.iterations = strength.playouts > 0 ? strength.playouts : 1000000000;
  o.search.max_seconds = strength.seconds;
  o.search.threads = 1;
  o.search.max_tree_mb = 256;
  o.search.seed = 76 + moves.size();
  if (rules.ruleset == Ruleset::Atari) o.atari.search.seconds = strength.seconds > 0 ? strength.seconds : 2;
  gtp::Engine engine(ctx.priors, o);
  std::string answer;
  const int n = rules.size;
  if (!gtp_ok(engine, "boardsize " + std::to_string(n), &answer) ||
      !gtp_ok(engine, "komi " + std::to_string(rules.komi), &answer))
    return Status::Internal("the engine refused the game's settings: " + answer);
  for (const sgfpat::Action& m : moves)
    if (!gtp_ok(engine, std::string("play ") + color_code(m.color) + " " + gtp_name(m.point, n), &answer))
      return Status::Internal("the engine refused a move of the game (" + gtp_name(m.point, n) + "): " + answer);
  if (!gtp_ok(engine, std::string("genmove ") + color_code(to_move), &answer))
    return Status::Internal("the engine found no move: " + answer);
  for (char& c : answer) c = char(std::tolower(static_cast<unsigned char>(c)));
  *out = SeatAction();
  if (answer == "resign") {
    out->resign = true;
  } else if (answer != "pass" && !parse_point(answer, n, &out->point)) {
    return Status::Internal("the engine answered '" + answer + "'");
  }
  return Status::OK();
}

Status analyze_position(const EngineContext& ctx, const Game& line, int at, int64_t playouts, double seconds,
                        Json* out) {
  Board board;
  ReplayResult rr;
  Status st = position_after(line, at, &board, &rr);
  if (!st.ok()) return st;
  mcts::SearchOptions so;
  so.iterations = std::max<int64_t>(1, playouts);
  so.max_seconds = seconds;
  so.threads = 1;
  so.komi = line.info.komi;
  so.max_tree_mb = 256;
  so.allow_suicide = line.info.suicide_allowed();
  mcts::Search search(ctx.priors, ctx.eval, so);
  const RecentMoves recent = recent_moves(line, rr.moves_played);
  const mcts::SearchResult r = search.run(board, rr.to_move, recent.last);
  std::vector<mcts::ChildStats> kids = r.children;
  std::stable_sort(kids.begin(), kids.end(),
                   [](const mcts::ChildStats& a, const mcts::ChildStats& b) { return a.visits > b.visits; });
  const int n = board.size();
  Json j;
  j["to_move"] = color_code(rr.to_move);
  j["best"] = r.has_move ? gtp_name(r.best, n) : "pass";
  j["win_rate"] = r.win_rate;
  j["playouts"] = r.iterations;
  j["seconds"] = r.seconds;
  Json c = Json::array();
  for (const mcts::ChildStats& k : kids) {
    if (k.visits == 0 || c.size() >= 20) break;
    c.push_back({{"move", gtp_name(k.move, n)}, {"visits", k.visits}, {"win_rate", k.mover_win_rate()}, {"prior", k.prior}});
  }
  j["candidates"] = c;
  *out = std::move(j);
  return Status::OK();
}

Status solve_position(const Game& line, int at, double seconds, int max_size, Json* out) {
  if (line.info.size > max_size)
    return Status::InvalidArgument("the solver answers on boards up to " + std::to_string(max_size) + "x" +
                                   std::to_string(max_size));
  Board board;
  ReplayResult rr;
  Status st = position_after(line, at, &board, &rr);
  if (!st.ok()) return st;
  solve::Geometry g;
  solve::Position pos;
  st = solve::from_board(board, rr.to_move, &g, &pos);
  if (!st.ok()) return st;
  solve::SolveOptions so;
  so.seconds = seconds;
  so.threads = 1;
  so.table_mb = 64;
  so.count_proof = false;
  solve::Solver solver(g, so);
  solve::SolveStats total;
  const std::vector<solve::MoveResult> results = solver.solve_all_moves(pos, &total);
  Json moves = Json::array();
  Json winning = nullptr;
  for (const solve::MoveResult& m : results) {
    moves.push_back({{"move", g.name(m.move)}, {"verdict", solve::verdict_name(m.verdict)}, {"reason", m.reason}});
    if (m.verdict == solve::Verdict::Win && winning.is_null()) winning = g.name(m.move);
  }
  Json j;
  j["to_move"] = color_code(rr.to_move);
  j["moves"] = moves;
  j["winning"] = winning;
  j["nodes"] = total.nodes;
  j["seconds"] = total.seconds;
  *out = std::move(j);
  return Status::OK();
}

}  // namespace sgfpat::serve

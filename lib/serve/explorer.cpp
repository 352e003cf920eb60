#include "serve/explorer.h"

#include <limits>

#include "board/replay.h"
#include "eval/eval_json.h"
#include "export/pattern_lookup.h"
#include "features/position_features.h"
#include "search/continuations.h"
#include "search/nearest_scan.h"
#include "search/position_index.h"
#include "search/similar_report.h"
#include "sgf/writer.h"
#include "store/game_record.h"

namespace sgfpat::serve {

namespace {

// The position of a page's line as the commands take `--sgf --move`.
struct LinePosition {
  Board board;
  ReplayResult result;
  RecentMoves recent;
};

Status position_of(const Game& line, int at, LinePosition* out) {
  Status st = position_after(line, at, &out->board, &out->result);
  if (!st.ok()) return st;
  out->recent = recent_moves(line, out->result.moves_played);
  return Status::OK();
}

std::string hex_of(const uint8_t* b, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += "0123456789abcdef"[b[i] >> 4], s += "0123456789abcdef"[b[i] & 15];
  return s;
}

}  // namespace

Explorer::Explorer(ExplorerOptions options) : options_(std::move(options)) {
  if (options_.priors) evaluator_ = std::make_unique<Evaluator>(*options_.priors, options_.eval);
}

Explorer::~Explorer() = default;

Status Explorer::open() {
  if (!has_db()) return Status::OK();
  std::shared_ptr<PatternDb> d;
  return db(&d);
}

Status Explorer::db(std::shared_ptr<PatternDb>* out) {
  if (!has_db()) return Status::NotSupported("this server has no database (sgfpat serve --db DIR)");
  std::lock_guard<std::mutex> lock(db_mu_);
  const auto now = std::chrono::steady_clock::now();
  if (!db_ || now - db_opened_ > std::chrono::seconds(options_.refresh_seconds)) {
    std::unique_ptr<PatternDb> fresh;
    Status st = PatternDb::OpenReader(options_.db_path, &fresh);
    if (!st.ok()) {
      if (!db_) return st;
      // Keep answering from the copy already open (an ingest may be
      // between two writes); try again later.
    } else {
      db_ = std::move(fresh);  // requests still using the old one keep it alive
    }
    db_opened_ = now;
  }
  *out = db_;
  return Status::OK();
}

Json Explorer::capabilities() {
  Json j;
  j["db"] = has_db();
  j["priors"] = has_priors();
  j["estimator"] = evaluator_ ? estimator_name(evaluator_->estimator()) : "";
  bool indexed = false;
  std::shared_ptr<PatternDb> d;
  if (has_db() && db(&d).ok()) indexed = d->has_position_index();
  j["position_index"] = indexed;
  return j;
}

Status Explorer::heatmap(const Game& line, int at, Json* out) const {
  if (!evaluator_) return Status::NotSupported("this server has no priors (sgfpat serve --priors FILE)");
  LinePosition pos;
  Status st = position_of(line, at, &pos);
  if (!st.ok()) return st;
  const std::vector<MoveEval> moves =
      evaluator_->evaluate(pos.board, pos.result.to_move, line.info.suicide_allowed(), pos.recent);
  *out = eval_json(rank_moves(moves), pos.board.size(), pos.result.to_move, evaluator_->estimator());
  return Status::OK();
}

Status Explorer::pattern(const Game& line, int at, Point p, Json* out) {
  std::shared_ptr<PatternDb> d;
  Status st = db(&d);
  if (!st.ok()) return st;
  LinePosition pos;
  st = position_of(line, at, &pos);
  if (!st.ok()) return st;
  const Board& board = pos.board;
  const int n = board.size();
  if (board.at(p) != Color::Empty)
    return Status::InvalidArgument(gtp_name(p, n) + " is not empty: the patterns are those of empty points");
  const Color mover = pos.result.to_move;
  const MoveError legal = board.check(p, mover, line.info.suicide_allowed());
  std::vector<LevelRow> rows;
  st = lookup_levels(d.get(), spell_levels(board, p, mover, d->settings().scheme.levels), &rows);
  if (!st.ok()) return st;
  Json j;
  j["point"] = gtp_name(p, n);
  j["point_sgf"] = sgf_name(p);
  j["to_move"] = mover == Color::White ? "W" : "B";
  j["after_move"] = pos.result.moves_played;
  j["legal"] = legal == MoveError::None;
  if (legal != MoveError::None) j["illegal"] = move_error_name(legal);
  j["min_played"] = d->settings().min_played;
  j["levels"] = Json::array();
  for (const LevelRow& r : rows) j["levels"].push_back(Json(level_row_json(r)));
  const int largest = rows.empty() ? 0 : rows.back().level;
  j["largest_level"] = largest;
  Json diamond = Json::array();
  if (largest > 0)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        if (std::abs(x - p.x) + std::abs(y - p.y) <= largest) diamond.push_back(gtp_name(Point{int8_t(x), int8_t(y)}, n));
  j["diamond"] = diamond;
  *out = std::move(j);
  return Status::OK();
}

Status Explorer::similar(const Game& line, int at, bool exact, int k, Json* out) {
  std::shared_ptr<PatternDb> d;
  Status st = db(&d);
  if (!st.ok()) return st;
  LinePosition pos;
  st = position_of(line, at, &pos);
  if (!st.ok()) return st;
  const Board& board = pos.board;
  std::vector<PositionHit> hits;
  if (exact) {
    st = find_exact(d.get(), board, &hits);
  } else {
    std::vector<DistanceQuery> q(1);
    q[0].board = board;
    q[0].to_move = pos.result.to_move;
    st = make_weights(board.size(), "", pos.recent.last, 0, &q[0].weight);
    ScanOptions so;
    so.k = std::max(1, std::min(k, options_.limits.max_nearest_k));
    so.threads = 1;  // one request does not take the machine
    std::vector<std::vector<PositionHit>> all;
    ScanStats scan;
    if (st.ok()) st = scan_nearest(d.get(), q, so, &all, &scan);
    if (st.ok()) hits = std::move(all[0]);
  }
  if (!st.ok()) return st;
  const std::vector<Continuation> table = continuations(hits, board);
  std::vector<ShownHit> shown;
  st = shown_hits(d.get(), hits, size_t(options_.limits.max_similar_hits), &shown);
  if (!st.ok()) return st;
  Json j;
  j["search"] = exact ? "exact" : "nearest";
  j["to_move"] = std::string(1, color_char(pos.result.to_move));
  j["hits_total"] = hits.size();
  j["continuations"] = Json(continuations_json(table, board.size()));
  Json hj = Json::array();
  for (const ShownHit& s : shown) hj.push_back(Json(hit_json(s, board.size())));
  j["hits"] = hj;
  *out = std::move(j);
  return Status::OK();
}

Status Explorer::stored_game(const std::string& game_hex, Json* out) {
  std::shared_ptr<PatternDb> d;
  Status st = db(&d);
  if (!st.ok()) return st;
  std::string prefix;
  for (size_t i = 0; i + 1 < game_hex.size(); i += 2) prefix.push_back(char(std::stoi(game_hex.substr(i, 2), nullptr, 16)));
  Fingerprint fp;
  std::string record;
  bool found = false;
  st = d->find_game(prefix, &fp, &record, &found);
  if (!st.ok()) return st;
  if (!found) return Status::NotFound("no stored game " + game_hex);
  Game game;
  st = decode_game(record, &game);
  if (!st.ok()) return st;
  Status legal;  // a stored game stops at an illegal move: "playable" says where
  Json j = game_json(game, std::numeric_limits<int>::max(), &legal);
  j["game"] = hex_of(fp.data(), 8);
  j["sgf"] = write_sgf(game);
  *out = std::move(j);
  return Status::OK();
}

}  // namespace sgfpat::serve

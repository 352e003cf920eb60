#include "serve/hub.h"

#include <filesystem>
#include <iostream>
#include <regex>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "board/replay.h"
#include "core/version.h"
#include "sgf/parser.h"
#include "serve/token.h"
#include "solve/atari_board.h"

namespace sgfpat::serve {

namespace {

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }
const char* color_code(Color c) { return c == Color::Black ? "B" : c == Color::White ? "W" : "E"; }

// The state of a replayed record for pages (the same fields as a room's
// state where they mean the same).
Json line_state(const Board& board, const ReplayResult& rr, Point last) {
  const int n = board.size();
  Json j;
  j["size"] = n;
  j["board"] = board_string(board);
  j["to_move"] = color_code(rr.to_move);
  j["moves"] = rr.moves_played;
  j["captures"] = {{"B", board.captures(Color::Black)}, {"W", board.captures(Color::White)}};
  j["last"] = rr.moves_played > 0 ? point_json(last, n) : Json(nullptr);
  j["ko"] = board.ko_index() >= 0 ? point_json(board.point(board.ko_index()), n) : Json(nullptr);
  return j;
}

}  // namespace

Hub::Hub(HubOptions options)
    : options_(std::move(options)),
      pool_(std::make_unique<WorkPool>(options_.work_threads, options_.limits.max_queued_jobs)) {}

Hub::~Hub() { stop(); }

Status Hub::start(std::ostream& log) {
  if (!options_.games_dir.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(options_.games_dir, ec);
    if (ec) return Status::IOError("cannot make the games folder " + options_.games_dir + ": " + ec.message());
    std::vector<fs::path> files;
    // Only names this server gives (<16 hex digits>.game) are read: nothing
    // else in the folder is touched.
    static const std::regex kName("[0-9a-f]{16}\\.game");
    for (fs::directory_iterator it(options_.games_dir, ec), end; !ec && it != end; it.increment(ec))
      if (std::regex_match(it->path().filename().string(), kName)) files.push_back(it->path());
    if (ec) return Status::IOError("cannot list the games folder " + options_.games_dir + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::shared_ptr<GameRoom> room;
      bool torn = false;
      Status st = GameRoom::Load(f.string(), &room, &torn);
      if (st.ok() && room->id() + ".game" != f.filename().string())
        st = Status::Corruption(f.string() + ": its header names game " + room->id());
      if (!st.ok()) {
        log << "sgfpat serve: " << st.message() << "; this game is left out (its file is kept as it is)\n";
        continue;
      }
      if (torn) log << "sgfpat serve: " << f.string() << ": a torn last line (a move never acknowledged) was cut off\n";
      if (int(games_.size()) >= options_.limits.max_games) {
        log << "sgfpat serve: more games in " << options_.games_dir << " than --max-games " << options_.limits.max_games
            << ": the rest are left out\n";
        break;
      }
      games_[room->id()] = room;
    }
  }
  clock_thread_ = std::thread([this] { clock_loop(); });
  return Status::OK();
}

void Hub::stop() {
  pool_->stop();
  {
    std::lock_guard<std::mutex> lock(clock_mu_);
    stopping_ = true;
  }
  clock_cv_.notify_all();
  if (clock_thread_.joinable()) clock_thread_.join();
}

std::vector<std::shared_ptr<GameRoom>> Hub::rooms() const {
  std::lock_guard<std::mutex> lock(games_mu_);
  std::vector<std::shared_ptr<GameRoom>> out;
  out.reserve(games_.size());
  for (const auto& [id, room] : games_) out.push_back(room);
  return out;
}

void Hub::clocks_changed() {
  {
    std::lock_guard<std::mutex> lock(clock_mu_);
    clock_changed_ = true;
  }
  clock_cv_.notify_all();
}

void Hub::clock_loop() {
  for (;;) {
    // No lock of the hub's is held while rooms are asked (a room's mutex
    // is taken inside): rooms never wait for the clock thread.
    const SteadyTime now = std::chrono::steady_clock::now();
    SteadyTime next = now + std::chrono::hours(1);
    bool engine_waiting = false;
    for (const auto& room : rooms()) {
      if (room->settings().mode == GameMode::Engine && room->engine_to_move() && !kick_engine(room))
        engine_waiting = true;
      auto d = room->deadline();
      if (!d) continue;
      if (*d <= now) {
        room->check_time(now);
        d = room->deadline();
        if (!d) continue;
      }
      next = std::min(next, *d);
    }
    // An engine move the work pool could not take yet is tried again soon.
    if (engine_waiting) next = std::min(next, now + std::chrono::milliseconds(200));
    std::unique_lock<std::mutex> lock(clock_mu_);
    clock_cv_.wait_until(lock, next, [this] { return stopping_ || clock_changed_; });
    if (stopping_) return;
    clock_changed_ = false;
  }
}

size_t Hub::game_count() const {
  std::lock_guard<std::mutex> lock(games_mu_);
  return games_.size();
}

void Hub::reply(const ConnectionPtr& conn, const Json& j) { conn->send(std::make_shared<const std::string>(dump(j))); }

void Hub::refuse(const ConnectionPtr& conn, const Request& req, std::string_view code, const Status& why) {
  conn->send(std::make_shared<const std::string>(error_message(req.id(), code, why.message())));
}

void Hub::on_open(const ConnectionPtr& conn) {
  Json j;
  j["t"] = "welcome";
  j["version"] = kVersion;
  j["limits"] = {{"max_message_bytes", options_.limits.max_message_bytes},
                 {"max_line_moves", options_.limits.max_line_moves}};
  j["persistent"] = !options_.games_dir.empty();
  j["explorer"] = options_.explorer ? options_.explorer->capabilities() : Json(nullptr);
  reply(conn, j);
}

void Hub::on_close(Connection* conn) {
  if (conn->joined_game.empty()) return;
  std::shared_ptr<GameRoom> room;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(conn->joined_game);
    if (it != games_.end()) room = it->second;
  }
  if (room) room->leave(conn);
  conn->joined_game.clear();
}

void Hub::on_message(const ConnectionPtr& conn, std::string_view text) {
  Request req;
  Status st = Request::Parse(text, options_.limits.max_json_depth, &req);
  if (!st.ok()) {
    conn->send(std::make_shared<const std::string>(error_message(nullptr, "bad_message", st.message())));
    return;
  }
  try {
    dispatch(conn, req);
  } catch (...) {
    // A bug or an allocation failure in one answer must not end the server.
    const Status why = status_from_exception("answering '" + req.kind() + "'");
    std::cerr << "sgfpat serve: " << why.message() << "\n";
    refuse(conn, req, "internal", why);
  }
}

void Hub::dispatch(const ConnectionPtr& conn, const Request& req) {
  static const std::map<std::string, Handler, std::less<>> kHandlers = {
      {"create", &Hub::on_create},     {"join", &Hub::on_join}, {"play", &Hub::on_play},
      {"position", &Hub::on_position}, {"load_sgf", &Hub::on_load_sgf}, {"sgf", &Hub::on_sgf},
      {"heatmap", &Hub::on_explore},   {"pattern", &Hub::on_explore},   {"similar", &Hub::on_explore},
      {"stored_game", &Hub::on_explore}, {"analyze", &Hub::on_engine},   {"solve", &Hub::on_engine},
  };
  auto it = kHandlers.find(req.kind());
  if (it == kHandlers.end()) {
    std::string shown = req.kind();
    for (char& c : shown)
      if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
    refuse(conn, req, "unknown_kind", Status::InvalidArgument("unknown message kind '" + shown + "'"));
    return;
  }
  (this->*(it->second))(conn, req);
}

Status Hub::find_seat(const Request& req, std::shared_ptr<GameRoom>* room, Seat* seat) {
  std::string id, token;
  Status st = req.get_hex("game", 2 * kGameIdBytes, &id);
  if (st.ok()) st = req.get_hex("token", 2 * kTokenBytes, &token);
  if (!st.ok()) return st;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(id);
    if (it != games_.end()) *room = it->second;
  }
  // One answer for a game that does not exist and a token that is not its
  // own: a guess learns nothing about which.
  if (!*room || !(*room)->seat_of(token, seat)) return Status::NotFound("no game with this link (game and token)");
  return Status::OK();
}

void Hub::on_create(const ConnectionPtr& conn, const Request& req) {
  RoomSettings s;
  std::string mode = "local", rules = "go";
  int64_t size = 19;
  double komi = 7.5;
  Status st = req.get_optional_int("size", kMinBoardSize, kMaxBoardSize, &size);
  if (st.ok()) st = req.get_optional_number("komi", -kMaxKomi, kMaxKomi, &komi);
  if (st.ok() && req.has("mode")) st = req.get_string("mode", 16, &mode);
  if (st.ok() && req.has("rules")) st = req.get_string("rules", 16, &rules);
  if (st.ok() && !parse_game_mode(mode, &s.mode)) st = Status::InvalidArgument("field 'mode': local, network or engine");
  if (st.ok() && !parse_ruleset(rules, &s.rules.ruleset)) st = Status::InvalidArgument("field 'rules': go or atari");
  s.rules.size = int(size);
  s.rules.komi = komi;
  if (st.ok()) st = check_rules(s.rules);
  if (st.ok() && req.has("clock") && !req.json()["clock"].is_null()) {
    // {"main": seconds, "byo": seconds, "periods": n}
    const Json& c = req.json()["clock"];
    auto seconds = [&](const char* key, double* v) -> Status {
      auto it = c.find(key);
      if (it == c.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0 ||
          it->get<double>() > 86400)
        return Status::InvalidArgument(std::string("field 'clock.") + key + "': seconds from 0 to 86400");
      *v = it->get<double>();
      return Status::OK();
    };
    double main_s = 0, byo_s = 0, periods = 0;
    if (!c.is_object()) st = Status::InvalidArgument("field 'clock': {main, byo, periods} or null");
    if (st.ok()) st = seconds("main", &main_s);
    if (st.ok()) st = seconds("byo", &byo_s);
    if (st.ok()) st = seconds("periods", &periods);
    s.clock.main_ms = int64_t(main_s * 1000);
    s.clock.byo_ms = int64_t(byo_s * 1000);
    s.clock.periods = int(periods);
    if (st.ok()) st = check_clock_rules(s.clock);
  }
  s.created_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch()).count();
  if (st.ok() && s.mode == GameMode::Engine) {
    // The engine's seat and strength: playouts or seconds a move, within
    // the server's bounds.
    std::string color = "W";
    if (req.has("engine_color")) st = req.get_string("engine_color", 1, &color);
    if (st.ok() && color != "B" && color != "W") st = Status::InvalidArgument("field 'engine_color': B or W");
    s.engine_color = color == "B" ? Color::Black : Color::White;
    int64_t playouts = 0;
    double seconds = 0;
    if (st.ok()) st = req.get_optional_int("playouts", 1, options_.limits.max_playouts, &playouts);
    if (st.ok()) st = req.get_optional_number("seconds", 0.05, options_.limits.max_engine_seconds, &seconds);
    if (st.ok() && playouts == 0 && seconds == 0) playouts = 5000;
    s.engine.playouts = playouts;
    s.engine.seconds = seconds > 0 ? seconds : options_.limits.max_engine_seconds;  // a time cap on every move
    if (st.ok() && s.rules.ruleset == Ruleset::Atari && s.rules.size > solve::Geometry::kMaxSide)
      st = Status::InvalidArgument("atari-go against the engine is played on boards up to 9x9");
  }
  if (!st.ok()) return refuse(conn, req, "bad_request", st);

  SeatTokens tokens;
  std::string id;
  st = random_hex(kGameIdBytes, &id);
  auto token = [&](std::string* t) {
    if (st.ok()) st = random_hex(kTokenBytes, t);
  };
  if (s.mode == GameMode::Local) {
    token(&tokens.both);
  } else if (s.mode == GameMode::Engine) {
    token(s.engine_color == Color::Black ? &tokens.white : &tokens.black);
  } else {
    token(&tokens.black);
    token(&tokens.white);
  }
  token(&tokens.watch);
  if (!st.ok()) return refuse(conn, req, "internal", st);
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    if (int(games_.size()) >= options_.limits.max_games)
      return refuse(conn, req, "too_many_games",
                    Status::Busy("the server holds " + std::to_string(games_.size()) + " games, its limit"));
  }
  std::shared_ptr<GameRoom> room;
  const std::string record = options_.games_dir.empty() ? "" : options_.games_dir + "/" + id + ".game";
  st = GameRoom::Create(id, s, tokens, record, &room);
  if (!st.ok()) {
    std::cerr << "sgfpat serve: " << st.message() << "\n";
    return refuse(conn, req, "storage", Status::IOError("the server could not save a new game"));
  }
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    if (int(games_.size()) >= options_.limits.max_games)
      return refuse(conn, req, "too_many_games",
                    Status::Busy("the server holds " + std::to_string(games_.size()) + " games, its limit"));
    games_[id] = room;
  }
  clocks_changed();
  Json j;
  j["t"] = "created";
  j["id"] = req.id();
  j["game"] = id;
  Json links = Json::object();
  if (!tokens.both.empty()) links["both"] = tokens.both;
  if (!tokens.black.empty()) links["black"] = tokens.black;
  if (!tokens.white.empty()) links["white"] = tokens.white;
  links["watch"] = tokens.watch;
  j["tokens"] = links;
  reply(conn, j);
  if (s.mode == GameMode::Engine) kick_engine(room);
}

void Hub::on_join(const ConnectionPtr& conn, const Request& req) {
  std::shared_ptr<GameRoom> room;
  Seat seat;
  int64_t since = 0;
  Status st = find_seat(req, &room, &seat);
  if (st.ok()) st = req.get_optional_int("since", 0, INT64_MAX, &since);
  if (!st.ok()) return refuse(conn, req, st.is_not_found() ? "no_game" : "bad_request", st);
  if (!conn->joined_game.empty() && conn->joined_game != room->id()) on_close(conn.get());
  conn->joined_game = room->id();
  room->join(conn, seat, since, req.id());
}

void Hub::on_play(const ConnectionPtr& conn, const Request& req) {
  std::shared_ptr<GameRoom> room;
  Seat seat;
  int64_t after = 0;
  std::string move;
  Status st = find_seat(req, &room, &seat);
  if (!st.ok()) return refuse(conn, req, st.is_not_found() ? "no_game" : "bad_request", st);
  st = req.get_int("after", 0, INT64_MAX, &after);
  if (st.ok()) st = req.get_string("move", 8, &move);
  SeatAction action;
  if (st.ok()) {
    if (move == "resign") action.resign = true;
    else st = read_point(req.json()["move"], room->settings().rules.size, true, &action.point);
  }
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  GameRoom::Outcome out = room->act(seat, after, action, conn, req.id());
  if (!out.code.empty()) {
    conn->send(std::make_shared<const std::string>(error_message(req.id(), out.code, out.message)));
    return;
  }
  clocks_changed();
  if (room->settings().mode == GameMode::Engine) kick_engine(room);
}

void Hub::on_position(const ConnectionPtr& conn, const Request& req) {
  Game game;
  int at = -1;
  Status st = read_line(req.json(), options_.limits.max_line_moves, &game, &at);
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  Board board;
  ReplayResult rr;
  st = replay(game, &board, &rr, nullptr, at);
  Point last = kPass;
  int seen = 0;
  for (const Action& a : game.actions)
    if (a.kind == Action::Kind::Play && seen++ < rr.moves_played) last = a.point;
  Json j;
  j["t"] = "position";
  j["id"] = req.id();
  j["state"] = line_state(board, rr, last);
  // An illegal move stops the replay: the position before it is shown, and why.
  if (!st.ok()) j["error"] = st.message();
  reply(conn, j);
}

void Hub::on_load_sgf(const ConnectionPtr& conn, const Request& req) {
  std::string text;
  Status st = req.get_string("text", options_.limits.max_message_bytes, &text);
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  Game game;
  st = parse_game(text, &game);
  if (!st.ok()) return refuse(conn, req, "bad_sgf", st.with_context("the SGF file"));
  // Replayed once, so that the page learns at once where an illegal move
  // stops it.
  Json j = game_json(game, options_.limits.max_line_moves, &st);
  j["t"] = "sgf_loaded";
  j["id"] = req.id();
  if (!st.ok()) j["error"] = st.message();
  reply(conn, j);
}

void Hub::on_sgf(const ConnectionPtr& conn, const Request& req) {
  std::shared_ptr<GameRoom> room;
  Seat seat;
  Status st = find_seat(req, &room, &seat);
  if (!st.ok()) return refuse(conn, req, st.is_not_found() ? "no_game" : "bad_request", st);
  Json j;
  j["t"] = "sgf_text";
  j["id"] = req.id();
  j["game"] = room->id();
  j["name"] = "sgfpat-" + room->id() + ".sgf";
  j["text"] = room->sgf();
  reply(conn, j);
}

void Hub::run_job(const ConnectionPtr& conn, const Request& req, std::string kind, std::function<Status(Json*)> job) {
  if (conn->jobs.load() >= options_.limits.max_jobs_per_connection)
    return refuse(conn, req, "busy",
                  Status::Busy("this page already has " + std::to_string(options_.limits.max_jobs_per_connection) +
                               " requests running; wait for their answers"));
  ++conn->jobs;
  Json id = req.id();
  const bool queued = pool_->submit([conn, id, kind = std::move(kind), job = std::move(job)] {
    const auto t0 = std::chrono::steady_clock::now();
    Json answer;
    Status st;
    try {
      st = job(&answer);
    } catch (...) {
      st = status_from_exception("answering '" + kind + "'");
    }
    --conn->jobs;
    if (!st.ok()) {
      const char* code = st.is_not_supported() ? "not_available" : st.is_invalid_argument() || st.is_invalid_input() ? "bad_request" : st.is_not_found() ? "not_found" : "failed";
      conn->send(std::make_shared<const std::string>(error_message(id, code, st.message())));
      return;
    }
    answer["t"] = kind;
    answer["id"] = id;
    answer["ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    conn->send(std::make_shared<const std::string>(dump(answer)));
  });
  if (!queued) {
    --conn->jobs;
    refuse(conn, req, "busy", Status::Busy("the server is busy with other requests; try again"));
  }
}

void Hub::on_explore(const ConnectionPtr& conn, const Request& req) {
  Explorer* ex = options_.explorer;
  if (!ex) return refuse(conn, req, "not_available", Status::NotSupported("this server has no explorer (--db, --priors)"));
  const std::string& kind = req.kind();
  if (kind == "stored_game") {
    std::string game;
    Status st = req.get_hex("game", 16, &game);
    if (!st.ok()) return refuse(conn, req, "bad_request", st);
    return run_job(conn, req, kind, [ex, game](Json* out) { return ex->stored_game(game, out); });
  }
  auto line = std::make_shared<Game>();
  int at = -1;
  Status st = read_line(req.json(), options_.limits.max_line_moves, line.get(), &at);
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  if (kind == "heatmap") {
    return run_job(conn, req, kind, [ex, line, at](Json* out) { return ex->heatmap(*line, at, out); });
  }
  if (kind == "pattern") {
    Point p;
    auto it = req.json().find("point");
    st = it == req.json().end() ? Status::InvalidArgument("field 'point' is required")
                                : read_point(*it, line->info.size, false, &p);
    if (!st.ok()) return refuse(conn, req, "bad_request", st);
    return run_job(conn, req, kind, [ex, line, at, p](Json* out) { return ex->pattern(*line, at, p, out); });
  }
  // similar
  bool exact = true;
  int64_t k = 10;
  st = req.get_optional_bool("exact", &exact);
  if (st.ok()) st = req.get_optional_int("k", 1, options_.limits.max_nearest_k, &k);
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  run_job(conn, req, kind, [ex, line, at, exact, k](Json* out) { return ex->similar(*line, at, exact, int(k), out); });
}

bool Hub::kick_engine(const std::shared_ptr<GameRoom>& room) {
  int64_t after = 0;
  std::vector<sgfpat::Action> moves;
  Color to_move;
  if (!room->claim_engine_turn(&after, &moves, &to_move)) return true;  // not its turn, or already thinking
  EngineContext ctx = options_.engine;
  const bool queued = pool_->submit([this, room, ctx, after, moves = std::move(moves), to_move] {
    SeatAction action;
    Status st;
    try {
      st = engine_move(ctx, room->settings().rules, moves, to_move, room->settings().engine, &action);
    } catch (...) {
      st = status_from_exception("the engine's move");
    }
    if (!st.ok()) {
      std::cerr << "sgfpat serve: game " << room->id() << ": " << st.message() << "; the engine passes\n";
      action = SeatAction();
      if (room->settings().rules.ruleset == Ruleset::Atari) action.resign = true;
    }
    GameRoom::Outcome out = room->engine_act(after, action);
    if (out.code == "superko" || out.code == "ko" || out.code == "suicide") {
      // The GTP engine plays simple ko: a move the positional superko
      // refuses becomes a pass.
      out = room->engine_act(after, SeatAction());
    }
    room->release_engine_turn();
    clocks_changed();
  });
  if (!queued) room->release_engine_turn();
  return queued;
}

void Hub::on_engine(const ConnectionPtr& conn, const Request& req) {
  auto line = std::make_shared<Game>();
  int at = -1;
  Status st = read_line(req.json(), options_.limits.max_line_moves, line.get(), &at);
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  const ServeLimits& lim = options_.limits;
  if (req.kind() == "analyze") {
    int64_t playouts = 5000;
    double seconds = lim.max_engine_seconds;
    st = req.get_optional_int("playouts", 1, lim.max_playouts, &playouts);
    if (st.ok()) st = req.get_optional_number("seconds", 0.05, lim.max_engine_seconds, &seconds);
    if (!st.ok()) return refuse(conn, req, "bad_request", st);
    const EngineContext ctx = options_.engine;
    return run_job(conn, req, "analyze", [ctx, line, at, playouts, seconds](Json* out) {
      return analyze_position(ctx, *line, at, playouts, seconds, out);
    });
  }
  double seconds = std::min(5.0, lim.max_engine_seconds);
  st = req.get_optional_number("seconds", 0.05, lim.max_engine_seconds, &seconds);
  if (!st.ok()) return refuse(conn, req, "bad_request", st);
  const int max_size = lim.max_solver_size;
  run_job(conn, req, "solve", [line, at, seconds, max_size](Json* out) {
    return solve_position(*line, at, seconds, max_size, out);
  });
}

}  // namespace sgfpat::serve

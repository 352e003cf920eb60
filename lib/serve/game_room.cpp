#include "serve/game_room.h"

#include <ctime>
#include <iostream>

#include "core/format_version.h"
#include "io/atomic_file.h"
#include "sgf/writer.h"
#include "serve/token.h"

namespace sgfpat::serve {

namespace {

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }
const char* color_code(Color c) { return c == Color::Black ? "B" : c == Color::White ? "W" : ""; }

int64_t ms_between(SteadyTime a, SteadyTime b) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}

bool read_color_code(const Json& j, Color* c) {
  if (!j.is_string()) return false;
  const std::string& s = j.get_ref<const std::string&>();
  *c = s == "B" ? Color::Black : s == "W" ? Color::White : Color::Empty;
  return s == "B" || s == "W" || s.empty();
}

}  // namespace

const char* game_mode_name(GameMode m) {
  switch (m) {
    case GameMode::Local: return "local";
    case GameMode::Network: return "network";
    case GameMode::Engine: return "engine";
  }
  return "?";
}

bool parse_game_mode(std::string_view name, GameMode* out) {
  if (name == "local") *out = GameMode::Local;
  else if (name == "network") *out = GameMode::Network;
  else if (name == "engine") *out = GameMode::Engine;
  else return false;
  return true;
}

const char* seat_name(Seat s) {
  switch (s) {
    case Seat::Watch: return "watch";
    case Seat::Black: return "black";
    case Seat::White: return "white";
    case Seat::Both: return "both";
  }
  return "?";
}

const char* event_kind_name(GameEvent::Kind k) {
  switch (k) {
    case GameEvent::Kind::Move: return "move";
    case GameEvent::Kind::Pass: return "pass";
    case GameEvent::Kind::Resign: return "resign";
    case GameEvent::Kind::Timeout: return "timeout";
  }
  return "?";
}

GameRoom::GameRoom(std::string id, RoomSettings settings, SeatTokens tokens)
    : id_(std::move(id)),
      settings_(settings),
      tokens_(std::move(tokens)),
      state_(settings.rules),
      clock_(settings.clock),
      turn_started_(std::chrono::steady_clock::now()) {}

Status GameRoom::Create(const std::string& id, const RoomSettings& settings, const SeatTokens& tokens,
                        const std::string& record_path, std::shared_ptr<GameRoom>* out) {
  std::shared_ptr<GameRoom> room(new GameRoom(id, settings, tokens));
  if (!record_path.empty()) {
    Status st = GameLog::Create(record_path, room->header_json(), &room->log_);
    if (!st.ok()) return st;
  }
  *out = std::move(room);
  return Status::OK();
}

Json GameRoom::header_json() const {
  Json h;
  h["k"] = "game";
  h["version"] = kServedGameFormat.current;
  h["id"] = id_;
  h["created_ms"] = settings_.created_ms;
  h["size"] = settings_.rules.size;
  h["komi"] = settings_.rules.komi;
  h["rules"] = ruleset_name(settings_.rules.ruleset);
  h["mode"] = game_mode_name(settings_.mode);
  h["engine"] = color_code(settings_.engine_color);
  h["engine_playouts"] = settings_.engine.playouts;
  h["engine_seconds"] = settings_.engine.seconds;
  if (settings_.clock.enabled())
    h["clock"] = {{"main_ms", settings_.clock.main_ms}, {"byo_ms", settings_.clock.byo_ms},
                  {"periods", settings_.clock.periods}};
  else
    h["clock"] = nullptr;
  h["tokens"] = {{"black", tokens_.black}, {"white", tokens_.white}, {"both", tokens_.both}, {"watch", tokens_.watch}};
  return h;
}

Status GameRoom::Load(const std::string& path, std::shared_ptr<GameRoom>* out, bool* torn_tail) {
  GameLog::Contents contents;
  Status st = GameLog::Read(path, &contents);
  if (!st.ok()) return st;
  *torn_tail = contents.torn_tail;
  const Json& h = contents.records[0];
  auto bad = [&](const std::string& why) { return Status::Corruption(path + ": " + why); };
  // The header, checked as strictly as a page's request: the file may have
  // been edited by hand.
  RoomSettings s;
  SeatTokens t;
  std::string id;
  try {
    id = h.at("id").get<std::string>();
    s.created_ms = h.at("created_ms").get<int64_t>();
    s.rules.size = h.at("size").get<int>();
    s.rules.komi = h.at("komi").get<double>();
    if (!parse_ruleset(h.at("rules").get<std::string>(), &s.rules.ruleset)) return bad("unknown rules");
    if (!parse_game_mode(h.at("mode").get<std::string>(), &s.mode)) return bad("unknown mode");
    if (!read_color_code(h.at("engine"), &s.engine_color)) return bad("bad engine colour");
    s.engine.playouts = h.at("engine_playouts").get<int64_t>();
    s.engine.seconds = h.at("engine_seconds").get<double>();
    if (!h.at("clock").is_null()) {
      s.clock.main_ms = h.at("clock").at("main_ms").get<int64_t>();
      s.clock.byo_ms = h.at("clock").at("byo_ms").get<int64_t>();
      s.clock.periods = h.at("clock").at("periods").get<int>();
      if (!check_clock_rules(s.clock).ok()) return bad("bad clock");
    }
    const Json& tok = h.at("tokens");
    t.black = tok.at("black").get<std::string>();
    t.white = tok.at("white").get<std::string>();
    t.both = tok.at("both").get<std::string>();
    t.watch = tok.at("watch").get<std::string>();
  } catch (const std::exception& e) {
    return bad(std::string("header: ") + e.what());
  }
  if (!check_rules(s.rules).ok()) return bad("bad rules in the header");
  for (const std::string* tok : {&t.black, &t.white, &t.both, &t.watch})
    if (!tok->empty() && tok->size() != 2 * kTokenBytes) return bad("bad seat token in the header");
  std::shared_ptr<GameRoom> room(new GameRoom(id, s, t));
  for (size_t i = 1; i < contents.records.size(); ++i) {
    const Json& r = contents.records[i];
    GameEvent e;
    const std::string where = "event " + std::to_string(i);
    try {
      if (r.at("k").get<std::string>() != "event") return bad(where + ": not an event");
      e.seq = r.at("seq").get<int64_t>();
      const std::string kind = r.at("kind").get<std::string>();
      if (kind == "move") e.kind = GameEvent::Kind::Move;
      else if (kind == "pass") e.kind = GameEvent::Kind::Pass;
      else if (kind == "resign") e.kind = GameEvent::Kind::Resign;
      else if (kind == "timeout") e.kind = GameEvent::Kind::Timeout;
      else return bad(where + ": unknown kind '" + kind + "'");
      if (!read_color_code(r.at("color"), &e.color) || e.color == Color::Empty) return bad(where + ": bad colour");
      if (e.kind == GameEvent::Kind::Move && !read_point(r.at("point"), s.rules.size, false, &e.point).ok())
        return bad(where + ": bad point");
      e.spent_ms = r.at("spent_ms").get<int64_t>();
    } catch (const std::exception& ex) {
      return bad(where + ": " + ex.what());
    }
    if (e.seq != int64_t(i)) return bad(where + ": numbered " + std::to_string(e.seq));
    if (e.kind == GameEvent::Kind::Move || e.kind == GameEvent::Kind::Pass) {
      const Refusal r = room->state_.check(e.color, e.point);
      if (r != Refusal::None) return bad(where + ": the rules refuse it (" + refusal_code(r) + ")");
    }
    if (room->apply(e) != Refusal::None) return bad(where + ": the game was over");
  }
  st = GameLog::OpenForAppend(path, contents.valid_bytes, &room->log_);
  if (!st.ok()) return st;
  room->turn_started_ = std::chrono::steady_clock::now();
  *out = std::move(room);
  return Status::OK();
}

bool GameRoom::seat_of(std::string_view token, Seat* seat) const {
  // Every seat's token is compared, so the time taken says nothing of which
  // (if any) matched.
  bool found = false;
  const std::pair<const std::string*, Seat> seats[] = {
      {&tokens_.black, Seat::Black}, {&tokens_.white, Seat::White}, {&tokens_.both, Seat::Both}, {&tokens_.watch, Seat::Watch}};
  for (const auto& [t, s] : seats)
    if (!t->empty() && same_token(*t, token)) {
      *seat = s;
      found = true;
    }
  return found;
}

Json GameRoom::settings_json() const {
  Json j;
  j["size"] = settings_.rules.size;
  j["komi"] = settings_.rules.komi;
  j["rules"] = ruleset_name(settings_.rules.ruleset);
  j["mode"] = game_mode_name(settings_.mode);
  j["engine"] = color_code(settings_.engine_color);
  j["persistent"] = log_ != nullptr;
  if (settings_.clock.enabled())
    j["clock"] = {{"main_ms", settings_.clock.main_ms}, {"byo_ms", settings_.clock.byo_ms},
                  {"periods", settings_.clock.periods}};
  else
    j["clock"] = nullptr;
  return j;
}

Json GameRoom::event_json(const GameEvent& e) const {
  Json j;
  j["seq"] = e.seq;
  j["kind"] = event_kind_name(e.kind);
  j["color"] = color_code(e.color);
  if (e.kind == GameEvent::Kind::Move) j["point"] = point_json(e.point, settings_.rules.size);
  j["spent_ms"] = e.spent_ms;
  return j;
}

Json GameRoom::clock_json() const {
  if (!settings_.clock.enabled()) return nullptr;
  Json j;
  for (Color c : {Color::Black, Color::White})
    j[color_code(c)] = {{"main_ms", clock_.side(c).main_left_ms}, {"periods", clock_.side(c).periods_left}};
  const bool running = !state_.over();
  j["running"] = running ? color_code(state_.to_move()) : "";
  // The running side's time left as of this message: pages count down from it.
  j["left_ms"] = running ? clock_.time_left_ms(state_.to_move()) -
                               ms_between(turn_started_, std::chrono::steady_clock::now())
                         : 0;
  return j;
}

Json GameRoom::state_json() const {
  const Board& b = state_.board();
  const int n = b.size();
  Json j;
  j["seq"] = events_.empty() ? 0 : events_.back().seq;
  j["size"] = n;
  j["board"] = board_string(b);
  j["to_move"] = color_code(state_.to_move());
  j["moves"] = state_.moves().size();
  j["captures"] = {{"B", b.captures(Color::Black)}, {"W", b.captures(Color::White)}};
  j["last"] = state_.moves().empty() || state_.last_move().is_pass() ? Json(nullptr) : point_json(state_.last_move(), n);
  Json cap = Json::array();
  for (Point p : last_captured_) cap.push_back(point_json(p, n));
  j["captured"] = cap;
  j["passes"] = state_.passes_in_a_row();
  j["over"] = state_.over();
  j["clock"] = clock_json();
  if (state_.over()) {
    const GameResult& r = state_.result();
    Json res;
    res["reason"] = end_reason_name(r.reason);
    res["winner"] = color_code(r.winner);
    res["sgf"] = r.sgf_result();
    res["text"] = r.text(settings_.rules.komi);
    if (r.reason == EndReason::Score) {
      res["black"] = r.area.black;
      res["white"] = r.area.white;
      res["margin"] = r.margin;
      std::string owners;
      for (Color c : state_.owners()) owners += c == Color::Black ? 'X' : c == Color::White ? 'O' : '.';
      res["owners"] = owners;
    }
    j["result"] = res;
  } else {
    j["result"] = nullptr;
  }
  return j;
}

void GameRoom::join(const ConnectionPtr& conn, Seat seat, int64_t since, const Json& request_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Json j;
  j["t"] = "joined";
  j["id"] = request_id;
  j["game"] = id_;
  j["seat"] = seat_name(seat);
  j["settings"] = settings_json();
  Json ev = Json::array();
  for (const GameEvent& e : events_)
    if (e.seq > since) ev.push_back(event_json(e));
  j["events"] = ev;
  j["state"] = state_json();
  conn->send(std::make_shared<const std::string>(dump(j)));
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    auto s = it->lock();
    if (!s || s.get() == conn.get()) it = subscribers_.erase(it);
    else ++it;
  }
  subscribers_.push_back(conn);
}

void GameRoom::leave(const Connection* conn) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    auto s = it->lock();
    if (!s || s.get() == conn) it = subscribers_.erase(it);
    else ++it;
  }
}

void GameRoom::broadcast(const std::shared_ptr<const std::string>& text) {
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    if (auto s = it->lock()) {
      s->send(text);
      ++it;
    } else {
      it = subscribers_.erase(it);
    }
  }
}

Refusal GameRoom::apply(const GameEvent& e) {
  switch (e.kind) {
    case GameEvent::Kind::Move:
    case GameEvent::Kind::Pass: {
      const Refusal r = state_.play(e.color, e.kind == GameEvent::Kind::Pass ? kPass : e.point, &last_captured_);
      if (r != Refusal::None) return r;
      // A record replays the time as it was charged; a move that overran
      // it would have been a timeout instead.
      if (settings_.clock.enabled()) clock_.charge(e.color, e.spent_ms);
      break;
    }
    case GameEvent::Kind::Resign:
      if (state_.over()) return Refusal::GameOver;
      state_.resign(e.color);
      last_captured_.clear();
      break;
    case GameEvent::Kind::Timeout:
      if (state_.over()) return Refusal::GameOver;
      if (settings_.clock.enabled()) clock_.charge(e.color, e.spent_ms);
      state_.lose_on_time(e.color);
      last_captured_.clear();
      break;
  }
  events_.push_back(e);
  return Refusal::None;
}

Status GameRoom::commit(const GameEvent& e, const ConnectionPtr& from, const Json& request_id) {
  Json msg = event_json(e);
  if (log_) {
    Json record = msg;
    record["k"] = "event";
    Status st = log_->append(record);
    if (!st.ok()) {
      std::cerr << "sgfpat serve: game " << id_ << ": " << st.message() << "\n";
      return st;
    }
  }
  apply(e);
  turn_started_ = std::chrono::steady_clock::now();
  if (from) {
    Json ack;
    ack["t"] = "ack";
    ack["id"] = request_id;
    ack["game"] = id_;
    ack["seq"] = e.seq;
    from->send(std::make_shared<const std::string>(dump(ack)));
  }
  msg["t"] = "event";
  msg["game"] = id_;
  msg["state"] = state_json();
  broadcast(std::make_shared<const std::string>(dump(msg)));
  if (state_.over()) write_sgf_file();
  return Status::OK();
}

GameRoom::Outcome GameRoom::act(Seat seat, int64_t after, const SeatAction& action, const ConnectionPtr& from,
                                const Json& request_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (seat == Seat::Watch) return Outcome{"watcher", "A watcher's link cannot play.", 0};
  // The colour acting: a seat's own, or with both seats the one to move
  // (a resignation from both seats is the player's to move).
  const Color c = seat == Seat::Black ? Color::Black : seat == Seat::White ? Color::White : state_.to_move();
  if (settings_.engine_color == c) return Outcome{"engine_seat", "The engine plays that colour.", 0};
  return act_locked(c, after, action, from, request_id);
}

GameRoom::Outcome GameRoom::engine_act(int64_t after, const SeatAction& action) {
  std::lock_guard<std::mutex> lock(mu_);
  if (settings_.engine_color == Color::Empty) return Outcome{"engine_seat", "This game has no engine.", 0};
  return act_locked(settings_.engine_color, after, action, nullptr, nullptr);
}

bool GameRoom::engine_to_move() const {
  std::lock_guard<std::mutex> lock(mu_);
  return settings_.engine_color != Color::Empty && !state_.over() && state_.to_move() == settings_.engine_color &&
         !engine_thinking_;
}

bool GameRoom::claim_engine_turn(int64_t* after, std::vector<sgfpat::Action>* moves, Color* to_move) {
  std::lock_guard<std::mutex> lock(mu_);
  if (settings_.engine_color == Color::Empty || state_.over() || state_.to_move() != settings_.engine_color ||
      engine_thinking_)
    return false;
  engine_thinking_ = true;
  *after = events_.empty() ? 0 : events_.back().seq;
  *moves = state_.moves();
  *to_move = state_.to_move();
  return true;
}

void GameRoom::release_engine_turn() {
  std::lock_guard<std::mutex> lock(mu_);
  engine_thinking_ = false;
}

GameRoom::Outcome GameRoom::act_locked(Color c, int64_t after, const SeatAction& action, const ConnectionPtr& from,
                                       const Json& request_id) {
  Outcome out;
  auto refuse = [&](std::string code, std::string message) {
    out.code = std::move(code);
    out.message = std::move(message);
    return out;
  };
  const int64_t last = events_.empty() ? 0 : events_.back().seq;
  if (state_.over()) return refuse(refusal_code(Refusal::GameOver), refusal_message(Refusal::GameOver, state_.to_move()));
  if (after != last)
    return refuse("stale", "The game has moved on since your move was made (event " + std::to_string(last) +
                               "); look again.");
  GameEvent e;
  e.seq = last + 1;
  e.color = c;
  e.spent_ms = c == state_.to_move() ? ms_between(turn_started_, std::chrono::steady_clock::now()) : 0;
  if (action.resign) {
    e.kind = GameEvent::Kind::Resign;
  } else {
    e.kind = action.point.is_pass() ? GameEvent::Kind::Pass : GameEvent::Kind::Move;
    e.point = action.point;
    const Refusal r = state_.check(c, action.point);
    if (r != Refusal::None) return refuse(refusal_code(r), refusal_message(r, state_.to_move()));
    // A move that comes after the mover's time ran out loses on time
    // instead (the clock thread may not have seen it yet).
    if (settings_.clock.enabled() && e.spent_ms >= clock_.time_left_ms(c)) {
      GameEvent t;
      t.seq = e.seq;
      t.kind = GameEvent::Kind::Timeout;
      t.color = c;
      t.spent_ms = clock_.time_left_ms(c);
      if (!commit(t, nullptr, nullptr).ok()) return refuse("storage", "The server could not save the game.");
      return refuse("time", "Your time ran out: the game is lost on time.");
    }
  }
  if (!commit(e, from, request_id).ok()) return refuse("storage", "The server could not save the move; try again.");
  out.seq = e.seq;
  return out;
}

std::optional<SteadyTime> GameRoom::deadline() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!settings_.clock.enabled() || state_.over()) return std::nullopt;
  return turn_started_ + std::chrono::milliseconds(clock_.time_left_ms(state_.to_move()));
}

void GameRoom::check_time(SteadyTime now) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!settings_.clock.enabled() || state_.over()) return;
  const Color c = state_.to_move();
  const int64_t left = clock_.time_left_ms(c);
  if (ms_between(turn_started_, now) < left) return;
  GameEvent t;
  t.seq = (events_.empty() ? 0 : events_.back().seq) + 1;
  t.kind = GameEvent::Kind::Timeout;
  t.color = c;
  t.spent_ms = left;
  commit(t, nullptr, nullptr);
}

std::string GameRoom::sgf_locked() const {
  Game g = state_.record();
  g.info.name = "sgfpat serve game " + id_;
  if (settings_.created_ms > 0) {
    const std::time_t t = std::time_t(settings_.created_ms / 1000);
    std::tm tm;
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
    g.info.date = date;
  }
  if (settings_.engine_color == Color::Black) g.info.black_name = "sgfpat engine";
  if (settings_.engine_color == Color::White) g.info.white_name = "sgfpat engine";
  return write_sgf(g);
}

void GameRoom::write_sgf_file() const {
  if (!log_) return;
  std::string path = log_->path();
  path.replace(path.size() - 5, 5, ".sgf");  // <id>.game -> <id>.sgf
  AtomicFile f;
  Status st = f.open(path);
  if (st.ok()) {
    const std::string text = sgf_locked();
    f.write(text.data(), text.size());
    st = f.commit();
  }
  if (!st.ok()) std::cerr << "sgfpat serve: game " << id_ << ": the SGF was not written: " << st.message() << "\n";
}

std::string GameRoom::sgf() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sgf_locked();
}

int64_t GameRoom::last_seq() const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_.empty() ? 0 : events_.back().seq;
}

bool GameRoom::over() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.over();
}

Color GameRoom::to_move() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.to_move();
}

std::vector<sgfpat::Action> GameRoom::moves() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.moves();
}

}  // namespace sgfpat::serve

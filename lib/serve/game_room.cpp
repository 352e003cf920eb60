#include "serve/game_room.h"

#include "sgf/writer.h"
#include "serve/token.h"

namespace sgfpat::serve {

namespace {
std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }
const char* color_code(Color c) { return c == Color::Black ? "B" : c == Color::White ? "W" : ""; }
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
    : id_(std::move(id)), settings_(settings), tokens_(std::move(tokens)), state_(settings.rules) {}

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
  return j;
}

Json GameRoom::event_json(const GameEvent& e) const {
  Json j;
  j["seq"] = e.seq;
  j["kind"] = event_kind_name(e.kind);
  j["color"] = color_code(e.color);
  if (e.kind == GameEvent::Kind::Move) j["point"] = point_json(e.point, settings_.rules.size);
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
  const Point last = state_.last_move();
  j["last"] = state_.moves().empty() ? Json(nullptr) : point_json(last, n);
  Json cap = Json::array();
  for (Point p : last_captured_) cap.push_back(point_json(p, n));
  j["captured"] = cap;
  j["passes"] = state_.passes_in_a_row();
  j["over"] = state_.over();
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
      break;
    }
    case GameEvent::Kind::Resign:
      if (state_.over()) return Refusal::GameOver;
      state_.resign(e.color);
      last_captured_.clear();
      break;
    case GameEvent::Kind::Timeout:
      if (state_.over()) return Refusal::GameOver;
      state_.lose_on_time(e.color);
      last_captured_.clear();
      break;
  }
  events_.push_back(e);
  return Refusal::None;
}

GameRoom::Outcome GameRoom::act(Seat seat, int64_t after, const SeatAction& action, const ConnectionPtr& from,
                                const Json& request_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Outcome out;
  auto refuse = [&](Refusal r, std::string code, std::string message) {
    out.refusal = r;
    out.code = std::move(code);
    out.message = std::move(message);
    return out;
  };
  const int64_t last = events_.empty() ? 0 : events_.back().seq;
  if (seat == Seat::Watch) return refuse(Refusal::NotYourTurn, "watcher", "A watcher's link cannot play.");
  if (state_.over()) return refuse(Refusal::GameOver, refusal_code(Refusal::GameOver), refusal_message(Refusal::GameOver, state_.to_move()));
  if (after != last)
    return refuse(Refusal::None, "stale",
                  "The game has moved on since your move was made (event " + std::to_string(last) + "); look again.");
  // The colour acting: a seat's own, or with both seats the one to move
  // (a resignation from both seats is the player's to move).
  Color c = seat == Seat::Black ? Color::Black : seat == Seat::White ? Color::White : state_.to_move();
  GameEvent e;
  e.seq = last + 1;
  e.color = c;
  if (action.resign) {
    e.kind = GameEvent::Kind::Resign;
  } else {
    e.kind = action.point.is_pass() ? GameEvent::Kind::Pass : GameEvent::Kind::Move;
    e.point = action.point;
    const Refusal r = state_.check(c, action.point);
    if (r != Refusal::None) return refuse(r, refusal_code(r), refusal_message(r, state_.to_move()));
  }
  const Refusal r = apply(e);
  if (r != Refusal::None) return refuse(r, refusal_code(r), refusal_message(r, state_.to_move()));
  out.seq = e.seq;
  if (from) {
    Json ack;
    ack["t"] = "ack";
    ack["id"] = request_id;
    ack["game"] = id_;
    ack["seq"] = e.seq;
    from->send(std::make_shared<const std::string>(dump(ack)));
  }
  Json msg = event_json(e);
  msg["t"] = "event";
  msg["game"] = id_;
  msg["state"] = state_json();
  broadcast(std::make_shared<const std::string>(dump(msg)));
  return out;
}

std::string GameRoom::sgf() const {
  std::lock_guard<std::mutex> lock(mu_);
  Game g = state_.record();
  g.info.name = "sgfpat serve game " + id_;
  return write_sgf(g);
}

int64_t GameRoom::last_seq() const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_.empty() ? 0 : events_.back().seq;
}

}  // namespace sgfpat::serve

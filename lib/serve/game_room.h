// A game served to pages: the game itself (lib/play), its seats and their
// tokens, the numbered events that made it, and the connections watching.
// The room is the referee: a move counts only from the seat whose turn it
// is, checked by the rules, and every event goes to every connection
// subscribed, in order.  Thread-safe (one mutex per room).
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/status.h"
#include "play/game_state.h"
#include "serve/connection.h"
#include "serve/protocol.h"

namespace sgfpat::serve {

// Who plays: both colours from one page, two pages over the network, or a
// page against the engine.
enum class GameMode : uint8_t { Local, Network, Engine };
const char* game_mode_name(GameMode m);  // "local", "network", "engine"
bool parse_game_mode(std::string_view name, GameMode* out);

// What a token lets its holder do.
enum class Seat : uint8_t { Watch, Black, White, Both };
const char* seat_name(Seat s);  // "watch", "black", "white", "both"

struct RoomSettings {
  GameRules rules;
  GameMode mode = GameMode::Local;
  Color engine_color = Color::Empty;  // Engine mode: the colour the engine plays
};

// The tokens of a room's seats ("" for a seat the mode does not have):
// Local has `both` and `watch`; Network `black`, `white`, `watch`; Engine
// the human's colour and `watch`.
struct SeatTokens {
  std::string black, white, both, watch;
};

// One thing that happened, numbered from 1 in the order it happened.
struct GameEvent {
  enum class Kind : uint8_t { Move, Pass, Resign, Timeout };
  int64_t seq = 0;
  Kind kind = Kind::Move;
  Color color = Color::Empty;  // who moved, passed, resigned or ran out of time
  Point point = kPass;         // Move only
};
const char* event_kind_name(GameEvent::Kind k);  // "move", "pass", "resign", "timeout"

// What a seat asks for: a move at `point` (kPass: a pass) or to resign.
struct SeatAction {
  bool resign = false;
  Point point = kPass;
};

class GameRoom {
 public:
  GameRoom(std::string id, RoomSettings settings, SeatTokens tokens);

  const std::string& id() const { return id_; }
  const RoomSettings& settings() const { return settings_; }

  // The seat `token` opens in this room; false for a token that is not one
  // of its own (tokens of other rooms included).
  bool seat_of(std::string_view token, Seat* seat) const;

  // Subscribes `conn` to the room's events and sends it "joined": the
  // room's settings, its seat, the events after `since` and the state now.
  void join(const ConnectionPtr& conn, Seat seat, int64_t since, const Json& request_id);
  void leave(const Connection* conn);

  struct Outcome {
    Refusal refusal = Refusal::None;
    std::string code, message;  // when refused (code "stale": `after` is not the last event)
    int64_t seq = 0;            // the event made, when accepted
  };
  // Refuses what the seat may not do; otherwise makes the event, sends
  // "ack" {seq} to `from` (if given) and the event to every subscriber.
  Outcome act(Seat seat, int64_t after, const SeatAction& action, const ConnectionPtr& from, const Json& request_id);

  // The game as SGF text.
  std::string sgf() const;
  // The number of the last event (0: none yet).
  int64_t last_seq() const;

 private:
  // Applies an event the rules allow (the one path that changes the game).
  Refusal apply(const GameEvent& e);
  Json state_json() const;      // the game now, for pages
  Json event_json(const GameEvent& e) const;
  Json settings_json() const;
  void broadcast(const std::shared_ptr<const std::string>& text);

  const std::string id_;
  const RoomSettings settings_;
  const SeatTokens tokens_;
  mutable std::mutex mu_;
  GameState state_;
  std::vector<GameEvent> events_;
  std::vector<Point> last_captured_;
  std::vector<std::weak_ptr<Connection>> subscribers_;
};

}  // namespace sgfpat::serve

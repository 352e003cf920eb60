// A game served to pages: the game itself (lib/play), its seats and their
// tokens, its clocks, the numbered events that made it, its record on disk
// and the connections watching.  The room is the referee: a move counts
// only from the seat whose turn it is, checked by the rules and the clock;
// it is in the record (synced) before it is acknowledged, then goes to
// every subscribed connection in order.  Thread-safe (one mutex per room).
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "play/clock.h"
#include "play/game_state.h"
#include "serve/connection.h"
#include "serve/game_log.h"
#include "serve/protocol.h"

namespace sgfpat::serve {

using SteadyTime = std::chrono::steady_clock::time_point;

// Who plays: both colours from one page, two pages over the network, or a
// page against the engine.
enum class GameMode : uint8_t { Local, Network, Engine };
const char* game_mode_name(GameMode m);  // "local", "network", "engine"
bool parse_game_mode(std::string_view name, GameMode* out);

// What a token lets its holder do.
enum class Seat : uint8_t { Watch, Black, White, Both };
const char* seat_name(Seat s);  // "watch", "black", "white", "both"

struct EngineStrength {
  int64_t playouts = 0;  // per move (0: by time)
  double seconds = 0;    // per move (0: by playouts)
};

struct RoomSettings {
  GameRules rules;
  GameMode mode = GameMode::Local;
  Color engine_color = Color::Empty;  // Engine mode: the colour the engine plays
  EngineStrength engine;
  ClockRules clock;                   // enabled() false: no clock
  int64_t created_ms = 0;             // Unix time of creation (the record's date)
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
  int64_t spent_ms = 0;        // the mover's thinking time (charged to its clock)
};
const char* event_kind_name(GameEvent::Kind k);  // "move", "pass", "resign", "timeout"

// What a seat asks for: a move at `point` (kPass: a pass) or to resign.
struct SeatAction {
  bool resign = false;
  Point point = kPass;
};

class GameRoom {
 public:
  // A new room.  With a non-empty `record_path` its record file is created
  // there first (the room is not made if that fails).
  static Status Create(const std::string& id, const RoomSettings& settings, const SeatTokens& tokens,
                       const std::string& record_path, std::shared_ptr<GameRoom>* out);
  // The room of a record file: the header's settings and tokens, every
  // event replayed by the rules and the clock (Corruption when the rules
  // refuse one, or the file is not a room's).  *torn_tail: a torn last
  // line was dropped (and cut off the file).  The turn running when the
  // server stopped starts again now: the time the server was down is
  // charged to nobody.
  static Status Load(const std::string& path, std::shared_ptr<GameRoom>* out, bool* torn_tail);

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
    std::string code, message;  // set when refused ("stale": `after` is not the last event)
    int64_t seq = 0;            // the event made, when accepted
  };
  // What `seat` asks for on the state its page saw (`after`: the last
  // event it had).  Refuses what the seat may not do; otherwise records the
  // event, sends "ack" {seq} to `from` (if given) and the event to every
  // subscriber.
  Outcome act(Seat seat, int64_t after, const SeatAction& action, const ConnectionPtr& from, const Json& request_id);

  // The engine's seat (Engine mode): true when the engine is to move and
  // not thinking yet; claim_engine_turn() marks it thinking and gives the
  // moves to think about and the event they follow.
  bool engine_to_move() const;
  bool claim_engine_turn(int64_t* after, std::vector<sgfpat::Action>* moves, Color* to_move);
  void release_engine_turn();
  // The engine's move, made on the game after event `after`.
  Outcome engine_act(int64_t after, const SeatAction& action);

  // When the player to move runs out of time (none: no clock running).
  std::optional<SteadyTime> deadline() const;
  // Ends the game on time when the player to move has run out by `now`.
  void check_time(SteadyTime now);

  // The game as SGF text.
  std::string sgf() const;
  int64_t last_seq() const;
  bool over() const;
  // Whose turn it is and the moves so far (for the engine).
  Color to_move() const;
  std::vector<sgfpat::Action> moves() const;

 private:
  GameRoom(std::string id, RoomSettings settings, SeatTokens tokens);
  // Applies an event the rules allow (the one path that changes the game:
  // live events and those of a record read back).
  Refusal apply(const GameEvent& e);
  Outcome act_locked(Color c, int64_t after, const SeatAction& action, const ConnectionPtr& from,
                     const Json& request_id);
  // Records, applies and sends a new event (the mutex held).
  Status commit(const GameEvent& e, const ConnectionPtr& from, const Json& request_id);
  Json header_json() const;
  Json state_json() const;
  Json clock_json() const;
  Json event_json(const GameEvent& e) const;
  Json settings_json() const;
  void broadcast(const std::shared_ptr<const std::string>& text);
  std::string sgf_locked() const;
  // At the end of a recorded game: <id>.sgf beside its record.
  void write_sgf_file() const;

  const std::string id_;
  const RoomSettings settings_;
  const SeatTokens tokens_;
  mutable std::mutex mu_;
  GameState state_;
  GameClock clock_;
  SteadyTime turn_started_;
  std::unique_ptr<GameLog> log_;
  std::vector<GameEvent> events_;
  std::vector<Point> last_captured_;
  std::vector<std::weak_ptr<Connection>> subscribers_;
  bool engine_thinking_ = false;
};

}  // namespace sgfpat::serve

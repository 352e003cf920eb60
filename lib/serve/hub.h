// The server's application: what each WebSocket message a page sends does.
// It knows nothing of sockets (lib/serve/http_server.cpp carries the
// messages; tests call it directly): on_message() reads one message, checks
// it (lib/serve/protocol.h) and answers on the connection, or hands the
// work to the games (lib/serve/game_room.h).  Nothing a client sends stops
// it: every refusal is an "error" answer, and a message that cannot even be
// read is answered as such.
#pragma once
#include <condition_variable>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "core/status.h"
#include "serve/connection.h"
#include "serve/engine_tasks.h"
#include "serve/explorer.h"
#include "serve/game_room.h"
#include "serve/limits.h"
#include "serve/protocol.h"
#include "serve/work_pool.h"

namespace sgfpat::serve {

struct HubOptions {
  ServeLimits limits;
  // Where each game's record is kept (one append-only file <id>.game, and
  // <id>.sgf once it ends); empty: games live in memory only.
  std::string games_dir;
  // The explorer (null: none); must outlive the hub.
  Explorer* explorer = nullptr;
  // Threads answering the explorer's and the engine's requests.
  int work_threads = 2;
  // The engine's priors (null: uniform priors) and how it reads them.
  EngineContext engine;
};

class Hub {
 public:
  explicit Hub(HubOptions options);
  ~Hub();

  // Loads the games of options.games_dir (creating the folder if needed)
  // and starts the thread that ends games on time.  A record that cannot
  // be read is reported on `log` and left out (its file untouched); a torn
  // last line (a move never acknowledged) is reported and cut off.
  // Fails only when the folder cannot be made or listed.
  Status start(std::ostream& log);
  // Stops the clock thread (also done by the destructor).
  void stop();

  const ServeLimits& limits() const { return options_.limits; }

  // A page connected: sends it "welcome" (what this server offers).
  void on_open(const ConnectionPtr& conn);
  // One text message from the page.  Calls for one connection never overlap.
  void on_message(const ConnectionPtr& conn, std::string_view text);
  // The connection is gone: it leaves its game.
  void on_close(Connection* conn);

  // Games held now.
  size_t game_count() const;

 private:
  using Handler = void (Hub::*)(const ConnectionPtr&, const Request&);
  void dispatch(const ConnectionPtr& conn, const Request& req);
  void reply(const ConnectionPtr& conn, const Json& j);
  void refuse(const ConnectionPtr& conn, const Request& req, std::string_view code, const Status& why);

  void on_create(const ConnectionPtr& conn, const Request& req);
  void on_join(const ConnectionPtr& conn, const Request& req);
  void on_play(const ConnectionPtr& conn, const Request& req);
  void on_position(const ConnectionPtr& conn, const Request& req);
  void on_load_sgf(const ConnectionPtr& conn, const Request& req);
  void on_sgf(const ConnectionPtr& conn, const Request& req);
  void on_explore(const ConnectionPtr& conn, const Request& req);
  void on_engine(const ConnectionPtr& conn, const Request& req);

  // Starts the engine's move in `room` when its seat is to move and no
  // move of it is being made; false when the work pool is full (the clock
  // thread tries again).
  bool kick_engine(const std::shared_ptr<GameRoom>& room);

  // Runs `job` on the work pool for `conn`, within its limits (jobs per
  // connection, the pool's queue); answers "busy" when over them.  The
  // job's answer gets "t" = `kind`, the request's id and "ms" (the time it took).
  void run_job(const ConnectionPtr& conn, const Request& req, std::string kind, std::function<Status(Json*)> job);

  // The room `req` names ("game") and the seat its "token" opens there; an
  // unknown game and a wrong token are refused alike.
  Status find_seat(const Request& req, std::shared_ptr<GameRoom>* room, Seat* seat);
  std::vector<std::shared_ptr<GameRoom>> rooms() const;

  // The clock thread: sleeps until the earliest deadline of a running
  // clock, then ends on time the games whose player ran out.
  void clock_loop();
  void clocks_changed();

  HubOptions options_;
  std::unique_ptr<WorkPool> pool_;
  mutable std::mutex games_mu_;
  std::map<std::string, std::shared_ptr<GameRoom>> games_;

  std::mutex clock_mu_;
  std::condition_variable clock_cv_;
  bool clock_changed_ = false;
  bool stopping_ = false;
  std::thread clock_thread_;
};

}  // namespace sgfpat::serve

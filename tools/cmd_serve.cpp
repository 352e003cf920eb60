// sgfpat serve: the Go board page, network games, the explorer and the
// engine over HTTP and WebSocket (lib/serve).  Parses the flags, starts
// the server, prints the URL and serves until SIGINT or SIGTERM.
#include <iostream>

#include "commands.h"
#include "priors_flags.h"
#include "serve/explorer.h"
#include "serve/http_server.h"
#include "serve/hub.h"

namespace sgfpat::cli {

namespace {
struct ServeArgs {
  serve::ServerOptions server;
  std::string games_dir;
  std::string db;
  PriorsFlags priors;
  int work_threads = 2;
  int refresh_seconds = 60;
};

int run_serve(ServeArgs& a) {
  const char* me = "sgfpat serve: ";
  // The explorer: the database (read-only) and the priors, when given.
  sgfpat_priors::Priors priors;
  serve::ExplorerOptions eo;
  eo.db_path = a.db;
  eo.limits = a.server.limits;
  eo.refresh_seconds = a.refresh_seconds;
  if (!a.priors.path.empty()) {
    Status st = a.priors.open(&priors);
    if (!st.ok()) return fail(me, st);
    eo.priors = &priors;
    eo.eval = a.priors.options();
  }
  std::unique_ptr<serve::Explorer> explorer;
  if (!a.db.empty() || eo.priors) {
    explorer = std::make_unique<serve::Explorer>(eo);
    Status st = explorer->open();
    if (!st.ok()) return fail(me, st);
  }
  serve::HubOptions ho;
  ho.limits = a.server.limits;
  ho.games_dir = a.games_dir;
  ho.explorer = explorer.get();
  ho.work_threads = a.work_threads;
  ho.engine.priors = eo.priors;
  ho.engine.eval = eo.eval;
  serve::Hub hub(ho);
  Status st = hub.start(std::cerr);
  if (!st.ok()) return fail(me, st);
  std::cerr << me << hub.game_count() << " game(s) loaded"
            << (a.games_dir.empty() ? "; no --games-dir: games are kept in memory only" : " from " + a.games_dir)
            << "\n";
  std::unique_ptr<serve::HttpServer> server;
  st = serve::HttpServer::Start(a.server, &hub, &server);
  if (!st.ok()) return fail(me, st);
  const std::string host = a.server.bind.find(':') != std::string::npos ? "[" + a.server.bind + "]" : a.server.bind;
  // The line tests and scripts wait for: the server takes connections from here on.
  std::cout << "sgfpat serve: http://" << host << ":" << server->port() << "/" << std::endl;
  server->run();
  hub.stop();
  std::cout << "sgfpat serve: stopped" << std::endl;
  return kOk;
}
}  // namespace

Runner register_serve(CLI::App& app) {
  auto a = std::make_shared<ServeArgs>();
  auto* cmd = app.add_subcommand("serve",
                                 "Serve the Go board page: play in one window or over the network, explore the\n"
                                 "pattern database and the priors, ask the engine (HTTP and WebSocket)");
  serve::ServerOptions& s = a->server;
  serve::ServeLimits& l = s.limits;
  cmd->add_option("--bind", s.bind, "Address to listen on (127.0.0.1: this machine only)")->capture_default_str();
  cmd->add_option("--port", s.port, "Port to listen on (0: any free port, printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--games-dir", a->games_dir,
                  "Folder of the games' records (one append-only file per game, synced before a move is\n"
                  "acknowledged; <id>.sgf when it ends); without it games are kept in memory only");
  cmd->add_option("--db", a->db,
                  "Pattern database for the explorer (opened read-only, again every --db-refresh seconds: an\n"
                  "ingest may write it meanwhile)");
  cmd->add_option("--db-refresh", a->refresh_seconds, "Seconds before the database is opened again")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  a->priors.add_to(cmd, /*required=*/false);
  cmd->add_option("--work-threads", a->work_threads, "Threads answering the explorer and the engine")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->add_option("--threads", s.threads, "Threads serving connections")->capture_default_str()->check(CLI::Range(1, 64));
  cmd->add_option("--max-games", l.max_games, "Games held at once")->capture_default_str()->check(CLI::Range(1, 1000000));
  cmd->add_option("--max-connections-per-address", l.max_connections_per_address,
                  "Connections from one address at once (HTTP and WebSocket)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-message-bytes", l.max_message_bytes, "Largest WebSocket message (an uploaded SGF is one)")
      ->capture_default_str()
      ->check(CLI::Range(size_t(1024), size_t(64) << 20));
  cmd->add_option("--max-playouts", l.max_playouts, "Engine: playouts of one request or move at most")
      ->capture_default_str()
      ->check(CLI::Range(int64_t(1), int64_t(100000000)));
  cmd->add_option("--max-engine-seconds", l.max_engine_seconds, "Engine and solver: seconds of one request at most")
      ->capture_default_str()
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--messages-per-second", l.messages_per_second, "Messages a connection may send per second")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 1e6));
  cmd->add_option("--message-burst", l.message_burst, "Messages a connection may send at once above that rate")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e6));
  return [a]() { return run_serve(*a); };
}

}  // namespace sgfpat::cli

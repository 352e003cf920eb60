// The HTTP and WebSocket server (Boost.Beast over Boost.Asio): serves the
// embedded page (lib/serve/assets.h) with a Content-Security-Policy that
// allows nothing from elsewhere, and carries the page's WebSocket messages
// (at /ws) to the hub.  Bounded: request header size, a time limit on
// reading a request, WebSocket message size, connections per address,
// messages per second per connection (a flood is answered, then closed),
// unsent bytes per connection; a ping keeps live connections and drops
// dead ones.
#pragma once
#include <memory>
#include <string>

#include "core/status.h"
#include "serve/hub.h"

namespace sgfpat::serve {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8080;  // 0: any free port (see HttpServer::port())
  int threads = 2;  // threads running the network and the hub's answers
  ServeLimits limits;
};

class HttpServer {
 public:
  ~HttpServer();
  // Binds and listens (nothing is served before run()).  `hub` must
  // outlive the server.  IOError when the address cannot be bound.
  static Status Start(const ServerOptions& options, Hub* hub, std::unique_ptr<HttpServer>* out);

  int port() const;
  // Serves until stop() or SIGINT/SIGTERM, on options.threads threads (the
  // caller's among them).
  void run();
  // Makes run() return; callable from any thread.
  void stop();

 private:
  HttpServer() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sgfpat::serve

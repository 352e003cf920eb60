// One page's WebSocket connection as the hub sees it: a place to send text
// messages to, whatever carries them (lib/serve/http_server.cpp, or a test).
#pragma once
#include <atomic>
#include <memory>
#include <string>

namespace sgfpat::serve {

class Connection {
 public:
  virtual ~Connection() = default;
  // Queues a text message; never blocks.  A connection whose queue of
  // unsent bytes passes its bound is closed instead.
  virtual void send(std::shared_ptr<const std::string> text) = 0;
  // Closes the connection (after what is already queued, if it can).
  virtual void close() = 0;
  // The peer's address, for limits and logs.
  virtual const std::string& address() const = 0;

  // Explorer and engine requests of this connection running or waiting.
  std::atomic<int> jobs{0};
  // The game whose events this connection receives ("" none).  Read and
  // written only by the hub's calls for this connection, which never run
  // at the same time.
  std::string joined_game;
};

using ConnectionPtr = std::shared_ptr<Connection>;

}  // namespace sgfpat::serve

// The bounds of the server: what one client may send and ask, and how much
// the server holds.  Every one has a flag in `sgfpat serve`.
#pragma once
#include <cstddef>
#include <cstdint>

namespace sgfpat::serve {

struct ServeLimits {
  size_t max_message_bytes = 1 << 20;     // one WebSocket message (an uploaded SGF is one)
  int max_json_depth = 16;                // nesting of a message's arrays and objects
  size_t max_http_header_bytes = 16 << 10;
  int max_connections_per_address = 64;   // HTTP and WebSocket connections together
  int max_games = 1000;                   // games held (played, finished or loaded at start)
  int max_line_moves = 2000;              // moves of a position sent by a page
  // A connection's messages: a bucket of `burst` that refills at `per_second`;
  // a message that finds it empty is answered "slow down", and a connection
  // that keeps sending into an empty bucket (flood_strikes such answers) is closed.
  double messages_per_second = 50;
  double message_burst = 200;
  int flood_strikes = 100;
  size_t max_queued_bytes = 8 << 20;      // unsent bytes to one connection before it is dropped
  int max_jobs_per_connection = 2;        // explorer and engine requests running at once
  int max_queued_jobs = 16;               // waiting for a worker, all connections together
  int64_t max_playouts = 200000;          // engine: playouts of one request
  double max_engine_seconds = 10;         // engine and solver: seconds of one request
  int max_solver_size = 7;                // solver: the largest atari-go board it is asked about
  int max_similar_hits = 50;              // position search: hits listed
  int max_nearest_k = 50;                 // nearest positions asked for
  int idle_seconds = 60;                  // a WebSocket that answers no ping for this long is closed
  int http_timeout_seconds = 30;          // reading one HTTP request
};

}  // namespace sgfpat::serve

// The games of `sgfpat serve --games-dir` survive the server: kill -9 in
// mid-game (right after an acknowledgement, and at the fail point between
// a record's sync and its acknowledgement), a restart, and the game goes
// on with every acknowledged move; a torn last line is cut off and
// reported, a damaged record is reported and left untouched.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "serve_util.h"
#include "test_util.h"
#include "ws_client.h"

using namespace testws;
using testserve::ServeProcess;
namespace fs = std::filesystem;

namespace {

// The moves of a 9x9 game, Black first (no captures, all legal).
const std::vector<std::string> kMoves = {"E5", "C3", "G7", "C7", "G3", "D5", "F5", "D4", "F4",
                                         "D6", "F6", "C5", "E7", "D7", "E3", "D3"};

struct Seats {
  std::string game, black, white, watch;
};

Seats create_game(WsClient& c) {
  auto r = c.ask({{"t", "create"}, {"mode", "network"}, {"size", 9}, {"komi", 7.5}}, 1);
  REQUIRE(r);
  REQUIRE((*r)["t"] == "created");
  return {(*r)["game"], (*r)["tokens"]["black"], (*r)["tokens"]["white"], (*r)["tokens"]["watch"]};
}

// Plays move `i` (0-based) of kMoves for its seat; returns the answer.
std::optional<Json> play(WsClient& c, const Seats& s, size_t i, int id) {
  return c.ask({{"t", "play"}, {"game", s.game}, {"token", i % 2 ? s.white : s.black}, {"after", int64_t(i)},
                {"move", kMoves[i]}},
               id);
}

// The events of the game as a watcher sees them on joining.
Json events_of(int port, const Seats& s) {
  WsClient w;
  std::string why;
  REQUIRE_MESSAGE(w.connect(port, &why), why);
  auto j = w.ask({{"t", "join"}, {"game", s.game}, {"token", s.watch}, {"since", 0}}, 9);
  REQUIRE(j);
  REQUIRE_MESSAGE((*j)["t"] == "joined", j->dump());
  return (*j)["events"];
}

void check_events(const Json& events, size_t n) {
  REQUIRE(events.size() == n);
  for (size_t i = 0; i < n; ++i) {
    CHECK(events[i]["seq"] == int64_t(i + 1));
    CHECK(events[i]["point"] == kMoves[i]);
    CHECK(events[i]["color"] == (i % 2 ? "W" : "B"));
  }
}

}  // namespace

TEST_CASE("kill -9 after an acknowledged move: a restart loses no acknowledged move and the game goes on") {
  testutil::TempDir dir("sgfpat-serve-crash");
  const std::string games = dir / "games";
  Seats s;
  {
    ServeProcess server(dir.path(), {"--games-dir", games});
    WsClient c;
    std::string why;
    REQUIRE_MESSAGE(c.connect(server.port(), &why), why);
    s = create_game(c);
    for (size_t i = 0; i < 10; ++i) {
      auto r = play(c, s, i, int(100 + i));
      REQUIRE(r);
      REQUIRE_MESSAGE((*r)["t"] == "ack", r->dump());
    }
    // The tenth acknowledgement is the progress line: kill there.
    server.kill9();
  }
  ServeProcess again(dir.path(), {"--games-dir", games});
  CHECK(again.stderr_text().find("1 game(s) loaded") != std::string::npos);
  check_events(events_of(again.port(), s), 10);
  // The game goes on where it was, with the same links.
  WsClient c;
  std::string why;
  REQUIRE_MESSAGE(c.connect(again.port(), &why), why);
  for (size_t i = 10; i < kMoves.size(); ++i) {
    auto r = play(c, s, i, int(200 + i));
    REQUIRE(r);
    REQUIRE_MESSAGE((*r)["t"] == "ack", r->dump());
  }
  auto p1 = c.ask({{"t", "play"}, {"game", s.game}, {"token", s.black}, {"after", 16}, {"move", "pass"}}, 300);
  auto p2 = c.ask({{"t", "play"}, {"game", s.game}, {"token", s.white}, {"after", 17}, {"move", "pass"}}, 301);
  REQUIRE(p1);
  REQUIRE(p2);
  CHECK((*p2)["t"] == "ack");
  // The end writes the SGF beside the record.
  const std::string sgf = testutil::read_file(games + "/" + s.game + ".sgf");
  CHECK(sgf.find(";B[ee];W[cg]") != std::string::npos);
  CHECK(sgf.find("RE[") != std::string::npos);
  again.stop();
}

TEST_CASE("kill at the fail point between sync and acknowledgement: the synced move is there after a restart") {
  testutil::TempDir dir("sgfpat-serve-crash");
  const std::string games = dir / "games";
  Seats s;
  size_t acked = 0;
  {
    // Syncs: 1 the game's header, 2.. its moves: @7 is the sixth move.
    ServeProcess server(dir.path(), {"--games-dir", games}, "serve.log_synced@7");
    WsClient c;
    std::string why;
    REQUIRE_MESSAGE(c.connect(server.port(), &why), why);
    s = create_game(c);
    for (size_t i = 0; i < 10; ++i) {
      auto r = play(c, s, i, int(100 + i));
      if (!r) break;  // the server died
      REQUIRE((*r)["t"] == "ack");
      ++acked;
    }
    REQUIRE_MESSAGE(server.exited(20000), "the server did not die at its fail point");
    CHECK(server.stderr_text().find("sgfpat: fail point serve.log_synced@7") != std::string::npos);
  }
  CHECK(acked == 5);
  ServeProcess again(dir.path(), {"--games-dir", games});
  // The five acknowledged moves, and the sixth, synced before the kill.
  check_events(events_of(again.port(), s), 6);
  again.stop();
}

TEST_CASE("a torn last line is cut off and reported; a damaged record is reported and left as it is") {
  testutil::TempDir dir("sgfpat-serve-crash");
  const std::string games = dir / "games";
  Seats s, t;
  {
    ServeProcess server(dir.path(), {"--games-dir", games});
    WsClient c;
    std::string why;
    REQUIRE_MESSAGE(c.connect(server.port(), &why), why);
    s = create_game(c);
    t = create_game(c);
    for (size_t i = 0; i < 4; ++i) {
      REQUIRE(play(c, s, i, int(100 + i)));
      auto r = c.ask({{"t", "play"}, {"game", t.game}, {"token", i % 2 ? t.white : t.black}, {"after", int64_t(i)},
                      {"move", kMoves[i]}},
                     int(200 + i));
      REQUIRE(r);
      REQUIRE((*r)["t"] == "ack");
    }
    server.stop();
  }
  const std::string torn = games + "/" + s.game + ".game";
  const std::string good_size_text = testutil::read_file(torn);
  {
    std::ofstream f(torn, std::ios::app | std::ios::binary);
    f << "{\"k\":\"event\",\"seq\":5,\"kind\":\"mo";  // a write cut short
  }
  const std::string damaged = games + "/" + t.game + ".game";
  std::string bytes = testutil::read_file(damaged);
  const size_t second_line = bytes.find('\n') + 1;
  bytes[second_line + 10] ^= 0x01;  // one bit of the first event
  testutil::write_file(damaged, bytes);

  ServeProcess again(dir.path(), {"--games-dir", games});
  const std::string err = again.stderr_text();
  CHECK(err.find(torn + ": a torn last line") != std::string::npos);
  CHECK(err.find(damaged + ": line 2 is damaged") != std::string::npos);
  CHECK(err.find("1 game(s) loaded") != std::string::npos);
  check_events(events_of(again.port(), s), 4);
  CHECK(testutil::read_file(torn) == good_size_text);  // cut back to its whole lines
  CHECK(testutil::read_file(damaged) == bytes);        // untouched
  WsClient c;
  std::string why;
  REQUIRE_MESSAGE(c.connect(again.port(), &why), why);
  auto r = c.ask({{"t", "join"}, {"game", t.game}, {"token", t.watch}}, 5);
  REQUIRE(r);
  CHECK((*r)["code"] == "no_game");
  again.stop();
}

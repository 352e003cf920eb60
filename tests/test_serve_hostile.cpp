// A hostile client against `sgfpat serve`: thousands of malformed,
// oversized, wrong-seat and out-of-turn messages, broken frames, raw bytes,
// a flood and too many connections, sent beside a network game played by
// two well-behaved clients.  Afterwards the server answers, and the game
// is intact move for move (on the wire, in its record and in its SGF).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "serve_util.h"
#include "test_util.h"
#include "ws_client.h"

using namespace testws;
using testserve::ServeProcess;

namespace {

const std::vector<std::string> kMoves = {"E5", "C3", "G7", "C7", "G3", "D5", "F5", "D4", "F4", "D6",
                                         "F6", "C5", "E7", "D7", "E3", "D3", "F7", "C6", "F3", "B4",
                                         "H5", "B6", "H4", "D8", "H6", "C8", "E8", "D2", "E2", "C2"};

WsClient* connect(int port, std::vector<std::unique_ptr<WsClient>>& keep) {
  keep.push_back(std::make_unique<WsClient>());
  std::string why;
  REQUIRE_MESSAGE(keep.back()->connect(port, &why), why);
  return keep.back().get();
}

// What a hostile page sends in one round, given the game's links and the
// number of the last event: nothing in it may change the game.
std::vector<std::string> hostile_messages(const std::string& game, const std::string& black, const std::string& white,
                                          const std::string& watch, const std::string& other_game_black,
                                          int64_t last, std::mt19937& rng) {
  const bool black_to_move = last % 2 == 0;
  const std::string& mover = black_to_move ? black : white;
  const std::string& waiting = black_to_move ? white : black;
  auto play = [&](const std::string& token, int64_t after, const Json& move, const std::string& g = "") {
    return Json({{"t", "play"}, {"game", g.empty() ? game : g}, {"token", token}, {"after", after}, {"move", move}}).dump();
  };
  std::vector<std::string> m = {
      // malformed
      "", "{", "}", "[1,2", "null", "true", "\"play\"", "{\"t\":null}", "{\"t\":[]}", "{\"t\":{}}",
      "{\"t\":\"play\"", std::string(64, '{'), std::string(5000, '['), "{\"t\":\"play\",\"game\":\"" + std::string(3, '\0') + "\"}",
      "{\"t\":\"\\u0000\"}", "{\"t\":\"" + std::string(33, 'a') + "\"}", "{\"t\":\"create\",\"id\":1e999}",
      // unknown kinds
      "{\"t\":\"shutdown\"}", "{\"t\":\"PLAY\"}", "{\"t\":\"../../etc/passwd\"}",
      // wrong types
      Json({{"t", "play"}, {"game", 12}, {"token", mover}, {"after", last}, {"move", "A1"}}).dump(),
      Json({{"t", "play"}, {"game", game}, {"token", 12}, {"after", last}, {"move", "A1"}}).dump(),
      Json({{"t", "play"}, {"game", game}, {"token", mover}, {"after", "x"}, {"move", "A1"}}).dump(),
      Json({{"t", "play"}, {"game", game}, {"token", mover}, {"after", last}, {"move", 5}}).dump(),
      Json({{"t", "play"}, {"game", game}, {"token", mover}, {"after", -1}, {"move", "A1"}}).dump(),
      Json({{"t", "play"}, {"game", game}, {"token", mover}, {"after", last}}).dump(),
      Json({{"t", "join"}, {"game", game}, {"token", mover}, {"since", -5}}).dump(),
      Json({{"t", "create"}, {"size", -3}}).dump(), Json({{"t", "create"}, {"komi", "lots"}}).dump(),
      Json({{"t", "create"}, {"clock", {{"main", -1}}}}).dump(),
      Json({{"t", "create"}, {"clock", {{"main", 1e308}, {"byo", 0}, {"periods", 0}}}}).dump(),
      Json({{"t", "position"}, {"size", 9}, {"moves", Json::array({Json::array({"B", "Q16"})})}}).dump(),
      Json({{"t", "load_sgf"}, {"text", "(;SZ[99];B[aa])"}}).dump(),
      Json({{"t", "load_sgf"}, {"text", std::string(10000, '(')}}).dump(),
      // moves off the board, for the other seat, out of turn, stale, watcher's, other games'
      play(mover, last, "J10"), play(mover, last, "Z1"), play(mover, last, "A0"), play(mover, last, "I5"),
      play(mover, last, "zz"), play(mover, last, "passs"), play(mover, last, ""),
      play(waiting, last, "A1"), play(waiting, last, "pass"),
      play(mover, last + 1, "A1"), play(mover, last - 1, "A1"), play(mover, last + 1000, "A1"),
      play(watch, last, "A1"), play(watch, last, "resign"),
      play(other_game_black, last, "A1"), play(other_game_black, last, "A1", std::string(16, 'f')),
      play(std::string(32, '0'), last, "A1"), play(mover.substr(0, 31) + "g", last, "A1"),
      play(mover + "0", last, "A1"), play(mover.substr(0, 16), last, "A1"),
      play(mover, last, "A1", game.substr(0, 15) + (game[15] == '0' ? "1" : "0")),
  };
  // Random printable noise.
  for (int k = 0; k < 12; ++k) {
    std::string noise(1 + rng() % 80, ' ');
    for (char& c : noise) c = char(32 + rng() % 95);
    m.push_back(noise);
  }
  // The occupied points so far, for the mover: refused as occupied.
  for (int64_t i = 0; i < last; ++i) m.push_back(play(mover, last, kMoves[size_t(i)]));
  std::shuffle(m.begin(), m.end(), rng);
  return m;
}

}  // namespace

TEST_CASE("a hostile client changes nothing, and the server stays up") {
  testutil::TempDir dir("sgfpat-serve-hostile");
  const std::string games = dir / "games";
  ServeProcess server(dir.path(), {"--games-dir", games, "--max-connections-per-address", "40"});
  const int port = server.port();
  std::vector<std::unique_ptr<WsClient>> keep;

  WsClient* host = connect(port, keep);
  auto created = host->ask({{"t", "create"}, {"mode", "network"}, {"size", 9}, {"komi", 6.5}}, 1);
  REQUIRE(created);
  const std::string game = (*created)["game"], black = (*created)["tokens"]["black"],
                    white = (*created)["tokens"]["white"], watch = (*created)["tokens"]["watch"];
  auto other = host->ask({{"t", "create"}, {"mode", "network"}, {"size", 9}}, 2);
  REQUIRE(other);
  const std::string other_black = (*other)["tokens"]["black"];
  WsClient* pb = connect(port, keep);
  WsClient* pw = connect(port, keep);
  REQUIRE(pb->ask({{"t", "join"}, {"game", game}, {"token", black}}, 3));
  REQUIRE(pw->ask({{"t", "join"}, {"game", game}, {"token", white}}, 4));

  std::mt19937 rng(76);
  int64_t last = 0;
  size_t hostile_sent = 0, errors_answered = 0;
  for (size_t i = 0; i < kMoves.size(); ++i) {
    // A round of hostile messages on a fresh connection (each has its own
    // message budget), every one answered with an error.
    WsClient* h = connect(port, keep);
    const auto msgs = hostile_messages(game, black, white, watch, other_black, last, rng);
    for (const std::string& m : msgs) REQUIRE(h->send_text(m));
    hostile_sent += msgs.size();
    for (size_t k = 0; k < msgs.size(); ++k) {
      auto r = h->wait_for([](const Json& j) { return j.contains("t") && j["t"] != "welcome"; }, 10000);
      REQUIRE_MESSAGE(r, "no answer to hostile message " << k << " of round " << i);
      if ((*r)["t"] == "error") ++errors_answered;
      else CHECK_MESSAGE(((*r)["t"] == "created" || (*r)["t"] == "position" || (*r)["t"] == "joined"), r->dump());
    }
    h->close_socket();
    keep.pop_back();
    // The real move, by its seat.
    WsClient* seat = i % 2 ? pw : pb;
    auto r = seat->ask({{"t", "play"}, {"game", game}, {"token", i % 2 ? white : black}, {"after", last},
                        {"move", kMoves[i]}},
                       int(1000 + i));
    REQUIRE(r);
    REQUIRE_MESSAGE((*r)["t"] == "ack", r->dump());
    last = (*r)["seq"];
    CHECK(last == int64_t(i + 1));
  }
  CHECK(hostile_sent > 2000);
  CHECK(errors_answered + 3 * kMoves.size() >= hostile_sent);  // all but the few creates/positions/joins


  REQUIRE_MESSAGE(server.running(), "the server died during the rounds: " << server.stderr_text());
  // Frames no browser sends: each ends that connection, nothing else.
  std::string why;
  {
    WsClient* h = connect(port, keep);
    REQUIRE(h->send_frame(2, "\x01\x02\x03"));  // binary: answered, not closed
    auto r = h->wait_for([](const Json& j) { return j.contains("t") && j["t"] != "welcome"; }, 5000);
    REQUIRE(r);
    CHECK((*r)["code"] == "bad_message");
  }
  const std::vector<std::pair<std::string, std::function<bool(WsClient&)>>> breakers = {
      {"a message over the size limit", [](WsClient& c) { return c.send_text(std::string((1 << 20) + 10, 'x')); }},
      {"text that is not UTF-8", [](WsClient& c) { return c.send_text("{\"t\":\"\xc3\x28\"}"); }},
      {"an unmasked client frame", [](WsClient& c) { return c.send_frame(1, "{\"t\":\"x\"}", true, false); }},
      {"a reserved opcode", [](WsClient& c) { return c.send_frame(3, "x"); }},
      {"a fragmented ping", [](WsClient& c) { return c.send_frame(9, "x", false); }},
      {"a continuation without a start", [](WsClient& c) { return c.send_frame(0, "x"); }},
      {"a header announcing 2^62 bytes", [](WsClient& c) {
         return c.send_raw(std::string("\x81\xff\x40\x00\x00\x00\x00\x00\x00\x00\x12\x34\x56\x78", 14));
       }},
  };
  for (const auto& [what, send] : breakers) {
    INFO(what);
    WsClient h;
    std::string why;
    REQUIRE_MESSAGE(h.connect(port, &why), why);
    send(h);
    CHECK(h.wait_closed(10000));
  }
  REQUIRE_MESSAGE(server.running(), "the server died of broken frames: " << server.stderr_text());
  // Raw bytes and broken HTTP on new connections: answered or closed.
  for (const std::string& raw :
       {std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11), std::string("GET / HTTP/1.1\r\n\r\n"),
        std::string("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + std::string(20000, 'a') + "\r\n\r\n",
        std::string("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n") + std::string(10000, 'z'),
        std::string(300, '\0')}) {
    WsClient c;
    std::string why;
    REQUIRE_MESSAGE(c.connect_tcp(port, &why), why);
    c.send_raw(raw);
    CHECK(c.wait_closed(40000));
  }
  REQUIRE_MESSAGE(server.running(), "the server died of raw bytes: " << server.stderr_text());
  // A page of another site may not open the WebSocket (its Origin says so).
  {
    WsClient c;
    std::string why;
    CHECK_FALSE(c.connect(port, &why, "/ws", "Origin: http://evil.example\r\n"));
    CHECK(why.find("403") != std::string::npos);
  }
  REQUIRE_MESSAGE(server.running(), "the server died of a foreign origin: " << server.stderr_text());
  // A flood: answered "slow down", then the connection is closed.
  {
    WsClient flood;
    WsClient* f = &flood;
    REQUIRE_MESSAGE(f->connect(port, &why), why);
    bool closed = false;
    for (int k = 0; k < 5000 && !closed; ++k) closed = !f->send_text(Json({{"t", "position"}, {"size", 9}, {"id", k}}).dump());
    bool slowed = false, named = true;
    for (;;) {
      auto r = f->wait_for([](const Json& j) { return j.contains("t"); }, 5000);
      if (!r) break;
      if ((*r)["code"] != "slow_down") continue;
      slowed = true;
      // The dropped request is named, so that a page stops waiting for it.
      named = named && (*r)["id"].is_number_integer();
    }
    CHECK(slowed);
    CHECK(named);
    CHECK(f->wait_closed(10000));
  }
  REQUIRE_MESSAGE(server.running(), "the server died of a flood: " << server.stderr_text());
  // Too many connections from one address: the ones over the limit (40,
  // of which `keep` holds some) are closed at once, the others work.
  {
    std::vector<std::unique_ptr<WsClient>> many;
    int accepted = 0;
    for (int k = 0; k < 60; ++k) {
      many.push_back(std::make_unique<WsClient>());
      if (many.back()->connect(port, &why, "/ws", "", 5000)) ++accepted;
    }
    CHECK(accepted >= 30);
    CHECK(accepted <= 40 - int(keep.size()));
  }

  // The server answers, and the game is intact move for move.  The 60
  // clients above have just closed; the server gives their places back as
  // it reads their closes, so a connection made at once may still be over
  // the limit: a few tries, bounded, until one is accepted.
  std::unique_ptr<WsClient> connected;
  for (int attempt = 0; attempt < 50 && !connected; ++attempt) {
    auto c = std::make_unique<WsClient>();
    if (c->connect(port, &why)) connected = std::move(c);
    else std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE_MESSAGE(connected, why);
  WsClient& after = *connected;
  auto c2 = after.ask({{"t", "create"}, {"mode", "local"}}, 77);
  REQUIRE(c2);
  CHECK((*c2)["t"] == "created");
  auto j = after.ask({{"t", "join"}, {"game", game}, {"token", watch}}, 78);
  REQUIRE(j);
  const Json& events = (*j)["events"];
  REQUIRE(events.size() == kMoves.size());
  for (size_t i = 0; i < kMoves.size(); ++i) {
    CHECK(events[i]["seq"] == int64_t(i + 1));
    CHECK(events[i]["kind"] == "move");
    CHECK(events[i]["point"] == kMoves[i]);
    CHECK(events[i]["color"] == (i % 2 ? "W" : "B"));
  }
  auto sgf = after.ask({{"t", "sgf"}, {"game", game}, {"token", watch}}, 79);
  REQUIRE(sgf);
  std::string expected;
  for (size_t i = 0; i < kMoves.size(); ++i) {
    const std::string& m = kMoves[i];
    const int x = std::string("ABCDEFGHJ").find(m[0]);
    const int y = 9 - std::stoi(m.substr(1));
    expected += std::string(";") + (i % 2 ? "W" : "B") + "[" + char('a' + x) + char('a' + y) + "]";
  }
  std::string text = (*sgf)["text"];
  text.erase(std::remove(text.begin(), text.end(), '\n'), text.end());
  CHECK(text.find(expected) != std::string::npos);
  // And the record on disk holds exactly those events after its header.
  const std::string record = testutil::read_file(games + "/" + game + ".game");
  CHECK(std::count(record.begin(), record.end(), '\n') == long(kMoves.size() + 1));
  keep.clear();
  server.stop();
}

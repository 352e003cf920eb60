// The server's application without sockets: messages checked and refused
// with a reason (bad JSON, deep nesting, wrong types, unknown kinds), games
// created with their seat tokens, moves refereed (turn, rules, seats,
// stale views), events numbered and sent to every page that joined, a
// rejoin resuming after the last event seen, and SGF loading/replay.
#include <doctest/doctest.h>

#include <deque>
#include <mutex>
#include <sstream>
#include <thread>
#include <string>

#include "serve/hub.h"

using namespace sgfpat;
using namespace sgfpat::serve;

namespace {

// A connection that keeps what it is sent.
class FakeConnection : public Connection {
 public:
  void send(std::shared_ptr<const std::string> text) override {
    std::lock_guard<std::mutex> lock(mu);
    sent.push_back(Json::parse(*text));
  }
  void close() override { closed = true; }
  const std::string& address() const override { return addr; }

  // The messages received since the last call.
  std::vector<Json> take() {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<Json> out(sent.begin(), sent.end());
    sent.clear();
    return out;
  }
  Json last() {
    auto all = take();
    REQUIRE(!all.empty());
    return all.back();
  }

  std::mutex mu;
  std::deque<Json> sent;
  bool closed = false;
  std::string addr = "127.0.0.1";
};

struct Page {
  std::shared_ptr<FakeConnection> conn = std::make_shared<FakeConnection>();
  Json ask(Hub& hub, const Json& msg) {
    hub.on_message(conn, msg.dump());
    return conn->last();
  }
};

// A line's moves: [["B", "E5"], ...] (a braced list of pairs would be
// read as a JSON object).
Json line(std::initializer_list<std::pair<const char*, const char*>> moves) {
  Json a = Json::array();
  for (auto [c, p] : moves) a.push_back(Json::array({c, p}));
  return a;
}

Json create(Hub& hub, Page& p, const std::string& mode, int size = 9) {
  Json r = p.ask(hub, {{"t", "create"}, {"mode", mode}, {"size", size}, {"komi", 6.5}, {"id", 1}});
  REQUIRE(r["t"] == "created");
  return r;
}

}  // namespace

TEST_CASE("hub: malformed messages get an error answer, never a crash") {
  Hub hub(HubOptions{});
  Page p;
  const std::vector<std::string> bad = {
      "",
      "not json",
      "{",
      "[]",
      "42",
      "{\"t\": 3}",
      "{\"no_t\": 1}",
      "{\"t\": \"" + std::string(40, 'x') + "\"}",
      "{\"t\": \"create\", \"id\": [1]}",
      "{\"t\": \"create\", \"id\": \"" + std::string(100, 'i') + "\"}",
      std::string(100, '[') + std::string(100, ']'),
      "{\"t\": \"x\", \"a\": " + std::string(10000, '[') + std::string(10000, ']') + "}",
      "{\"t\": \"\\ud800\"}",
      std::string("{\"t\": \"join\", \"x\": \"\xff\xfe\"}"),
  };
  for (const std::string& m : bad) {
    INFO("message: ", m.substr(0, 60));
    hub.on_message(p.conn, m);
    const Json r = p.conn->last();
    CHECK(r["t"] == "error");
    CHECK(r["code"] == "bad_message");
  }
  Json r = p.ask(hub, {{"t", "launch_missiles"}, {"id", 7}});
  CHECK(r["t"] == "error");
  CHECK(r["code"] == "unknown_kind");
  CHECK(r["id"] == 7);
  // Wrong types and ranges are named.
  r = p.ask(hub, {{"t", "create"}, {"size", "nine"}});
  CHECK(r["code"] == "bad_request");
  CHECK(r["message"].get<std::string>().find("size") != std::string::npos);
  r = p.ask(hub, {{"t", "create"}, {"size", 26}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "create"}, {"size", 1}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "create"}, {"komi", 0.3}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "create"}, {"komi", 1e300}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "create"}, {"mode", "tournament"}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "create"}, {"size", 18446744073709551615ull}});
  CHECK(r["code"] == "bad_request");
  CHECK(hub.game_count() == 0);
}

TEST_CASE("hub: a local game played from one page, to the end and the score") {
  Hub hub(HubOptions{});
  Page p;
  Json c = create(hub, p, "local");
  const std::string game = c["game"], both = c["tokens"]["both"], watch = c["tokens"]["watch"];
  CHECK(game.size() == 16);
  CHECK(both.size() == 32);
  CHECK(c["tokens"].count("black") == 0);
  Json j = p.ask(hub, {{"t", "join"}, {"game", game}, {"token", both}, {"since", 0}, {"id", 2}});
  REQUIRE(j["t"] == "joined");
  CHECK(j["seat"] == "both");
  CHECK(j["state"]["board"] == std::string(81, '.'));
  CHECK(j["state"]["to_move"] == "B");
  int64_t seq = 0;
  auto play = [&](const std::string& move) {
    p.conn->take();
    hub.on_message(p.conn, Json({{"t", "play"}, {"game", game}, {"token", both}, {"after", seq}, {"move", move}}).dump());
    auto got = p.conn->take();
    REQUIRE(got.size() == 2);
    CHECK(got[0]["t"] == "ack");
    CHECK(got[0]["seq"] == seq + 1);
    CHECK(got[1]["t"] == "event");
    seq = got[1]["seq"];
    return got[1];
  };
  play("E5");
  Json e = play("D5");
  CHECK(e["state"]["to_move"] == "B");
  CHECK(e["color"] == "W");
  // Refusals: occupied, a stale view, off the board; nothing changes.
  hub.on_message(p.conn, Json({{"t", "play"}, {"game", game}, {"token", both}, {"after", seq}, {"move", "E5"}}).dump());
  Json r = p.conn->last();
  CHECK(r["code"] == "occupied");
  hub.on_message(p.conn, Json({{"t", "play"}, {"game", game}, {"token", both}, {"after", seq - 1}, {"move", "A1"}}).dump());
  CHECK(p.conn->last()["code"] == "stale");
  hub.on_message(p.conn, Json({{"t", "play"}, {"game", game}, {"token", both}, {"after", seq}, {"move", "Z99"}}).dump());
  CHECK(p.conn->last()["code"] == "bad_request");
  // A watcher of the same game cannot move.
  Page w;
  Json wj = w.ask(hub, {{"t", "join"}, {"game", game}, {"token", watch}});
  CHECK(wj["seat"] == "watch");
  CHECK(wj["events"].size() == 2);
  hub.on_message(w.conn, Json({{"t", "play"}, {"game", game}, {"token", watch}, {"after", seq}, {"move", "A1"}}).dump());
  CHECK(w.conn->last()["code"] == "watcher");
  play("pass");
  Json end = play("pass");
  REQUIRE(end["state"]["over"] == true);
  const Json& res = end["state"]["result"];
  CHECK(res["reason"] == "score");
  // E5 black, D5 white: everything else touches both: only stones count.
  CHECK(res["black"] == 1);
  CHECK(res["white"] == 1);
  CHECK(res["sgf"] == "W+6.5");
  // The watcher saw every event in order.
  auto seen = w.conn->take();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0]["seq"] == 3);
  CHECK(seen[1]["seq"] == 4);
  // The record.
  Json s = p.ask(hub, {{"t", "sgf"}, {"game", game}, {"token", watch}});
  CHECK(s["t"] == "sgf_text");
  CHECK(s["text"].get<std::string>().find("RE[W+6.5]") != std::string::npos);
  CHECK(s["text"].get<std::string>().find(";B[ee];W[de];B[];W[]") != std::string::npos);
}

TEST_CASE("hub: network seats move only their own colour; tokens open only their own game") {
  Hub hub(HubOptions{});
  Page host;
  Json c = create(hub, host, "network");
  Json c2 = create(hub, host, "network");
  const std::string game = c["game"], black = c["tokens"]["black"], white = c["tokens"]["white"];
  const std::string other_black = c2["tokens"]["black"];
  CHECK(black != white);
  Page pb, pw;
  CHECK(pb.ask(hub, {{"t", "join"}, {"game", game}, {"token", black}})["seat"] == "black");
  CHECK(pw.ask(hub, {{"t", "join"}, {"game", game}, {"token", white}})["seat"] == "white");
  // White may not move first; Black may not move for White.
  hub.on_message(pw.conn, Json({{"t", "play"}, {"game", game}, {"token", white}, {"after", 0}, {"move", "C3"}}).dump());
  CHECK(pw.conn->last()["code"] == "not_your_turn");
  // Another game's token gives nothing here, and a made-up one neither.
  Json r = pb.ask(hub, {{"t", "play"}, {"game", game}, {"token", other_black}, {"after", 0}, {"move", "C3"}});
  CHECK(r["code"] == "no_game");
  r = pb.ask(hub, {{"t", "join"}, {"game", game}, {"token", std::string(32, 'a')}});
  CHECK(r["code"] == "no_game");
  r = pb.ask(hub, {{"t", "join"}, {"game", std::string(16, '0')}, {"token", black}});
  CHECK(r["code"] == "no_game");
  pb.conn->take();
  pw.conn->take();
  hub.on_message(pb.conn, Json({{"t", "play"}, {"game", game}, {"token", black}, {"after", 0}, {"move", "C3"}}).dump());
  auto got = pb.conn->take();
  REQUIRE(got.size() == 2);
  CHECK(got[0]["t"] == "ack");
  CHECK(pw.conn->last()["seq"] == 1);
  hub.on_message(pb.conn, Json({{"t", "play"}, {"game", game}, {"token", black}, {"after", 1}, {"move", "D3"}}).dump());
  CHECK(pb.conn->last()["code"] == "not_your_turn");
  // White loses its connection, comes back having seen event 1 only, and
  // gets exactly what it missed.
  hub.on_close(pw.conn.get());
  hub.on_message(pw.conn, Json({{"t", "play"}, {"game", game}, {"token", white}, {"after", 1}, {"move", "D4"}}).dump());
  pw.conn->take();
  hub.on_message(pb.conn, Json({{"t", "play"}, {"game", game}, {"token", black}, {"after", 2}, {"move", "E5"}}).dump());
  Page pw2;
  Json j = pw2.ask(hub, {{"t", "join"}, {"game", game}, {"token", white}, {"since", 1}});
  REQUIRE(j["events"].size() == 2);
  CHECK(j["events"][0]["seq"] == 2);
  CHECK(j["events"][0]["point"] == "D4");
  CHECK(j["events"][1]["seq"] == 3);
  CHECK(j["state"]["seq"] == 3);
  CHECK(j["state"]["to_move"] == "W");
}

TEST_CASE("hub: positions of a line, SGF loading, size caps") {
  Hub hub(HubOptions{});
  Page p;
  Json r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", line({{"B", "E5"}, {"W", "E6"}, {"B", "pass"}})}, {"id", 5}});
  REQUIRE(r["t"] == "position");
  CHECK(r["id"] == 5);
  CHECK(r["state"]["moves"] == 3);
  CHECK(r["state"]["to_move"] == "W");
  CHECK(r["state"]["board"].get<std::string>()[4 * 9 + 4] == 'X');
  CHECK(r["state"]["board"].get<std::string>()[3 * 9 + 4] == 'O');
  r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", line({{"B", "E5"}, {"W", "E5"}})}});
  CHECK(r["state"]["moves"] == 1);
  CHECK(r["error"].get<std::string>().find("occupied") != std::string::npos);
  r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", line({{"B", "E5"}, {"W", "E6"}})}, {"at", 1}});
  CHECK(r["state"]["moves"] == 1);
  r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", line({{"B", "J10"}})}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", line({{"X", "E5"}})}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", "E5"}});
  CHECK(r["code"] == "bad_request");
  Json many = Json::array();
  for (int i = 0; i < 2001; ++i) many.push_back(Json::array({"B", "pass"}));
  r = p.ask(hub, {{"t", "position"}, {"size", 9}, {"moves", many}});
  CHECK(r["code"] == "bad_request");

  r = p.ask(hub, {{"t", "load_sgf"}, {"text", "(;GM[1]FF[4]SZ[9]KM[5.5]PB[Kuro]PW[Shiro]RE[B+R];B[ee];W[dd];B[])"}});
  REQUIRE(r["t"] == "sgf_loaded");
  CHECK(r["size"] == 9);
  CHECK(r["info"]["black"] == "Kuro");
  CHECK(r["info"]["komi"] == 5.5);
  CHECK(r["moves"].size() == 3);
  CHECK(r["moves"][0][1] == "E5");
  CHECK(r["moves"][2][1] == "pass");
  CHECK(r["playable"] == 3);
  r = p.ask(hub, {{"t", "load_sgf"}, {"text", "(;SZ[9];B[ee];W[ee])"}});
  CHECK(r["playable"] == 1);
  CHECK(r.contains("error"));
  r = p.ask(hub, {{"t", "load_sgf"}, {"text", "(;SZ[9];B[ee"}});
  CHECK(r["code"] == "bad_sgf");
  // Bytes that are not UTF-8 make the message invalid JSON.
  hub.on_message(p.conn, std::string("{\"t\":\"load_sgf\",\"text\":\"(;SZ[9]PB[\xc0\xc1];B[ee])\"}"));
  CHECK(p.conn->last()["code"] == "bad_message");
}

TEST_CASE("hub: the number of games is bounded") {
  HubOptions o;
  o.limits.max_games = 3;
  Hub hub(o);
  Page p;
  for (int i = 0; i < 3; ++i) create(hub, p, "local");
  Json r = p.ask(hub, {{"t", "create"}, {"mode", "local"}});
  CHECK(r["code"] == "too_many_games");
  CHECK(hub.game_count() == 3);
}

TEST_CASE("hub: the server's clock ends a game on time, and every page hears it") {
  Hub hub(HubOptions{});
  std::ostringstream log;
  REQUIRE(hub.start(log).ok());
  Page p;
  Json c = p.ask(hub, {{"t", "create"}, {"mode", "network"}, {"size", 9},
                       {"clock", {{"main", 0}, {"byo", 0.3}, {"periods", 1}}}});
  REQUIRE(c["t"] == "created");
  const std::string game = c["game"], black = c["tokens"]["black"];
  Json j = p.ask(hub, {{"t", "join"}, {"game", game}, {"token", black}});
  REQUIRE(j["settings"]["clock"]["byo_ms"] == 300);
  CHECK(j["state"]["clock"]["running"] == "B");
  // Black does not move: within a bounded wait the clock thread ends it.
  Json ended;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (ended.is_null() && std::chrono::steady_clock::now() < deadline) {
    for (const Json& m : p.conn->take())
      if (m["t"] == "event") ended = m;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE_MESSAGE(!ended.is_null(), "no timeout within 10 s");
  CHECK(ended["kind"] == "timeout");
  CHECK(ended["color"] == "B");
  CHECK(ended["state"]["result"]["sgf"] == "W+T");
  // A move after the end is refused.
  Json r = p.ask(hub, {{"t", "play"}, {"game", game}, {"token", black}, {"after", 1}, {"move", "E5"}});
  CHECK(r["code"] == "game_over");
  // Clock settings are checked.
  r = p.ask(hub, {{"t", "create"}, {"clock", {{"main", 0}, {"byo", 0}, {"periods", 0}}}});
  CHECK(r["code"] == "bad_request");
  r = p.ask(hub, {{"t", "create"}, {"clock", {{"main", "ten"}, {"byo", 0}, {"periods", 0}}}});
  CHECK(r["code"] == "bad_request");
  hub.stop();
}

// The engine in the server: the analysis of a position (candidates from
// the tree search, within the playouts asked), games against the engine
// (it answers every human move, in Go and in atari-go, and never plays for
// the human), and the solver's verdict on every move of a small atari-go
// position, the same as `sgfpat solve --all-moves`.  Requests beyond the
// server's bounds are refused.
#include <doctest/doctest.h>

#include <chrono>
#include <deque>
#include <mutex>
#include <sstream>
#include <thread>

#include "serve/hub.h"
#include "test_util.h"

using namespace sgfpat;
using namespace sgfpat::serve;

namespace {

class FakeConnection : public Connection {
 public:
  void send(std::shared_ptr<const std::string> text) override {
    std::lock_guard<std::mutex> lock(mu);
    sent.push_back(Json::parse(*text));
  }
  void close() override {}
  const std::string& address() const override { return addr; }
  // The first message `pred` accepts, waiting up to timeout_ms.
  Json wait(const std::function<bool(const Json&)>& pred, int timeout_ms = 60000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard<std::mutex> lock(mu);
        for (auto it = sent.begin(); it != sent.end(); ++it)
          if (pred(*it)) {
            Json j = *it;
            sent.erase(it);
            return j;
          }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("no awaited message within " << timeout_ms << " ms");
    return nullptr;
  }
  Json answer(int id, int timeout_ms = 60000) {
    return wait([id](const Json& j) { return j.contains("id") && j["id"] == id; }, timeout_ms);
  }
  std::mutex mu;
  std::deque<Json> sent;
  std::string addr = "127.0.0.1";
};

Json moves_of(std::initializer_list<std::pair<const char*, const char*>> moves) {
  Json a = Json::array();
  for (auto [c, p] : moves) a.push_back(Json::array({c, p}));
  return a;
}

}  // namespace

TEST_CASE("engine: the analysis of a position, within the playouts asked and the bounds") {
  HubOptions o;
  o.limits.max_playouts = 5000;
  Hub hub(o);
  std::ostringstream log;
  REQUIRE(hub.start(log).ok());
  auto conn = std::make_shared<FakeConnection>();
  hub.on_message(conn, Json({{"t", "analyze"}, {"id", 1}, {"size", 9}, {"komi", 7.5},
                             {"moves", moves_of({{"B", "E5"}, {"W", "C3"}})}, {"playouts", 800}})
                           .dump());
  Json r = conn->answer(1);
  REQUIRE_MESSAGE(r["t"] == "analyze", r.dump());
  CHECK(r["to_move"] == "B");
  CHECK(r["playouts"] == 800);
  // The most visited first (at most 20 of them, passes included), their
  // visits within the playouts run.
  int64_t visits = 0, previous = INT64_MAX;
  REQUIRE(!r["candidates"].empty());
  for (const Json& c : r["candidates"]) {
    CHECK(c["visits"].get<int64_t>() <= previous);
    previous = c["visits"];
    visits += previous;
  }
  CHECK(visits <= 800);
  CHECK(r["candidates"][0]["move"] == r["best"]);
  // Over the bounds: refused at once.
  hub.on_message(conn, Json({{"t", "analyze"}, {"id", 2}, {"size", 9}, {"playouts", 5001}}).dump());
  CHECK(conn->answer(2)["code"] == "bad_request");
  hub.on_message(conn, Json({{"t", "analyze"}, {"id", 3}, {"size", 9}, {"seconds", 1e9}}).dump());
  CHECK(conn->answer(3)["code"] == "bad_request");
  hub.stop();
}

TEST_CASE("engine: a game against it; it answers each move and never plays for the human") {
  Hub hub(HubOptions{});
  std::ostringstream log;
  REQUIRE(hub.start(log).ok());
  auto conn = std::make_shared<FakeConnection>();
  hub.on_message(conn, Json({{"t", "create"}, {"id", 1}, {"mode", "engine"}, {"size", 9}, {"komi", 7.5},
                             {"engine_color", "W"}, {"playouts", 300}})
                           .dump());
  Json c = conn->answer(1);
  REQUIRE(c["t"] == "created");
  CHECK(c["tokens"].count("white") == 0);  // the engine's seat has no link
  const std::string game = c["game"], black = c["tokens"]["black"];
  hub.on_message(conn, Json({{"t", "join"}, {"id", 2}, {"game", game}, {"token", black}}).dump());
  Json j = conn->answer(2);
  CHECK(j["settings"]["engine"] == "W");
  const char* mine[] = {"E5", "C3", "G7"};
  int64_t seq = 0;
  for (int i = 0; i < 3; ++i) {
    hub.on_message(conn, Json({{"t", "play"}, {"id", 10 + i}, {"game", game}, {"token", black}, {"after", seq},
                               {"move", mine[i]}})
                             .dump());
    REQUIRE(conn->answer(10 + i)["t"] == "ack");
    Json e = conn->wait([&](const Json& m) { return m["t"] == "event" && m["color"] == "W"; });
    seq = e["seq"];
    CHECK(seq == 2 * (i + 1));
    CHECK(e["state"]["to_move"] == "B");
  }
  // The human's token may not move for the engine.
  hub.on_message(conn, Json({{"t", "play"}, {"id", 20}, {"game", game}, {"token", black}, {"after", seq - 1},
                             {"move", "A1"}})
                           .dump());
  CHECK(conn->answer(20)["code"] == "stale");
  hub.stop();
}

TEST_CASE("engine: a game against it by seconds a move keeps to them, whatever playouts allow") {
  // The engine's seat gets 0.1 s a move: its search must stop there, not
  // run the 200,000 playouts (tens of seconds) the request also allows.
  // (The GTP engine used to drop the time of a move when no GTP clock was
  // set: found by fuzz_serve_message.)
  Hub hub(HubOptions{});
  std::ostringstream log;
  REQUIRE(hub.start(log).ok());
  auto conn = std::make_shared<FakeConnection>();
  hub.on_message(conn, Json({{"t", "create"}, {"id", 1}, {"mode", "engine"}, {"size", 9}, {"komi", 7.5},
                             {"engine_color", "B"}, {"seconds", 0.1}, {"playouts", 200000}})
                           .dump());
  const auto t0 = std::chrono::steady_clock::now();
  Json c = conn->answer(1);
  REQUIRE(c["t"] == "created");
  const std::string game = c["game"], white = c["tokens"]["white"];
  hub.on_message(conn, Json({{"t", "join"}, {"id", 2}, {"game", game}, {"token", white}}).dump());
  const Json joined = conn->answer(2);
  REQUIRE(joined["t"] == "joined");
  // The engine (Black) moves first, within its 0.1 s and a wide margin for
  // a loaded machine (the move is in "joined" if it came before the join).
  Json e = joined["events"].empty()
               ? conn->wait([](const Json& m) { return m["t"] == "event" && m["seq"] == 1; }, 10000)
               : joined["events"][0];
  CHECK(e["color"] == "B");
  MESSAGE("the engine's first move took "
          << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s");
  hub.stop();
}

TEST_CASE("engine: atari-go against it, with the engine first") {
  Hub hub(HubOptions{});
  std::ostringstream log;
  REQUIRE(hub.start(log).ok());
  auto conn = std::make_shared<FakeConnection>();
  hub.on_message(conn, Json({{"t", "create"}, {"id", 1}, {"mode", "engine"}, {"size", 5}, {"rules", "atari"},
                             {"engine_color", "B"}, {"seconds", 0.5}})
                           .dump());
  Json c = conn->answer(1);
  REQUIRE(c["t"] == "created");
  const std::string game = c["game"], white = c["tokens"]["white"];
  hub.on_message(conn, Json({{"t", "join"}, {"id", 2}, {"game", game}, {"token", white}}).dump());
  conn->answer(2);
  // The engine (Black) moves first by itself.
  Json e = conn->wait([](const Json& m) { return m["t"] == "event" && m["seq"] == 1; });
  CHECK(e["color"] == "B");
  CHECK(e["kind"] == "move");
  hub.stop();
}

TEST_CASE("engine: the solver's verdicts on a small atari-go position equal `sgfpat solve --all-moves`") {
  testutil::TempDir dir("sgfpat-serve-solve");
  Hub hub(HubOptions{});
  std::ostringstream log;
  REQUIRE(hub.start(log).ok());
  auto conn = std::make_shared<FakeConnection>();
  const Json moves = moves_of({{"B", "C3"}, {"W", "C4"}, {"B", "B4"}, {"W", "D3"}});
  hub.on_message(conn, Json({{"t", "solve"}, {"id", 1}, {"size", 5}, {"moves", moves}, {"seconds", 10}}).dump());
  Json r = conn->answer(1, 120000);
  REQUIRE_MESSAGE(r["t"] == "solve", r.dump());
  CHECK(r["to_move"] == "B");
  hub.on_message(conn, Json({{"t", "position"}, {"id", 2}, {"size", 5}, {"moves", moves}}).dump());
  const std::string board = conn->answer(2)["state"]["board"];
  std::string rows;
  for (int y = 0; y < 5; ++y) rows += (y ? "/" : "") + board.substr(size_t(y * 5), 5);
  testutil::RunResult cli =
      testutil::run_cli({"solve", "--board", rows, "--player", "B", "--all-moves", "--json", "--time", "10", "--table-mb", "64"},
                        dir.path());
  INFO("sgfpat solve: " << cli.err);
  REQUIRE((cli.exit_code == 0 || cli.exit_code == 4));
  const Json want = Json::parse(cli.out);
  std::map<std::string, std::string> expected;
  for (const Json& m : want["moves"]) expected[m["move"]] = m["result"];
  REQUIRE(r["moves"].size() == expected.size());
  int decided = 0;
  for (const Json& m : r["moves"]) {
    INFO("move " << m["move"]);
    CHECK(expected[m["move"]] == m["verdict"]);
    decided += m["verdict"] != "unknown";
  }
  CHECK(decided == int(expected.size()));
  // Bigger boards than the bound are refused.
  hub.on_message(conn, Json({{"t", "solve"}, {"id", 3}, {"size", 9}, {"moves", Json::array()}}).dump());
  CHECK(conn->answer(3)["code"] == "bad_request");
  hub.stop();
}

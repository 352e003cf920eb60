// Benchmarks of `sgfpat serve` over loopback WebSockets, against a server
// started beforehand (bench/serve.sh starts it, reads its peak memory and
// restarts it between `load` and `verify`).
//
//   bench_serve load --port P [--games 200] [--moves 100] [--out GAMES]
//     GAMES network games at once, one connection per seat, each player
//     sending its move as soon as it has seen the opponent's: MOVES moves
//     (no capture: Black fills the top rows, White the bottom ones), then
//     two passes.  Prints moves per second, the round trip of a move (sent
//     to acknowledged) at p50/p99, and then every game checked move for
//     move through a watcher's link: moves lost, duplicated or changed.
//     GAMES (a file) gets each game's id and watching token.
//   bench_serve verify --port P --in GAMES [--moves 100]
//     The same check of the games listed (after a restart of the server:
//     what its records gave back).
//   bench_serve explore --port P --sgf FILE [--at 30,80,150] [--repeat 3]
//     For each game of FILE (one SGF game a line) and each move number of
//     --at, the position after it: the heat map, the pattern panel of the
//     move played next and the exact position search, asked in turn
//     --repeat times.  Prints per request kind the median and p90 of the
//     server's time (the "ms" of its answer) and of the round trip.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/types.h"
#include "sgf/parser.h"
#include "ws_client.h"

using testws::Json;
using testws::WsClient;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
  std::string mode;
  int port = 0;
  int games = 200;
  int moves = 100;
  int repeat = 3;
  std::string out, in, sgf;
  std::vector<int> at = {30, 80, 150};
};

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
  return v[i];
}

// The n-th move of a load game: Black fills rows 1..9 from the top, White
// rows 11..19 from the bottom (19x19), so that no stone is ever captured
// and every move is legal; n counts from 0.
std::string load_move(int n) {
  const int k = n / 2;
  const int x = k % 19, row = k / 19;
  const int y = n % 2 == 0 ? row : 18 - row;
  return sgfpat::gtp_name(sgfpat::Point{int8_t(x), int8_t(y)}, 19);
}

struct GameLink {
  std::string id, black, white, watch;
};

// Checks one game's events as a watcher sees them: MOVES moves as
// load_move() gives them, then two passes.  Adds to *lost, *dup, *wrong.
bool check_game(int port, const GameLink& g, int moves, int64_t* lost, int64_t* dup, int64_t* wrong,
                std::string* why) {
  WsClient c;
  if (!c.connect(port, why)) return false;
  auto j = c.ask(Json{{"t", "join"}, {"game", g.id}, {"token", g.watch}}, 1, 30000);
  if (!j || (*j)["t"] != "joined") {
    *why = j ? j->dump() : "no answer to join";
    return false;
  }
  std::map<int64_t, int> seen;
  for (const Json& e : (*j)["events"]) {
    const int64_t seq = e["seq"];
    if (++seen[seq] > 1) {
      ++*dup;
      continue;
    }
    const int n = int(seq - 1);
    const bool pass = n >= moves;
    const char* colour = n % 2 == 0 ? "B" : "W";
    if (n < 0 || n >= moves + 2 || e["color"] != colour || e["kind"] != (pass ? "pass" : "move") ||
        (!pass && e["point"] != load_move(n)))
      ++*wrong;
  }
  for (int64_t s = 1; s <= moves + 2; ++s)
    if (!seen.count(s)) ++*lost;
  if ((*j)["events"].size() > size_t(moves + 2)) *dup += int64_t((*j)["events"].size()) - (moves + 2);
  return true;
}

int run_load(const Args& a) {
  std::vector<GameLink> links(size_t(a.games));
  std::vector<std::vector<double>> rtt(size_t(a.games));
  std::atomic<int> failures{0};
  std::mutex err_mu;
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  auto player = [&](int gi) {
    auto fail = [&](const std::string& what) {
      std::lock_guard<std::mutex> lock(err_mu);
      std::cerr << "game " << gi << ": " << what << "\n";
      ++failures;
    };
    WsClient b, w;
    std::string why;
    if (!b.connect(a.port, &why) || !w.connect(a.port, &why)) {
      ++ready;
      return fail(why);
    }
    auto created = b.ask(Json{{"t", "create"}, {"mode", "network"}, {"size", 19}, {"komi", 7.5}}, 1, 60000);
    if (!created || (*created)["t"] != "created") {
      ++ready;
      return fail(created ? created->dump() : "no answer to create");
    }
    GameLink& g = links[size_t(gi)];
    g.id = (*created)["game"];
    g.black = (*created)["tokens"]["black"];
    g.white = (*created)["tokens"]["white"];
    g.watch = (*created)["tokens"]["watch"];
    auto jb = b.ask(Json{{"t", "join"}, {"game", g.id}, {"token", g.black}}, 2, 60000);
    auto jw = w.ask(Json{{"t", "join"}, {"game", g.id}, {"token", g.white}}, 2, 60000);
    ++ready;
    if (!jb || !jw) return fail("no answer to join");
    while (!go.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    int id = 10;
    for (int n = 0; n < a.moves + 2; ++n) {
      WsClient& me = n % 2 == 0 ? b : w;
      WsClient& other = n % 2 == 0 ? w : b;
      const std::string move = n < a.moves ? load_move(n) : "pass";
      const auto t0 = Clock::now();
      auto ack = me.ask(Json{{"t", "play"}, {"game", g.id}, {"token", n % 2 == 0 ? g.black : g.white},
                             {"after", n}, {"move", move}},
                        ++id, 60000);
      if (!ack || (*ack)["t"] != "ack" || (*ack)["seq"] != n + 1)
        return fail("move " + std::to_string(n + 1) + ": " + (ack ? ack->dump() : "no answer within 60 s"));
      rtt[size_t(gi)].push_back(ms_since(t0));
      // The opponent plays once it has seen the move (its event).
      auto ev = other.wait_for([n](const Json& m) { return m["t"] == "event" && m["seq"] == n + 1; }, 60000);
      if (!ev) return fail("the opponent never saw move " + std::to_string(n + 1));
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < a.games; ++i) threads.emplace_back(player, i);
  while (ready.load() < a.games) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto t0 = Clock::now();
  go = true;
  for (auto& t : threads) t.join();
  const double wall = ms_since(t0) / 1000;
  std::vector<double> all;
  for (auto& v : rtt) all.insert(all.end(), v.begin(), v.end());
  std::printf("games %d, moves %zu acknowledged in %.2f s: %.0f moves/s; round trip p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
              a.games, all.size(), wall, double(all.size()) / wall, quantile(all, 0.5), quantile(all, 0.99),
              quantile(all, 1.0));
  if (!a.out.empty()) {
    std::ofstream f(a.out);
    for (const GameLink& g : links) f << g.id << " " << g.watch << "\n";
  }
  int64_t lost = 0, dup = 0, wrong = 0;
  int checked = 0;
  for (const GameLink& g : links) {
    if (g.id.empty()) continue;
    std::string why;
    if (check_game(a.port, g, a.moves, &lost, &dup, &wrong, &why)) ++checked;
    else std::cerr << "game " << g.id << ": " << why << "\n", ++failures;
  }
  std::printf("checked %d games through a watcher: %lld lost, %lld duplicated, %lld changed; %d failures\n", checked,
              (long long)lost, (long long)dup, (long long)wrong, failures.load());
  return failures == 0 && lost == 0 && dup == 0 && wrong == 0 ? 0 : 1;
}

int run_verify(const Args& a) {
  std::ifstream f(a.in);
  GameLink g;
  int64_t lost = 0, dup = 0, wrong = 0;
  int checked = 0, failures = 0;
  while (f >> g.id >> g.watch) {
    std::string why;
    if (check_game(a.port, g, a.moves, &lost, &dup, &wrong, &why)) ++checked;
    else std::cerr << "game " << g.id << ": " << why << "\n", ++failures;
  }
  std::printf("verify: %d games: %lld lost, %lld duplicated, %lld changed; %d failures\n", checked, (long long)lost,
              (long long)dup, (long long)wrong, failures);
  return checked > 0 && failures == 0 && lost == 0 && dup == 0 && wrong == 0 ? 0 : 1;
}

int run_explore(const Args& a) {
  std::ifstream f(a.sgf);
  if (!f) {
    std::cerr << "cannot read " << a.sgf << "\n";
    return 2;
  }
  struct Position {
    Json line;
    std::string next;
  };
  std::vector<Position> positions;
  std::string text;
  while (std::getline(f, text)) {
    if (text.find('(') == std::string::npos) continue;
    sgfpat::Game game;
    sgfpat::Status st = sgfpat::parse_game(text, &game);
    if (!st.ok() || game.info.size != 19) continue;
    Json moves = Json::array();
    std::vector<std::string> names;
    for (const sgfpat::Action& act : game.actions) {
      if (act.kind != sgfpat::Action::Kind::Play) continue;
      names.push_back(sgfpat::gtp_name(act.point, 19));
      moves.push_back(Json::array({act.color == sgfpat::Color::Black ? "B" : "W", names.back()}));
    }
    for (int at : a.at) {
      if (at + 1 >= int(names.size()) || names[size_t(at)] == "pass") continue;
      positions.push_back({Json{{"size", 19}, {"komi", 6.5}, {"moves", moves}, {"at", at}}, names[size_t(at)]});
    }
  }
  if (positions.empty()) {
    std::cerr << "no 19x19 position of " << a.sgf << " at the moves asked\n";
    return 2;
  }
  WsClient c;
  std::string why;
  if (!c.connect(a.port, &why)) {
    std::cerr << why << "\n";
    return 2;
  }
  std::map<std::string, std::vector<double>> server_ms, round_ms;
  std::map<std::string, int64_t> hits;
  int id = 0, failures = 0;
  for (int r = 0; r < a.repeat; ++r) {
    for (const Position& p : positions) {
      for (const char* kind : {"heatmap", "pattern", "similar"}) {
        Json msg = p.line;
        msg["t"] = kind;
        if (std::strcmp(kind, "pattern") == 0) msg["point"] = p.next;
        if (std::strcmp(kind, "similar") == 0) msg["exact"] = true;
        const auto t0 = Clock::now();
        auto ans = c.ask(msg, ++id, 120000);
        const double rt = ms_since(t0);
        if (!ans || (*ans)["t"] != kind) {
          std::cerr << kind << ": " << (ans ? ans->dump().substr(0, 300) : "no answer within 120 s") << "\n";
          ++failures;
          continue;
        }
        server_ms[kind].push_back((*ans)["ms"].get<double>());
        round_ms[kind].push_back(rt);
        if (std::strcmp(kind, "similar") == 0 && r == 0 && ans->contains("hits"))
          hits[kind] += int64_t((*ans)["hits"].size());
      }
    }
  }
  std::printf("%zu positions x %d rounds\n", positions.size(), a.repeat);
  std::printf("%-8s %10s %10s %12s %12s\n", "request", "server p50", "server p90", "round p50", "round p90");
  for (const char* kind : {"heatmap", "pattern", "similar"}) {
    std::printf("%-8s %8.2f ms %8.2f ms %10.2f ms %10.2f ms\n", kind, quantile(server_ms[kind], 0.5),
                quantile(server_ms[kind], 0.9), quantile(round_ms[kind], 0.5), quantile(round_ms[kind], 0.9));
  }
  if (hits.count("similar")) std::printf("exact search: %lld hits listed over the positions\n", (long long)hits["similar"]);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (argc < 2) {
    std::cerr << "usage: bench_serve load|verify|explore --port P [...] (see bench/bench_serve.cpp)\n";
    return 2;
  }
  a.mode = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--port") a.port = std::stoi(v);
    else if (k == "--games") a.games = std::stoi(v);
    else if (k == "--moves") a.moves = std::stoi(v);
    else if (k == "--repeat") a.repeat = std::stoi(v);
    else if (k == "--out") a.out = v;
    else if (k == "--in") a.in = v;
    else if (k == "--sgf") a.sgf = v;
    else if (k == "--at") {
      a.at.clear();
      std::stringstream s(v);
      std::string x;
      while (std::getline(s, x, ',')) a.at.push_back(std::stoi(x));
    } else {
      std::cerr << "unknown option " << k << "\n";
      return 2;
    }
  }
  if (a.port <= 0 || a.moves < 0 || a.moves > 342 || a.games < 1) {
    std::cerr << "--port is required; --moves at most 342 (19x19 without captures)\n";
    return 2;
  }
  if (a.mode == "load") return run_load(a);
  if (a.mode == "verify") return run_verify(a);
  if (a.mode == "explore") return run_explore(a);
  std::cerr << "unknown mode " << a.mode << "\n";
  return 2;
}

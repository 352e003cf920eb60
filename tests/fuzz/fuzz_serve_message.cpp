// libFuzzer target: arbitrary bytes as the WebSocket messages a page sends
// to `sgfpat serve`, handed to Hub::on_message (lib/serve/hub.h), the
// function the server calls for every text message: Request::Parse reads
// and checks it (lib/serve/protocol.h), then it is dispatched to the games
// (lib/serve/game_room.h), the explorer (a tiny database and its priors,
// made once at start from data/gnugo-9x9.sgf) and the engine (small
// budgets).  What the server promises, checked here:
//   - nothing escapes on_message (no exception, no crash);
//   - every message gets exactly one answer, addressed to it ("id" echoed),
//     besides the "event" broadcasts of the games it joined;
//   - a message Request::Parse refuses is answered "error" "bad_message";
//     an unknown kind "unknown_kind"; any other answer is "error" with a
//     code and a message, or the kind's own answer;
//   - everything sent is a JSON object (valid UTF-8) with a string "t";
//   - request_id_of (the id of a message dropped over the rate) is the
//     message's id when it is small and readable, null otherwise.
//
// Input: up to 16 messages separated by lines "%%" ("\n%%\n").  Before a
// message is handed over, "$game", "$both", "$black", "$white" and
// "$watch" in it become the id and tokens of the last game it created
// (tokens are random: the fuzzer could never guess them), and "$stored"
// the id of a game of the database.
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "count/recount.h"
#include "fuzz_check.h"
#include "ingest/import_inputs.h"
#include "priors/priors_file.h"
#include "priors/priors_writer.h"
#include "serve/hub.h"

namespace {

using sgfpat::Status;
using sgfpat::serve::Json;

// The limits of the server under test: the defaults, with the engine's
// and the solver's budgets small so that one input stays fast, and few
// games so that the limit on games is reached.
sgfpat::serve::ServeLimits fuzz_limits() {
  sgfpat::serve::ServeLimits l;
  l.max_games = 3;
  l.max_playouts = 32;
  l.max_engine_seconds = 0.05;
  l.max_solver_size = 5;
  return l;
}

// The explorer's database and priors, made once: the 20 games of
// data/gnugo-9x9.sgf ingested and counted, and their priors exported.
struct Backend {
  std::string dir;
  sgfpat_priors::Priors priors;
  std::unique_ptr<sgfpat::serve::Explorer> explorer;
  std::string stored_game;  // 16 hex digits of a stored game

  Backend() {
    dir = "/tmp/sgfpat-fuzz-serve-" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string db_path = dir + "/db", priors_path = dir + "/priors";
    {
      sgfpat::OpenOptions open;
      open.create_if_missing = true;
      std::unique_ptr<sgfpat::PatternDb> db;
      must(sgfpat::PatternDb::Open(db_path, open, &db));
      sgfpat::Importer importer(db.get(), sgfpat::GameFilter{});
      uint64_t input_errors = 0;
      must(sgfpat::import_inputs({std::string(SGFPAT_SOURCE_DIR) + "/data/gnugo-9x9.sgf"}, &importer,
                                 sgfpat::InputCallbacks{}, &input_errors));
      sgfpat::CountOptions co;
      co.threads = 1;
      co.memory_budget = size_t(64) << 20;
      sgfpat::CountSummary cs;
      must(sgfpat::recount(*db, co, &cs));
      sgfpat::PriorsExportSummary ps;
      must(sgfpat::write_priors(*db, sgfpat::PriorsExportOptions{}, priors_path, &ps));
    }
    must(sgfpat::open_priors(priors_path, /*verify=*/true, &priors));
    sgfpat::serve::ExplorerOptions eo;
    eo.db_path = db_path;
    eo.priors = &priors;
    eo.refresh_seconds = 1 << 30;
    eo.limits = fuzz_limits();
    explorer = std::make_unique<sgfpat::serve::Explorer>(eo);
    must(explorer->open());
    // Every stored game passes the empty 9x9 board.
    sgfpat::Game empty;
    empty.info.size = 9;
    Json hits;
    must(explorer->similar(empty, 0, /*exact=*/true, 1, &hits));
    if (hits["hits"].empty()) fail("the explorer finds no stored game");
    stored_game = hits["hits"][0]["game"].get<std::string>();
  }
  ~Backend() {
    explorer.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  static void must(const Status& st) {
    if (!st.ok()) fail(st.message());
  }
  [[noreturn]] static void fail(const std::string& why) {
    std::fprintf(stderr, "fuzz_serve_message: the explorer could not be made: %s\n", why.c_str());
    std::abort();
  }
};

Backend& backend() {
  static Backend e;
  return e;
}

// A page's connection: keeps what it is sent (from the calling thread or
// the hub's work pool), each checked to be a JSON object with a string "t".
class FuzzConnection : public sgfpat::serve::Connection {
 public:
  void send(std::shared_ptr<const std::string> text) override {
    Json j = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    FUZZ_CHECK(!j.is_discarded());
    FUZZ_CHECK(j.is_object());
    FUZZ_CHECK(j.contains("t") && j["t"].is_string());
    std::lock_guard<std::mutex> lock(mu_);
    if (j["t"] == "event") return;  // a game's broadcast, not an answer
    answers_.push_back(std::move(j));
    cv_.notify_all();
  }
  void close() override {}
  const std::string& address() const override { return address_; }

  // The answer number `i` (from 0), waited for at most `seconds`; null
  // when none came.
  Json answer(size_t i, int seconds) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::seconds(seconds), [&] { return answers_.size() > i; })) return nullptr;
    return answers_[i];
  }
  size_t answers() {
    std::lock_guard<std::mutex> lock(mu_);
    return answers_.size();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Json> answers_;
  std::string address_ = "127.0.0.1";
};

void replace_all(std::string* s, std::string_view from, const std::string& to) {
  if (to.empty()) return;
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at + to.size()))
    s->replace(at, from.size(), to);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgfpat::serve;
  static const std::map<std::string, std::string, std::less<>> kAnswer = {
      {"create", "created"},  {"join", "joined"},   {"play", "ack"},         {"position", "position"},
      {"load_sgf", "sgf_loaded"}, {"sgf", "sgf_text"}, {"heatmap", "heatmap"}, {"pattern", "pattern"},
      {"similar", "similar"}, {"stored_game", "stored_game"}, {"analyze", "analyze"}, {"solve", "solve"},
  };
  Backend& ex = backend();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> messages;
  while (messages.size() < 16) {
    const size_t sep = text.find("\n%%\n");
    messages.emplace_back(text.substr(0, sep));
    if (sep == std::string_view::npos) break;
    text = text.substr(sep + 4);
  }

  HubOptions ho;
  ho.limits = fuzz_limits();
  ho.explorer = ex.explorer.get();
  ho.work_threads = 1;
  ho.engine.priors = &ex.priors;
  auto hub = std::make_unique<Hub>(ho);
  auto conn = std::make_shared<FuzzConnection>();
  std::map<std::string, std::string> links = {{"$stored", ex.stored_game}};
  size_t handed = 0;
  for (std::string& m : messages) {
    for (const auto& [name, value] : links) replace_all(&m, name, value);
    try {
      hub->on_message(conn, m);
    } catch (...) {
      FUZZ_CHECK(!"an exception escaped Hub::on_message");
    }
    const Json a = conn->answer(handed++, 15);
    FUZZ_CHECK(!a.is_null());  // an answer within 15 s
    Request req;
    const bool parsed = Request::Parse(m, ho.limits.max_json_depth, &req).ok();
    // The id a message over the rate is answered with ("slow_down").
    const Json dropped_id = request_id_of(m, ho.limits.max_json_depth);
    FUZZ_CHECK(parsed && m.size() <= kSmallMessageBytes ? dropped_id == req.id() : dropped_id.is_null());
    if (!parsed) {
      FUZZ_CHECK(a["t"] == "error" && a["code"] == "bad_message" && a["id"].is_null());
      continue;
    }
    FUZZ_CHECK(a.contains("id") && a["id"] == req.id());
    auto kind = kAnswer.find(req.kind());
    if (a["t"] == "error") {
      FUZZ_CHECK(a["code"].is_string() && !a["code"].get<std::string>().empty());
      FUZZ_CHECK(a["message"].is_string() && !a["message"].get<std::string>().empty());
      if (kind == kAnswer.end()) FUZZ_CHECK(a["code"] == "unknown_kind");
      continue;
    }
    FUZZ_CHECK(kind != kAnswer.end() && a["t"] == kind->second);
    if (a["t"] == "created") {
      links["$game"] = a["game"].get<std::string>();
      for (const char* seat : {"both", "black", "white", "watch"})
        links[std::string("$") + seat] = a["tokens"].value(seat, std::string());
    }
  }
  // The engine's moves still running end here; then no answer may come
  // that no message asked for.
  hub.reset();
  FUZZ_CHECK(conn->answers() == handed);
  FUZZ_CHECK(conn->jobs.load() == 0);
  return 0;
}

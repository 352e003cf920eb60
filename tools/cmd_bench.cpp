// sgfpat bench: throughput figures on a real corpus (single-threaded).
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "board/replay.h"
#include "commands.h"
#include "flag_checks.h"
#include "json_text.h"
#include "pattern/tracking_observer.h"
#include "progress.h"
#include "sgf/game_stream.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;

int run_bench(const std::string& what, const std::vector<std::string>& inputs, int levels, bool json) {
  GameStream stream(inputs);
  Game game;
  Status st;
  Board board;
  ReplayResult result;
  KeyScheme scheme;
  scheme.levels = levels;
  TrackingObserver observer(scheme);  // times incremental key maintenance
  uint64_t games = 0, moves = 0, errors = 0, illegal = 0;
  double replay_s = 0;
  auto t0 = Clock::now();
  while (stream.next(&game, &st)) {
    if (!st.ok()) {
      ++errors;
      continue;
    }
    ++games;
    auto r0 = Clock::now();
    if (what == "patterns") observer.start_game(game.info.size);
    Status legal = replay(game, &board, &result, what == "patterns" ? &observer : nullptr);
    replay_s += std::chrono::duration<double>(Clock::now() - r0).count();
    if (!legal.ok()) ++illegal;
    moves += uint64_t(result.moves_played);
  }
  double total = std::chrono::duration<double>(Clock::now() - t0).count();
  double read_s = total - replay_s;
  const char* stage = what == "patterns" ? "replay+keys" : "replay";
  if (json) {
    nlohmann::json j = {{"bench", what},          {"games", games},
                        {"moves", moves},         {"errors", errors},
                        {"illegal", illegal},     {"seconds", total},
                        {"read_parse_seconds", read_s}, {"replay_seconds", replay_s},
                        {"games_per_s", double(games) / total}, {"moves_per_s", double(moves) / total}};
    if (what == "patterns") j["levels"] = levels;
    std::cout << json_text(j, 2) << "\n";
  } else {
    std::cout << "bench " << what << " (1 thread): " << with_commas(games) << " games, " << with_commas(moves)
              << " moves, " << errors << " unreadable, " << illegal << " illegal\n"
              << "  total        " << total << " s  " << with_commas(uint64_t(double(games) / total)) << " games/s  "
              << with_commas(uint64_t(double(moves) / total)) << " moves/s\n"
              << "  read+parse   " << read_s << " s  " << with_commas(uint64_t(double(games) / read_s))
              << " games/s\n"
              << "  " << stage << std::string(13 - std::string(stage).size(), ' ') << replay_s << " s  "
              << with_commas(uint64_t(double(games) / replay_s)) << " games/s\n";
  }
  return kOk;
}
}  // namespace

Runner register_bench(CLI::App& app) {
  struct Args {
    std::string what;
    std::vector<std::string> inputs;
    int levels = 10;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("bench", "Measure throughput on a corpus, single-threaded");
  cmd->add_option("what", a->what,
                  "replay: read, parse and replay every game; patterns: the same plus incremental pattern keys")
      ->required()
      ->check(CLI::IsMember({"replay", "patterns"}));
  cmd->add_option("inputs", a->inputs, "SGF inputs (files, directories, archives)")->required();
  cmd->add_option("--levels,-L", a->levels, "Levels for `patterns`")->capture_default_str()->check(in_range(1, kMaxLevels));
  cmd->add_flag("--json", a->json, "Print the figures as JSON");
  return [a]() { return run_bench(a->what, a->inputs, a->levels, a->json); };
}

}  // namespace sgfpat::cli

// sgfpat catch-up: count the pending patterns over every stored game and
// make them reported (docs/nightly.md).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "count/catchup.h"
#include "count_flags.h"
#include "flag_checks.h"
#include "ingest/ingest_policy.h"
#include "json_text.h"
#include "progress.h"

namespace sgfpat::cli {

namespace {
struct CatchupArgs {
  std::string db;
  bool json = false;
  bool quiet = false;
  int threads = 2;
  int memory_mb = 2048;
};

int run_catch_up(const CatchupArgs& a) {
  bool smallest_parts = false;
  if (!smallest_parts_from_env("catch-up", &smallest_parts)) return kUsage;
  OpenOptions open;
  const MemorySplit memory = split_memory(size_t(a.memory_mb) << 20);
  give_db_memory(memory, &open);
  open.write_threads = a.threads;
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::Open(a.db, open, &db);
  if (!st.ok()) return fail("sgfpat catch-up: ", st);
  CountOptions co;
  co.threads = a.threads;
  co.memory_budget = memory.count_bytes;
  co.night_in_smallest_parts = smallest_parts;
  if (!a.quiet && !a.json)
    co.progress = [](const CountProgress& p) {
      if (p.games_total && p.games_done % 20000 != 0 && p.games_done != p.games_total) return;
      std::cerr << "catch-up: " << count_step_name(p.step);
      if (p.games_total) std::cerr << " " << p.games_done << "/" << p.games_total;
      std::cerr << "\n";
    };
  CatchupResult r;
  st = catch_up(*db, co, &r);
  if (!st.ok()) return fail("sgfpat catch-up: ", st);
  st = db->flush_to_tables();
  if (!st.ok()) return fail("sgfpat catch-up: ", st);
  if (a.json) {
    nlohmann::json j;
    j["db"] = a.db;
    j["patterns"] = r.patterns;
    j["games_replayed"] = r.games;
    j["games_resumed"] = r.resumed_games;
    j["parts"] = r.parts;
    j["seconds"] = r.seconds;
    std::cout << json_text(j, 2) << "\n";
  } else if (r.patterns == 0) {
    std::cout << "no pattern is pending in " << a.db << ": nothing to do\n";
  } else {
    std::cout << "caught up " << a.db << ": " << r.patterns << " pending patterns counted over " << r.games
              << " games and reported, " << r.seconds << " s";
    if (r.parts > 1) std::cout << " (in " << r.parts << " parts, a replay each)";
    if (r.resumed_games > 0) std::cout << " (going on after " << r.resumed_games << " games counted by a killed run)";
    std::cout << "\n";
  }
  return kOk;
}
}  // namespace

Runner register_catch_up(CLI::App& app) {
  auto a = std::make_shared<CatchupArgs>();
  auto* cmd = app.add_subcommand(
      "catch-up",
      "Count the pending patterns over every stored game and report them.\n"
      "A night (an ingest into a counted database) adds its games' counts to the reported patterns; a pattern\n"
      "its games bring to --min-played plays is pending until a catch-up: its played and wins are known,\n"
      "its seen count needs every stored game. `sgfpat stats` says how many are pending and since when.\n"
      "After a catch-up the exports equal those of a count from scratch, byte for byte. A killed catch-up\n"
      "changes nothing but its record of the games counted: run it again, it goes on from there.\n"
      "Exit codes: 0 done (or nothing pending), 1 failure, 2 usage (games not counted yet: ingest first),\n"
      "5 damaged database, 6 no space, 7 in use by another writer.");
  cmd->add_option("--db", a->db, "Pattern database directory")->required();
  cmd->add_flag("--json", a->json, "Print the result as JSON");
  cmd->add_flag("--quiet,-q", a->quiet, "No progress lines");
  cmd->add_option("--threads,-j", a->threads, "Counting threads")->capture_default_str()->check(in_range(1, 256));
  cmd->add_option("--memory-mb", a->memory_mb, "Memory budget, MiB")->capture_default_str()->check(in_range(16, 1 << 20));
  return [a]() { return run_catch_up(*a); };
}

}  // namespace sgfpat::cli

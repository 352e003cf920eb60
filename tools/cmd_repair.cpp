// sgfpat repair: make a damaged database work again and say what was lost.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "flag_checks.h"
#include "json_text.h"
#include "repair/repair.h"

namespace sgfpat::cli {

namespace {
struct RepairArgs {
  std::string db;
  std::string backup;
  bool no_backup = false;
  bool json = false;
  bool quiet = false;
  int threads = 2;
  int memory_mb = 1024;
};

uint64_t sum(const std::vector<uint64_t>& v) {
  uint64_t n = 0;
  for (uint64_t x : v) n += x;
  return n;
}

int run_repair(const RepairArgs& a) {
  RepairOptions o;
  o.backup = !a.no_backup;
  o.backup_dir = a.backup;
  o.threads = a.threads;
  o.memory_budget = size_t(a.memory_mb) << 20;
  if (!a.quiet && !a.json) o.progress = [](const std::string& step) { std::cerr << "sgfpat repair: " << step << "\n"; };
  RepairReport r;
  Status st = repair_database(a.db, o, &r);
  if (!st.ok()) {
    if (!r.backup_dir.empty())
      std::cerr << "sgfpat repair: the database as it was before this run is kept in " << r.backup_dir << "\n";
    return fail("sgfpat repair: ", st);
  }
  const int code = r.games_lost() > 0 || !r.damaged_games.empty() ? kRepairedWithLoss : kOk;
  if (a.json) {
    nlohmann::json j;
    j["db"] = a.db;
    j["was_sound"] = r.was_sound;
    j["found"] = r.found;
    j["backup"] = r.backup_dir;
    j["set_aside"] = r.set_aside;
    j["games_recorded"] = r.games_recorded;
    j["games_counted_before"] = r.games_counted_before;
    j["games_found"] = r.games_found;
    j["games_damaged"] = r.damaged_games;
    j["games_taken_back"] = r.games_taken_back;
    j["salvage_damage"] = r.salvage_damage;
    j["games_kept"] = r.games_kept;
    j["games_lost"] = r.games_lost();
    j["moves_kept"] = r.moves_kept;
    j["generation_before"] = r.generation_before;
    j["generation_after"] = r.generation_after;
    j["patterns_before"] = r.patterns_before;
    j["patterns_after"] = r.patterns_after;
    j["exit_code"] = code;
    std::cout << json_text(j, 2) << "\n";
    return code;
  }
  if (r.was_sound) {
    std::cout << "database " << a.db << " is sound: " << r.games_kept << " games, "
              << sum(r.patterns_after) << " reported patterns; nothing was changed\n";
    return code;
  }
  std::cout << "repaired " << a.db << "\n"
            << "  found           " << r.found << "\n"
            << "  backup          " << (r.backup_dir.empty() ? "none (--no-backup)" : r.backup_dir) << "\n";
  for (const auto& f : r.set_aside) std::cout << "  set aside       " << a.db << "/" << f << " (unreadable)\n";
  std::cout << "  games recorded  " << r.games_recorded << " (last count covered " << r.games_counted_before << ")\n"
            << "  games found     " << r.games_found;
  if (r.games_taken_back)
    std::cout << " (" << r.games_taken_back << " of them taken back from the logs and set-aside table files)";
  std::cout << "\n";
  for (const auto& d : r.salvage_damage) std::cout << "  damaged         " << d << " (skipped)\n";
  for (const auto& g : r.damaged_games) std::cout << "  removed         " << g << "\n";
  std::cout << "  games kept      " << r.games_kept << " (" << r.moves_kept << " moves)\n"
            << "  games lost      " << r.games_lost() << (r.games_lost() ? " (at least)" : "") << "\n"
            << "  patterns        " << sum(r.patterns_before) << " reported before, " << sum(r.patterns_after)
            << " after the recount of the games kept\n";
  if (code != kOk)
    std::cerr << "sgfpat repair: stored games were lost: ingest their inputs again to take them back in\n";
  return code;
}
}  // namespace

Runner register_repair(CLI::App& app) {
  auto a = std::make_shared<RepairArgs>();
  auto* cmd = app.add_subcommand(
      "repair",
      "Check a pattern database and repair it if it is damaged.\n"
      "A sound database is left untouched (exit 0). A damaged one (lost or damaged files, MANIFEST or CURRENT)\n"
      "is first copied whole to --backup (default DB.before-repair; refused with exit 6 and nothing changed when\n"
      "the copy does not fit), then RocksDB's repair rebuilds it from the files it can read (unreadable ones are\n"
      "moved to DB/lost/), stored games that do not decode or replay are removed, the position index is rebuilt\n"
      "and every count is recounted from the games kept, so the counts are exact for them.\n"
      "Exit codes: 0 sound or repaired with no game lost, 8 repaired but stored games were lost (listed),\n"
      "1 failure, 2 usage, 5 what is left cannot be made a database, 6 no space, 7 in use by another writer.");
  cmd->add_option("--db", a->db, "Pattern database directory")->required();
  cmd->add_option("--backup", a->backup, "Copy the database here before changing it (a new directory)");
  cmd->add_flag("--no-backup", a->no_backup, "Do not copy the database first (unreadable files still go to DB/lost/)");
  cmd->add_flag("--json", a->json, "Print the report as JSON");
  cmd->add_flag("--quiet,-q", a->quiet, "No progress lines");
  cmd->add_option("--threads,-j", a->threads, "Counting threads")->capture_default_str();
  cmd->add_option("--memory-mb", a->memory_mb, "Memory for the recount, MiB")
      ->capture_default_str()
      ->check(in_range(16, 1 << 20));
  return [a]() { return run_repair(*a); };
}

}  // namespace sgfpat::cli

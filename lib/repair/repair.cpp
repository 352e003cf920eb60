#include "repair/repair.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

#include "count/recount.h"
#include "io/free_space.h"
#include "search/position_index.h"
#include "store/pattern_db.h"
#include "store/stored_replay.h"

namespace sgfpat {

namespace {
namespace fs = std::filesystem;

struct NoObserver : ReplayObserver {
  void start_game(const Game&) {}
};

std::string hex(const Fingerprint& fp) {
  static const char* const kDigits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : fp) s += kDigits[b >> 4], s += kDigits[b & 15];
  return s;
}

// Replays every stored game; `damaged` gets the records that fail.
Status walk_games(PatternDb& db, uint64_t* found, uint64_t* moves,
                  std::vector<std::pair<Fingerprint, std::string>>* damaged) {
  StoredGame g;
  NoObserver observer;
  *found = *moves = 0;
  return db.for_each_game([&](const Fingerprint& fp, std::string_view record) {
    ++*found;
    Status st = replay_stored(record, &g, &observer);
    if (st.ok())
      *moves += uint64_t(g.result.moves_played);
    else
      damaged->push_back({fp, st.message()});
    return true;
  });
}

std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.insert(it->path().filename().string());
  return names;
}

Status copy_database(const std::string& path, const std::string& to) {
  std::error_code ec;
  fs::copy(path, to, fs::copy_options::recursive, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove_all(to, ignored);
    const std::string what = "copying " + path + " to " + to + " before the repair failed: " + ec.message();
    return ec == std::errc::no_space_on_device ? Status::NoSpace(what) : Status::IOError(what);
  }
  return Status::OK();
}

std::string default_backup_dir(const std::string& path) {
  std::string base = fs::path(path).lexically_normal().string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  base += ".before-repair";
  std::error_code ec;
  std::string dir = base;
  for (int i = 2; fs::exists(dir, ec); ++i) dir = base + "-" + std::to_string(i);
  return dir;
}
}  // namespace

uint64_t RepairReport::games_lost() const {
  const uint64_t before = std::max(games_recorded, games_counted_before);
  return before > games_kept ? before - games_kept : 0;
}

Status check_database(const std::string& path, DbCheck* check) {
  *check = DbCheck{};
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(path, &db);
  if (!st.ok()) return st;
  check->games_recorded = db->game_count();
  check->games_counted = db->summary().games;
  check->generation = db->generation();
  check->patterns_per_level = db->summary().patterns_per_level;
  st = db->pending_count(&check->games_pending);
  if (!st.ok()) return st;
  std::vector<std::pair<Fingerprint, std::string>> damaged;
  st = walk_games(*db, &check->games_found, &check->moves_found, &damaged);
  if (!st.ok()) return st;
  check->games_damaged = damaged.size();
  auto problem = [&](std::string what) {
    if (check->problem.empty()) check->problem = std::move(what);
  };
  if (!damaged.empty())
    problem(std::to_string(damaged.size()) + " stored game record(s) are damaged, the first " +
            hex(damaged[0].first) + ": " + damaged[0].second);
  if (check->games_found != check->games_recorded)
    problem("the database records " + std::to_string(check->games_recorded) + " stored games but holds " +
            std::to_string(check->games_found));
  if (db->move_count() != check->moves_found && damaged.empty())
    problem("the database records " + std::to_string(db->move_count()) + " stored moves but its games hold " +
            std::to_string(check->moves_found));
  if (check->generation > 0 && check->games_counted + check->games_pending != check->games_found)
    problem("the counts cover " + std::to_string(check->games_counted) + " games and " +
            std::to_string(check->games_pending) + " wait to be counted, but " + std::to_string(check->games_found) +
            " are stored");
  // Every level's patterns against the summary (for_each_count's own check).
  st = db->for_each_count(0, [](int, uint64_t, const PatternCounts&) { return true; });
  if (st.is_corruption()) problem(st.message());
  else if (!st.ok()) return st;
  return Status::OK();
}

Status repair_database(const std::string& path, const RepairOptions& options, RepairReport* report) {
  *report = RepairReport{};
  auto step = [&](const std::string& what) {
    if (options.progress) options.progress(what);
  };
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return Status::NotFound("no database directory at " + path);
  step("checking " + path);
  DbCheck check;
  Status st = check_database(path, &check);
  if (st.ok() && check.problem.empty()) {
    report->was_sound = true;
    report->games_recorded = report->games_found = report->games_kept = check.games_found;
    report->games_counted_before = check.games_counted;
    report->moves_kept = check.moves_found;
    report->generation_before = report->generation_after = check.generation;
    report->patterns_before = report->patterns_after = check.patterns_per_level;
    return Status::OK();
  }
  // Only damage is repaired: another writer, a missing database, a foreign
  // one, or a failing disk are left as they are.
  if (!st.ok() && !st.is_corruption()) return st;
  report->found = st.ok() ? check.problem : st.message();
  if (PatternDb::InUse(path))
    return Status::Busy("database " + path + " is in use by another writer: stop it before repairing; nothing was changed");

  if (options.backup) {
    report->backup_dir = options.backup_dir.empty() ? default_backup_dir(path) : options.backup_dir;
    if (fs::exists(report->backup_dir, ec))
      return Status::InvalidArgument("the backup directory " + report->backup_dir +
                                     " exists already; name a new one with --backup DIR");
    st = check_free_space(report->backup_dir, directory_bytes(path) + (16 << 20), "a copy of " + path);
    if (!st.ok())
      return st.with_context("nothing was changed (name a folder on another disk with --backup DIR, or repair "
                             "without a copy with --no-backup)");
    step("copying " + path + " to " + report->backup_dir);
    st = copy_database(path, report->backup_dir);
    if (!st.ok()) return st;
  }

  step("repairing the files of " + path);
  const fs::path lost = fs::path(path) / "lost";
  const std::set<std::string> lost_before = files_in(lost);
  st = PatternDb::RepairFiles(path);
  if (!st.ok()) return st;
  // RocksDB also moves there the logs it turned into tables and the old
  // MANIFEST: only the table files are lost data.
  for (const auto& name : files_in(lost))
    if (!lost_before.count(name) && name.ends_with(".sst")) report->set_aside.push_back("lost/" + name);

  std::unique_ptr<PatternDb> db;
  OpenOptions oo;
  oo.skip_counts_check = true;
  oo.memory_bytes = options.memory_budget / 4;
  oo.position_run_bytes = options.memory_budget / 4;
  st = PatternDb::Open(path, oo, &db);
  if (!st.ok()) return st.with_context("the repaired files do not open as a pattern database");
  report->games_recorded = db->game_count();
  report->games_counted_before = db->summary().games;
  report->generation_before = db->generation();
  report->patterns_before = db->summary().patterns_per_level;

  step("replaying the stored games");
  std::vector<std::pair<Fingerprint, std::string>> damaged;
  st = walk_games(*db, &report->games_found, &report->moves_kept, &damaged);
  if (!st.ok()) return st.with_context("reading the stored games after the repair");
  std::vector<Fingerprint> remove;
  for (const auto& [fp, why] : damaged) {
    remove.push_back(fp);
    report->damaged_games.push_back(hex(fp) + ": " + why);
  }
  report->games_kept = report->games_found - damaged.size();
  st = db->set_game_totals(remove, report->games_kept, report->moves_kept);
  if (!st.ok()) return st;

  if (!db->position_index_off()) {  // a database made without one stays so
    step("rebuilding the position index");
    st = db->reset_position_index();
    if (st.ok()) st = build_position_index(db.get());
    if (!st.ok()) return st.with_context("rebuilding the position index");
  }

  step("recounting the patterns of " + std::to_string(report->games_kept) + " games");
  CountOptions co;
  co.threads = options.threads;
  co.memory_budget = options.memory_budget;
  CountSummary summary;
  st = recount(*db, co, &summary);
  if (!st.ok()) return st.with_context("recounting");
  report->generation_after = db->generation();
  report->patterns_after = summary.patterns_per_level;
  db.reset();

  // The repaired database as every reader sees it.
  step("checking the repaired database");
  st = check_database(path, &check);
  if (!st.ok()) return st.with_context("the repaired database does not pass its check");
  if (!check.problem.empty())
    return Status::Corruption("the repaired database does not pass its check: " + check.problem);
  return Status::OK();
}

}  // namespace sgfpat

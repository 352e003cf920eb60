#include "repair/repair.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <map>
#include <set>

#include "core/fail_point.h"
#include "count/recount.h"
#include "io/free_space.h"
#include "search/position_index.h"
#include "store/pattern_db.h"
#include "store/salvage.h"
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

// The files of `dir` whose names end with `ext`.
std::vector<std::string> paths_in(const fs::path& dir, std::string_view ext) {
  std::vector<std::string> paths;
  for (const auto& name : files_in(dir))
    if (name.ends_with(ext)) paths.push_back((dir / name).string());
  return paths;
}

// The meta values the logs held that a repair puts back where RocksDB's
// repair lost them: the key scheme (without it nothing else can be read)
// and a position index turned off by choice.
std::map<std::string, std::string> meta_to_restore(const Salvaged& s) {
  std::map<std::string, std::string> restore;
  for (const char* key : {"scheme", "position_index"}) {
    auto it = s.meta.find(key);
    if (it == s.meta.end() || !it->second) continue;
    if (std::string_view(key) == "position_index" && *it->second != "off") continue;
    restore[key] = *it->second;
  }
  return restore;
}

// A number the logs recorded under `key` (0 when none or unreadable).
uint64_t logged_number(const Salvaged& s, const char* key) {
  auto it = s.meta.find(key);
  if (it == s.meta.end() || !it->second) return 0;
  uint64_t n = 0;
  for (char c : *it->second) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + uint64_t(c - '0');
  }
  return n;
}

// The games the last count covered, as the logs recorded it.
uint64_t logged_counted_games(const Salvaged& s) {
  auto it = s.meta.find("summary");
  CountSummary summary;
  if (it == s.meta.end() || !it->second || !decode_summary(*it->second, &summary).ok()) return 0;
  return summary.games;
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
  // Every block of every table file (the position index's too, which no
  // other check reads).
  st = db->verify_tables();
  if (st.is_corruption()) problem(st.message());
  else if (!st.ok()) return st;
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

  // Every write the logs still hold, read before RocksDB's repair touches
  // them (it drops the logged writes of a family with no table file yet).
  // The logs of an earlier repair killed after RocksDB's step are in lost/:
  // read again, so that a repair run again after a kill loses nothing.
  const fs::path lost = fs::path(path) / "lost";
  step("reading the write-ahead logs of " + path);
  Salvaged salvaged;
  {
    std::vector<std::string> logs = paths_in(lost, ".log");
    for (auto& p : paths_in(path, ".log")) logs.push_back(std::move(p));
    st = salvage_logs(logs, &salvaged);
    if (!st.ok()) return st.with_context("reading the write-ahead logs");
  }
  fail_point("repair.logs_read");

  step("repairing the files of " + path);
  const std::set<std::string> lost_before = files_in(lost);
  st = PatternDb::RepairFiles(path, meta_to_restore(salvaged));
  if (!st.ok()) return st;
  fail_point("repair.files_repaired");
  // RocksDB also moves there the logs it turned into tables and the old
  // MANIFEST: only the table files are lost data.
  for (const auto& name : files_in(lost))
    if (!lost_before.count(name) && name.ends_with(".sst")) report->set_aside.push_back("lost/" + name);
  // The games of table files set aside (now or by an earlier repair), up
  // to their damaged blocks and past them.
  st = salvage_game_tables(paths_in(lost, ".sst"), &salvaged);
  if (!st.ok()) return st.with_context("reading the table files set aside");
  report->salvage_damage = salvaged.damage;

  std::unique_ptr<PatternDb> db;
  OpenOptions oo;
  oo.skip_counts_check = true;
  oo.memory_bytes = options.memory_budget / 4;
  oo.position_run_bytes = options.memory_budget / 4;
  st = PatternDb::Open(path, oo, &db);
  if (!st.ok()) return st.with_context("the repaired files do not open as a pattern database");
  // What was acknowledged: the newest total the files or the logs recorded.
  report->games_recorded = std::max(db->game_count(), logged_number(salvaged, "games"));
  report->games_counted_before = std::max(db->summary().games, logged_counted_games(salvaged));
  report->generation_before = db->generation();
  report->patterns_before = db->summary().patterns_per_level;

  // The games read from the logs and the set-aside tables that RocksDB's
  // repair did not keep go back in (the totals are set after the replay).
  {
    std::vector<std::pair<Fingerprint, std::string>> batch;
    auto put = [&]() {
      Status s = db->add_games(batch, 0);
      report->games_taken_back += batch.size();
      batch.clear();
      return s;
    };
    for (auto& [fp, record] : salvaged.games) {
      bool found = false;
      st = db->has_game(fp, &found);
      if (st.ok() && !found) {
        batch.emplace_back(fp, std::move(record));
        if (batch.size() >= 1024) st = put();
      }
      if (!st.ok()) return st.with_context("taking back the games the logs and set-aside tables hold");
    }
    if (!batch.empty()) st = put();
    if (!st.ok()) return st.with_context("taking back the games the logs and set-aside tables hold");
    if (report->games_taken_back > 0)
      step("took back " + std::to_string(report->games_taken_back) +
           " games that RocksDB's repair had dropped (from the logs and set-aside tables)");
    salvaged.games.clear();
  }
  fail_point("repair.games_taken_back");

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
  fail_point("repair.recounted");
  // Everything into table files, so that the logs are not the only copy.
  st = db->flush_to_tables();
  if (!st.ok()) return st.with_context("writing the repaired database into its table files");
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

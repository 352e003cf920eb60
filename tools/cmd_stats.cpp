// sgfpat stats: what a pattern database holds, and its most played
// patterns of one level with a diagram of each.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd_export.h"
#include "commands.h"
#include "core/format_version.h"
#include "count/parts_progress.h"
#include "count_summary_json.h"
#include "export/pattern_table.h"
#include "export/rates.h"
#include "export/representatives.h"
#include "export/text_format.h"
#include "export/top_patterns.h"
#include "flag_checks.h"
#include "json_text.h"
#include "pattern/pattern_string.h"
#include "progress.h"
#include "store/pattern_db.h"

namespace sgfpat::cli {

namespace {
struct StatsArgs {
  std::string db;
  int level = 3;
  int top = 10;
  int search_games = 2000;
  bool json = false;
};

// Diagrams side by side, labelled #1, #2, ...
std::string diagrams_text(const std::vector<std::string>& patterns, int level, int first_rank) {
  const size_t width = size_t(std::max(4 * level + 1, 6)) + 4;
  const size_t per_row = std::max<size_t>(1, 100 / width);
  std::string out;
  for (size_t start = 0; start < patterns.size(); start += per_row) {
    size_t end = std::min(patterns.size(), start + per_row);
    std::vector<std::vector<std::string>> cols;
    size_t height = 0;
    for (size_t i = start; i < end; ++i) {
      std::vector<std::string> lines(1, "#");
      lines[0] += std::to_string(first_rank + int(i));
      if (patterns[i].empty()) {
        lines.push_back("(diagram");
        lines.push_back(" unavailable)");
      } else {
        std::string d = pattern_diagram(patterns[i]);
        size_t pos = 0, nl;
        while ((nl = d.find('\n', pos)) != std::string::npos) lines.push_back(d.substr(pos, nl - pos)), pos = nl + 1;
      }
      height = std::max(height, lines.size());
      cols.push_back(std::move(lines));
    }
    for (size_t r = 0; r < height; ++r) {
      std::string line = "  ";
      for (size_t c = 0; c < cols.size(); ++c) {
        std::string cell = r < cols[c].size() ? cols[c][r] : "";
        if (c + 1 < cols.size()) cell.resize(std::max(cell.size(), width), ' ');
        line += cell;
      }
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
    out += "\n";
  }
  return out;
}

int run_stats(const StatsArgs& a) {
  const char* me = "sgfpat stats: ";
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(a.db, &db);
  if (!st.ok()) {
    return fail(me, st);
  }
  const DbSettings& settings = db->settings();
  const KeyScheme& scheme = settings.scheme;
  const uint64_t min_played = uint64_t(settings.min_played);
  if (a.level < 1 || a.level > scheme.levels) {
    std::cerr << me << "--level must be 1.." << scheme.levels << " (the levels this database counts)\n";
    return kUsage;
  }
  const CountSummary& summary = db->summary();
  const uint64_t games_counted = summary.games;
  const std::vector<uint64_t>& per_level = summary.patterns_per_level;
  const bool counted = db->generation() > 0;
  const bool stale = counted && games_counted != db->game_count();
  // A count in parts that was interrupted: the next ingest goes on from it.
  PartsProgress interrupted;
  bool has_interrupted = false;
  st = usable_parts_progress(*db, &interrupted, &has_interrupted);
  if (!st.ok()) return fail(me, st);

  // Patterns that wait for a catch-up (docs/nightly.md).
  PendingSummary pending;
  st = pending_summary(*db, &pending);
  if (!st.ok()) return fail(me, st);

  // ---- the N most played patterns of the level ----
  std::vector<TopPattern> top;
  uint64_t reported_at_level = 0;
  const size_t n = size_t(std::max(0, a.top));
  if (counted && n > 0) {
    st = most_played_patterns(*db, a.level, min_played, n, &top, &reported_at_level);
    if (!st.ok()) return fail(me, st);
  }

  // ---- a representative string for each: replay stored games ----
  std::vector<std::string> strings(top.size());
  RepresentativeSearch search;
  search.closed = false;
  search.max_games = uint64_t(std::max(0, a.search_games));
  if (!top.empty() && a.search_games > 0) {
    PatternTable table(scheme.levels);
    std::vector<TopPattern> by_key = top;
    std::sort(by_key.begin(), by_key.end(), [](const TopPattern& x, const TopPattern& y) { return x.key < y.key; });
    for (const TopPattern& e : by_key) table.add(a.level, e.key, e.counts);
    table.seal();
    st = find_representatives(*db, &table, &search);
    if (!st.ok()) {
      return fail(me, st);
    }
    for (size_t i = 0; i < top.size(); ++i) {
      int64_t k = table.find(a.level, top[i].key);
      if (k >= 0) strings[i] = table.string(a.level, size_t(k));
    }
  }
  const size_t unavailable = size_t(std::count(strings.begin(), strings.end(), std::string()));

  if (a.json) {
    nlohmann::ordered_json j;
    j["db"] = a.db;
    j["scheme"] = scheme.describe();
    j["seed"] = "0x" + key_hex(scheme.seed);
    j["levels"] = scheme.levels;
    j["symmetry"] = scheme.symmetry;
    j["min_played"] = min_played;
    j["format_version"] = kDatabaseFormat.current;
    j["games"] = db->game_count();
    j["moves"] = db->move_count();
    j["generation"] = db->generation();
    j["games_counted"] = games_counted;
    j["positions"] = summary.positions;
    j["candidates"] = summary.candidates;
    j["stale"] = stale;
    if (has_interrupted) {
      nlohmann::ordered_json ic;
      ic["parts"] = interrupted.summary.parts;
      ic["share_counted"] = interrupted.counted_share();
      ic["patterns_counted"] = interrupted.summary.kept_keys;
      ic["seconds"] = interrupted.summary.seconds_pass2;
      j["interrupted_count"] = ic;
    }
    j["patterns_per_level"] = per_level;
    add_pending_json(pending, &j);
    j["pending_per_level"] = pending.per_level;
    j["disk_bytes"] = db->disk_bytes();
    j["position_index"] = db->position_index_state();
    j["position_index_bytes"] = db->position_index_bytes();
    j["summary"] = counted ? count_summary_json<nlohmann::ordered_json>(summary) : nlohmann::ordered_json::object();
    nlohmann::ordered_json t;
    t["level"] = a.level;
    t["points"] = level_points(a.level);
    t["reported"] = reported_at_level;
    t["patterns"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < top.size(); ++i) {
      const PatternCounts& c = top[i].counts;
      Interval pr = wilson95(c.played, c.seen);
      nlohmann::ordered_json e;
      e["rank"] = i + 1;
      e["key"] = key_hex(top[i].key);
      e["played"] = c.played;
      e["seen"] = c.seen;
      e["wins"] = c.wins;
      e["play_rate"] = rate(c.played, c.seen);
      e["play_rate_ci95"] = {pr.low, pr.high};
      e["win_rate"] = rate(c.wins, c.played);
      e["pattern"] = strings[i].empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(strings[i]);
      t["patterns"].push_back(e);
    }
    t["search"] = {{"games_replayed", search.games_replayed},
                   {"seconds", search.seconds},
                   {"unavailable", unavailable},
                   {"key_mismatches", search.key_mismatches}};
    j["top"] = t;
    std::cout << json_text(j, 2) << "\n";
    return search.key_mismatches ? kFailure : kOk;
  }

  std::string o;
  o += "Database " + a.db + "\n";
  o += "  key scheme       " + scheme.describe() + "\n";
  o += "  min played       " + std::to_string(min_played) + " (patterns played fewer times are not reported)\n";
  o += "  format version   " + std::to_string(kDatabaseFormat.current) + "\n";
  o += "  games stored     " + with_commas(db->game_count()) + " (" + with_commas(db->move_count()) + " moves)\n";
  if (!counted) {
    o += "  counts           none yet (run `sgfpat ingest --db " + a.db + "`)\n";
  } else {
    o += "  counted          " + with_commas(games_counted) + " games, " + with_commas(summary.positions) +
         " positions, " + with_commas(summary.candidates) + " candidates (generation " +
         std::to_string(db->generation()) + ")\n";
    if (stale)
      o += "  note             " + with_commas(db->game_count() - std::min(db->game_count(), games_counted)) +
           " games stored since the last count (an ingest is running or was interrupted)\n";
    o += "  patterns reported per level (played >= " + std::to_string(min_played) + "):";
    uint64_t total = 0;
    for (size_t i = 0; i < per_level.size(); ++i) {
      o += (i % 5 == 0 ? "\n    " : "  ") + format_text("L%-2zu %12s", i + 1, with_commas(per_level[i]).c_str());
      total += per_level[i];
    }
    o += "\n    total " + with_commas(total) + "\n";
    if (pending.patterns > 0) o += "  pending          " + pending_text(pending) + "\n";
  }
  if (has_interrupted)
    o += "  interrupted      a count in parts wrote " + std::to_string(interrupted.summary.parts) + " part(s), " +
         format_text("%.1f%%", 100 * interrupted.counted_share()) + " of the key space (" +
         with_commas(interrupted.summary.kept_keys) + " patterns, " +
         duration_text(interrupted.summary.seconds_pass2) + "): the next ingest goes on from there\n";
  o += "  size on disk     " + bytes_text(db->disk_bytes()) + "\n";
  o += "  position index   " + std::string(db->position_index_state());
  if (db->has_position_index()) o += ", " + bytes_text(db->position_index_bytes());
  o += "\n";
  if (counted && n > 0) {
    o += "\nTop " + std::to_string(top.size()) + " of " + with_commas(reported_at_level) + " level-" +
         std::to_string(a.level) + " patterns (" + std::to_string(level_points(a.level)) +
         " points) by times played:\n";
    o += format_text("  %3s  %-16s %12s %14s %9s  %-21s %9s\n", "#", "key", "played", "seen", "play rate",
                     "(95% Wilson)", "win rate");
    for (size_t i = 0; i < top.size(); ++i) {
      const PatternCounts& c = top[i].counts;
      const std::string ci_text = wilson95_text(c.played, c.seen);
      o += format_text("  %3zu  %-16s %12s %14s %9s  %-21s %9s\n", i + 1, key_hex(top[i].key).c_str(),
                       with_commas(c.played).c_str(), with_commas(c.seen).c_str(),
                       percent_text(rate(c.played, c.seen)).c_str(), ci_text.c_str(),
                       percent_text(rate(c.wins, c.played)).c_str());
    }
    if (a.search_games > 0) {
      o += std::string("\n") + (scheme.symmetry ? "Canonical diagrams" : "Diagrams (as seen)") +
           " (X = player to move, O = opponent, # = off board, * = the point):\n\n";
      o += diagrams_text(strings, a.level, 1);
      o += "(found in " + with_commas(search.games_replayed) + " replayed games, " +
           format_text("%.2f s", search.seconds) + ")";
      if (unavailable)
        o += "; " + std::to_string(unavailable) + " diagram(s) unavailable: not met in the first " +
             with_commas(search.max_games) + " games (raise --search-games)";
      o += "\n";
    }
  }
  std::cout << o;
  if (search.key_mismatches) {
    std::cerr << me << "internal error: " << search.key_mismatches << " spelled pattern(s) disagree with their key\n";
    return kFailure;
  }
  return kOk;
}
}  // namespace

Runner register_stats(CLI::App& app) {
  auto a = std::make_shared<StatsArgs>();
  auto* cmd = app.add_subcommand("stats", "What a pattern database holds, and its most played patterns of a level");
  cmd->add_option("--db", a->db, "Pattern database directory")->required();
  cmd->add_option("--level,-l", a->level, "Zoom level of the top list")->capture_default_str();
  cmd->add_option("--top,-n", a->top, "How many of the most played patterns to list (0: none)")
      ->capture_default_str()
      ->check(in_range(0, 100000));
  cmd->add_option("--search-games", a->search_games,
                  "Replay at most this many stored games to draw the listed patterns (0: no diagrams)")
      ->capture_default_str()
      ->check(at_least(0));
  cmd->add_flag("--json", a->json, "Print one JSON object");
  return [a]() { return run_stats(*a); };
}

}  // namespace sgfpat::cli

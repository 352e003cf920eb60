// sgfpat ingest: store new games and recount the pattern database.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "commands.h"
#include "core/fail_point.h"
#include "count_flags.h"
#include "count_summary_json.h"
#include "cmd_export.h"
#include "count/catchup.h"
#include "count/night.h"
#include "count/recount.h"
#include "flag_checks.h"
#include "ingest/import_inputs.h"
#include "ingest/importer.h"
#include "ingest/ingest_policy.h"
#include "ingest/sketch_during_import.h"
#include "json_text.h"
#include "process_stats.h"
#include "progress.h"
#include "search/position_index.h"

namespace sgfpat::cli {

namespace {
struct IngestArgs {
  std::string db;
  std::vector<std::string> inputs;
  int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  CountFlags count;
  int memory_mb = 2048;
  bool json = false;
  bool quiet = false;
  bool recount = false;
  bool progress_lines = false;
  bool no_position_index = false;
  bool position_index = false;
  bool catch_up = false;
  int max_errors_shown = 20;
};

using Clock = std::chrono::steady_clock;

// Whether pass 1 is made during the import (SketchDuringImport::start()):
// "auto" (when the inputs are large), or "always" / "never" from
// $SGFPAT_SKETCH_DURING_IMPORT, which tests set to compare the two (the
// counts are the same either way: nothing a user chooses).
constexpr const char* kSketchDuringImportEnv = "SGFPAT_SKETCH_DURING_IMPORT";

int run_ingest(const IngestArgs& a, const CLI::App& cmd) {
  auto t_start = Clock::now();
  const char* when_env = std::getenv(kSketchDuringImportEnv);
  const std::string sketch_during_import = when_env && *when_env ? when_env : "auto";
  if (sketch_during_import != "auto" && sketch_during_import != "always" && sketch_during_import != "never") {
    std::cerr << "sgfpat ingest: $" << kSketchDuringImportEnv << " is '" << sketch_during_import
              << "': want auto, always or never\n";
    return kUsage;
  }
  bool smallest_parts = false;
  if (!smallest_parts_from_env("ingest", &smallest_parts)) return kUsage;
  // The key scheme is fixed when the database is created; flags given on a
  // later run must agree with it.
  OpenOptions open;
  open.create_if_missing = true;
  open.settings = a.count.settings();
  open.check_settings = CountFlags::scheme_given(cmd);
  const MemorySplit memory = split_memory(size_t(a.memory_mb) << 20);
  give_db_memory(memory, &open);
  open.write_threads = a.threads;
  if (memory.tight)
    std::cerr << "sgfpat ingest: warning: --memory-mb " << a.memory_mb << " is below "
              << (kIngestRecommendedBytes >> 20) << " MB: counting gets " << (memory.count_bytes >> 20)
              << " MiB, and the rest of the run may need more than the budget leaves it\n";
  GameFilter filter;
  Status st = a.count.filter(&filter);
  if (!st.ok()) return fail("sgfpat ingest: ", st);
  std::unique_ptr<PatternDb> db;
  st = PatternDb::Open(a.db, open, &db);
  if (!st.ok()) {
    return fail("sgfpat ingest: ", st);
  }

  ProgressLine progress(a.progress_lines ? ProgressLine::Mode::kLines : ProgressLine::Mode::kTerminalOnly);
  // ---- position index (databases made before it existed, a build cut short,
  // or turned back on) ----
  if (a.no_position_index && !db->position_index_off()) {
    st = db->turn_position_index_off();
    if (!st.ok()) return fail("sgfpat ingest: ", st);
    if (!a.quiet) std::cerr << "sgfpat ingest: no position index kept (`--position-index` builds it again)\n";
  }
  if (!db->has_position_index() && (!db->position_index_off() || a.position_index)) {
    auto t_index = Clock::now();
    st = build_position_index(db.get(), [&](uint64_t done, uint64_t total) {
      progress.update("position index: " + with_commas(done) + " / " + with_commas(total) + " games");
    });
    progress.finish();
    if (!st.ok()) {
      return fail("sgfpat ingest: building the position index: ", st);
    }
    if (!a.quiet)
      std::cerr << "sgfpat ingest: position index of " << with_commas(db->game_count()) << " stored games built in "
                << duration_text(std::chrono::duration<double>(Clock::now() - t_index).count()) << "\n";
  }

  // ---- import ----
  Importer importer(db.get(), filter, a.count.min_rank);
  uint64_t shown_errors = 0, input_errors = 0;
  auto report = [&](const std::string& msg) {
    if (a.quiet) return;
    if (shown_errors++ < uint64_t(a.max_errors_shown)) {
      progress.finish();
      std::cerr << "sgfpat ingest: " << msg << "\n";
    }
  };
  auto t_import = Clock::now();
  InputCallbacks callbacks;
  callbacks.report = report;
  if (progress.enabled())
    callbacks.progress = [&](const ImportStats& is, const ReadProgress& rp) {
      double el = std::chrono::duration<double>(Clock::now() - t_import).count();
      std::string line = "import: " + with_commas(is.games_read) + " games, ";
      if (el >= 1.0) line += with_commas(uint64_t(double(is.games_read) / el)) + " games/s, ";
      line += with_commas(is.rejected) + " rejected";
      if (rp.bytes_total > 0 && rp.bytes_done > 0 && el >= 1.0)
        line += ", ETA " + duration_text(el * double(rp.bytes_total - std::min(rp.bytes_total, rp.bytes_done)) /
                                         double(rp.bytes_done));
      progress.update(line);
    };
  // A new database's count can make its pass 1 while the games are stored.
  std::unique_ptr<SketchDuringImport> during_import;
  if (sketch_during_import != "never")
    during_import =
        SketchDuringImport::start(db.get(), &importer, a.inputs, memory, a.threads, sketch_during_import == "always");
  st = import_inputs(a.inputs, &importer, callbacks, &input_errors);
  if (!st.ok()) {
    progress.finish();
    return fail("sgfpat ingest: ", st);
  }
  double import_seconds = std::chrono::duration<double>(Clock::now() - t_import).count();
  SketchedGames sketched(db->settings().scheme.levels);
  if (during_import) {
    progress.update("count: sketch of played patterns: the last games", true);
    st = during_import->finish(&sketched);
    during_import.reset();
    if (!st.ok()) {
      progress.finish();
      std::cerr << "sgfpat ingest: warning: the sketch made during the import failed (" << st.to_string()
                << "): made after it instead\n";
    }
  }
  const ImportStats& is = importer.stats();
  if (shown_errors > uint64_t(a.max_errors_shown) && !a.quiet)
    std::cerr << "sgfpat ingest: ... " << (shown_errors - uint64_t(a.max_errors_shown))
              << " more problems not shown\n";

  // ---- count (only when the stored games changed since the last count) ----
  bool counted = false;
  CountSummary cs;
  CountState state;
  state.recount_requested = a.recount;
  state.generation = db->generation();
  state.counted_games = db->summary().games;
  state.stored_games = db->game_count();
  st = db->pending_count(&state.pending_games);
  if (!st.ok()) return fail("sgfpat ingest: ", st);
  std::string plan_reason, full_reason;
  const CountPlan plan = plan_count(state, &plan_reason);
  CountOptions co;
  {
    co.threads = a.threads;
    co.memory_budget = memory.count_bytes;
    co.night_in_smallest_parts = smallest_parts;
    if (sketched.pass.games > 0) co.sketched = &sketched;
    CountStep step{};  // none yet
    int part = 0;
    uint64_t done_at_step = 0;  // the games done at a step's first report, when its clock starts
    auto t_step = Clock::now();
    co.progress = [&](const CountProgress& p) {
      const bool new_step = p.step != step || p.part != part;
      if (new_step) step = p.step, part = p.part, t_step = Clock::now(), done_at_step = p.games_done;
      double el = std::chrono::duration<double>(Clock::now() - t_step).count();
      // One listing serves every part still to count.
      const std::string of_part = !p.part                          ? std::string()
                                  : p.step != CountStep::kListing  ? " of part " + std::to_string(p.part)
                                  : p.part > 1                     ? " from part " + std::to_string(p.part) + " on"
                                                                   : std::string();
      std::string line = std::string("count: ") + count_step_name(p.step) + of_part;
      // Writing has no games; the crossing says its games once it replays some.
      if (p.step != CountStep::kCommit && (p.step != CountStep::kCrossing || p.games_total > 0))
        line += ": " + with_commas(p.games_done) + " / " + with_commas(p.games_total) + " games";
      // A rate over less than a second (the step's first report) says nothing.
      const uint64_t timed = p.games_done - std::min(p.games_done, done_at_step);
      if (timed > 0 && el >= 1.0) {
        line += ", " + with_commas(uint64_t(double(timed) / el)) + " games/s";
        if (p.games_total > p.games_done)
          line += ", ETA " + duration_text(el * double(p.games_total - p.games_done) / double(timed));
      }
      progress.update(line, new_step);
    };
  }
  if (plan != CountPlan::kUpToDate) {
    st = plan == CountPlan::kFull ? recount(*db, co, &cs) : count_night(*db, co, &cs, &full_reason);
    progress.finish();
    if (!st.ok()) {
      return fail("sgfpat ingest: counting failed: ", st);
    }
    counted = true;
  }
  // The patterns the night left pending, counted over every game when asked.
  CatchupResult caught;
  if (a.catch_up) {
    co.sketched = nullptr;
    st = catch_up(*db, co, &caught);
    progress.finish();
    if (!st.ok()) return fail("sgfpat ingest: catching up failed: ", st);
  }
  progress.finish();
  // The night's games, totals and counts into table files: the write-ahead
  // log is then not their only copy, and a log lost or damaged afterwards
  // loses nothing.
  fail_point("ingest.before_flush");
  const auto t_flush = Clock::now();
  st = db->flush_to_tables();
  if (!st.ok()) return fail("sgfpat ingest: ", st);
  const double flush_seconds = std::chrono::duration<double>(Clock::now() - t_flush).count();
  double elapsed = std::chrono::duration<double>(Clock::now() - t_start).count();
  const bool no_game = !a.inputs.empty() && is.games_read == 0;

  nlohmann::json j;
  j["db"] = a.db;
  j["games_read"] = is.games_read;
  j["ingested"] = is.ingested;
  j["duplicates"] = is.duplicates;
  j["filtered"] = is.filtered;
  j["filtered_by_reason"] = is.filtered_by_reason;
  j["rejected"] = is.rejected;
  j["rejected_by_reason"] = is.rejected_by_reason;
  j["input_errors"] = input_errors;
  j["exit_code"] = input_errors > 0 || no_game ? int(kBadInput) : int(kOk);
  j["games_in_db"] = db->game_count();
  j["recounted"] = counted;
  j["count_plan"] = plan == CountPlan::kFull ? "full" : plan == CountPlan::kIncremental ? "incremental" : "none";
  j["count_reason"] = plan_reason;
  if (!full_reason.empty()) j["counted_in_full_because"] = full_reason;
  j["import_seconds"] = import_seconds;
  j["sketched_during_import"] = sketched.used;
  j["elapsed_seconds"] = elapsed;
  j["flush_seconds"] = flush_seconds;
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["storage_bytes_written"] = storage_bytes_written();
  j["import_games_per_s"] = import_seconds > 0 ? double(is.games_read) / import_seconds : 0.0;
  if (counted) {
    j["count"] = count_summary_json(cs);
    j["count_games_per_s"] = double(cs.games) / std::max(1e-9, cs.seconds_pass1 + cs.seconds_pass2 + cs.seconds_commit);
  }
  if (a.catch_up)
    j["catch_up"] = {
        {"patterns", caught.patterns}, {"games", caught.games}, {"parts", caught.parts}, {"seconds", caught.seconds}};
  PendingSummary pending;
  st = pending_summary(*db, &pending);
  if (!st.ok()) return fail("sgfpat ingest: ", st);
  add_pending_json(pending, &j);
  j["scheme"] = db->settings().scheme.describe();
  j["min_played"] = db->settings().min_played;
  j["disk_bytes"] = db->disk_bytes();
  j["position_index"] = db->position_index_state();
  if (a.json) {
    std::cout << json_text(j, 2) << "\n";
  } else {
    std::cout << "Ingest into " << a.db << " (" << db->settings().scheme.describe()
              << " min_played=" << db->settings().min_played << ")\n"
              << "  games read      " << with_commas(is.games_read) << "\n"
              << "  ingested        " << with_commas(is.ingested) << " (" << with_commas(is.moves_ingested)
              << " moves)\n"
              << "  duplicates      " << with_commas(is.duplicates) << "\n";
    if (is.filtered) {
      std::cout << "  filtered        " << with_commas(is.filtered) << "\n";
      for (auto& [r, n] : is.filtered_by_reason) std::cout << "    " << r << ": " << with_commas(n) << "\n";
    }
    std::cout << "  rejected        " << with_commas(is.rejected) << "\n";
    for (auto& [r, n] : is.rejected_by_reason) std::cout << "    " << r << ": " << with_commas(n) << "\n";
    if (input_errors) std::cout << "  input errors    " << with_commas(input_errors) << "\n";
    std::cout << "  games in db     " << with_commas(db->game_count()) << "\n";
    if (counted && cs.mode == CountMode::kNight) {
      std::cout << "  counted         " << with_commas(cs.new_games) << " new games into " << with_commas(cs.games)
                << " (a night: their counts added to the reported patterns)\n"
                << "                  " << with_commas(cs.positions) << " positions, " << with_commas(cs.candidates)
                << " candidates in all\n"
                << "  joined          " << with_commas(cs.joined_patterns) << " patterns reached --min-played ("
                << with_commas(cs.replayed_games) << " games replayed to decide their levels above)\n"
                << "  count time      kept set and frontier index " << duration_text(cs.seconds_listing)
                << ", the night's games " << duration_text(cs.seconds_pass2) << ", joining "
                << duration_text(cs.seconds_crossing) << ", commit " << duration_text(cs.seconds_commit) << "\n";
    } else if (counted) {
      std::cout << "  recounted       " << with_commas(cs.games) << " games (" << plan_reason
                << (full_reason.empty() ? "" : "; " + full_reason) << ")\n";
      std::cout << "                  " << with_commas(cs.positions) << " positions, " << with_commas(cs.candidates)
                << " candidates in all\n"
                << "  patterns kept per level (played >= " << db->settings().min_played << "):";
      for (size_t i = 0; i < cs.patterns_per_level.size(); ++i)
        std::cout << (i % 5 == 0 ? "\n    " : "  ") << "L" << (i + 1) << " " << with_commas(cs.patterns_per_level[i]);
      std::cout << "\n  count time      sketch and kept set " << duration_text(cs.seconds_pass1)
                << (sketched.used ? " (after the import, which made most of it)" : "")
                << ", exact counts " << duration_text(cs.seconds_pass2) << " ("
                << count_mode_name(cs.mode)
                << (cs.parts ? ": " + std::to_string(cs.parts) + " parts" +
                                   (cs.part_relists ? " (" + std::to_string(cs.part_relists) + " listed again smaller)"
                                                    : std::string()) +
                                   (cs.resumed_parts ? ", " + std::to_string(cs.resumed_parts) +
                                                           " of them written by an interrupted run"
                                                     : std::string()) +
                                   ", listing " + duration_text(cs.seconds_listing)
                             : std::string())
                << "), commit " << duration_text(cs.seconds_commit) << "\n";
    } else {
      std::cout << "  counts          up to date (no new games)\n";
    }
    if (a.catch_up)
      std::cout << "  caught up       " << with_commas(caught.patterns) << " pending patterns over "
                << with_commas(caught.games) << " games, " << duration_text(caught.seconds) << "\n";
    if (pending.patterns > 0) std::cout << "  pending         " << pending_text(pending) << "\n";
    std::cout << "  database size   " << bytes_text(db->disk_bytes()) << "\n"
              << "  elapsed         " << duration_text(elapsed) << " ("
              << with_commas(uint64_t(double(is.games_read) / std::max(elapsed, 1e-9))) << " games/s)\n";
  }
  // Everything readable was taken in; a nightly job must still notice an
  // input that was missing, unreadable or damaged, or a run that found no game.
  if (input_errors > 0 || no_game) {
    std::cerr << "sgfpat ingest: " << (no_game ? "no game found in the inputs" : "")
              << (no_game && input_errors ? "; " : "")
              << (input_errors ? with_commas(input_errors) + " input problem(s) (see above)" : "")
              << ": exit code " << int(kBadInput) << "\n";
    return kBadInput;
  }
  return kOk;
}
}  // namespace

Runner register_ingest(CLI::App& app) {
  auto a = std::make_shared<IngestArgs>();
  auto* cmd = app.add_subcommand("ingest",
                                 "Store new games in a pattern database and recount its patterns.\n"
                                 "Running it again with the same files adds nothing; with new files adds them.");
  cmd->add_option("--db", a->db, "Database directory (created if missing)")->required();
  cmd->add_option("inputs", a->inputs,
                  "SGF inputs: files, directories, .gz/.bz2/.xz/.zst files, .tar(.gz|.bz2|.xz)/.zip archives, - for stdin");
  cmd->add_option("--threads,-j", a->threads, "Counting threads")->capture_default_str();
  a->count.add_to(cmd, " (fixed when the database is created)");
  cmd->add_option("--memory-mb", a->memory_mb,
                  "Peak memory of the whole run, MiB (counting gets what the database and buffers leave; patterns "
                  "to count that do not fit are counted in parts, each over its own replay of the games, and a run "
                  "killed after a part goes on from the next one when run again)")
      ->capture_default_str()
      ->check(in_range(4, 1 << 20));
  cmd->add_flag("--json", a->json, "Print the summary as JSON");
  cmd->add_flag("--quiet,-q", a->quiet, "Do not print rejected records");
  cmd->add_flag("--catch-up", a->catch_up,
                 "After counting, count the patterns that wait for a catch-up too (`sgfpat catch-up`): the exports "
                 "then equal a count from scratch");
  cmd->add_flag("--recount", a->recount,
                "Recount the stored games even if they did not change (inputs are optional then)");
  cmd->add_flag("--progress", a->progress_lines,
                "Print progress as lines on stderr even when it is not a terminal (for logs): at each step, then "
                "every 5 s");
  auto* off = cmd->add_flag("--no-position-index", a->no_position_index,
                            "Keep no position index (for `similar --exact`; ~31 bytes a stored position): drops one "
                            "there is, and later ingests keep none");
  cmd->add_flag("--position-index", a->position_index,
                "Build the position index of a database made with --no-position-index (the default keeps one)")
      ->excludes(off);
  cmd->add_option("--max-errors-shown", a->max_errors_shown, "Print at most this many problems")->capture_default_str();
  return [a, cmd]() { return run_ingest(*a, *cmd); };
}

}  // namespace sgfpat::cli

// sgfpat export --format tsv: every reported pattern with its counts and
// its canonical string.  The database keeps keys only, so the strings come
// from one replay of the stored games: every reported pattern was played
// (played >= min_played >= 1), so walking the levels of each played move,
// up to the first level whose key is not reported, meets them all.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd_export.h"
#include "commands.h"
#include "export/representatives.h"
#include "export/text_format.h"
#include "export/tsv_writer.h"
#include "io/atomic_file.h"
#include "json_text.h"
#include "progress.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

int export_tsv(PatternDb& db, const std::string& out_path, bool json, const PendingSummary& pending) {
  const char* me = "sgfpat export: ";
  auto t0 = Clock::now();
  const KeyScheme& scheme = db.settings().scheme;
  const uint64_t min_played = uint64_t(db.settings().min_played);
  const int levels = scheme.levels;

  // No count yet (a first count killed, or none made): an answer would be
  // a header alone, read as "no pattern" (the priors export refuses too).
  if (db.generation() == 0)
    return fail(me, Status::NotFound("database " + db.path() + " has no counts yet (run `sgfpat ingest --db " +
                                         db.path() + "` to count its " + std::to_string(db.game_count()) +
                                         " stored games); nothing was written"));

  // ---- the reported patterns, in (level, key) order ----
  PatternTable table(levels);
  Status st = db.for_each_count(0, [&](int level, uint64_t key, const PatternCounts& c) {
    if (level >= 1 && level <= levels && c.played >= min_played) table.add(level, key, c);
    return true;
  });
  if (!st.ok()) {
    return fail(me, st);
  }
  table.seal();

  // ---- their strings ----
  RepresentativeSearch search;
  search.closed = true;
  st = find_representatives(db, &table, &search);
  if (!st.ok()) {
    return fail(me, st);
  }
  if (search.key_mismatches) {
    std::cerr << me << "internal error: " << search.key_mismatches
              << " spelled pattern(s) disagree with the key they were found under\n";
    return kFailure;
  }
  if (table.missing()) {
    std::cerr << me << table.missing() << " reported pattern(s) were not met when replaying the "
              << with_commas(search.games_replayed) << " stored games (per level:";
    for (int l = 1; l <= levels; ++l)
      if (size_t m = table.missing(l)) std::cerr << " L" << l << " " << m;
    std::cerr << "); the counts do not match the stored games\n";
    return kFailure;
  }

  // ---- write (to a temporary file renamed at the end) ----
  const bool to_stdout = out_path == "-";
  AtomicFile file;
  if (!to_stdout) {
    st = file.open(out_path);
    if (!st.ok()) return fail(me, st);
  }
  std::vector<uint64_t> written;
  st = write_pattern_tsv(table, to_stdout ? stdout : file.stream(), &written);
  if (st.ok()) {
    if (to_stdout) {
      if (std::fflush(stdout) != 0) st = write_error_status(errno, "writing to stdout failed");
    } else {
      st = file.commit();
    }
  } else {
    st = st.with_context(to_stdout ? "stdout" : out_path);
  }
  if (!st.ok()) return fail(me, st);
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  uint64_t total = 0;
  for (uint64_t w : written) total += w;

  if (json) {
    nlohmann::ordered_json j;
    j["db"] = db.path();
    j["format"] = "tsv";
    j["output"] = out_path;
    j["scheme"] = scheme.describe();
    j["min_played"] = min_played;
    j["patterns"] = total;
    j["patterns_per_level"] = written;
    j["games_replayed"] = search.games_replayed;
    j["replay_seconds"] = search.seconds;
    j["seconds"] = seconds;
    add_pending_json(pending, &j);
    (to_stdout ? std::cerr : std::cout) << json_text(j) << "\n";
  } else {
    std::string levels_text;
    for (int l = 1; l <= levels; ++l)
      levels_text += " L" + std::to_string(l) + " " + with_commas(written[size_t(l - 1)]);
    std::cerr << "sgfpat export: " << with_commas(total) << " patterns to " << (to_stdout ? "stdout" : out_path) << " ("
              << levels_text.substr(1) << "), " << format_text("%.2f", seconds) << " s ("
              << with_commas(search.games_replayed) << " games replayed for the strings in "
              << format_text("%.2f", search.seconds) << " s)\n";
  }
  return kOk;
}

}  // namespace sgfpat::cli

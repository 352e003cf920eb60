// sgfpat export: write a database's counts in another form.
#include <ctime>
#include <iostream>

#include "cmd_export.h"
#include "commands.h"
#include "flag_checks.h"
#include "ingest/ingest_policy.h"

namespace sgfpat::cli {

namespace {
struct ExportArgs {
  std::string db;
  std::string format = "priors";
  std::string out;
  bool json = false;
  bool complete = false;
  bool no_wait = false;
  PriorsExportOptions priors;
};

int run_export(const ExportArgs& a) {
  std::unique_ptr<PatternDb> db;
  Status st;
  if (a.complete && a.no_wait) {
    // Complete only if nothing waits: a reader, never a catch-up.
    st = PatternDb::OpenReader(a.db, &db);
    if (!st.ok()) return fail("sgfpat export: ", st);
    PendingSummary waiting;
    st = pending_summary(*db, &waiting);
    if (st.ok() && waiting.patterns > 0)
      st = Status::InvalidArgument(pending_text(waiting) + "; --no-wait: not catching up (run `sgfpat catch-up --db " +
                                   a.db + "` when it suits)");
    if (!st.ok()) return fail("sgfpat export: ", st);
  } else if (a.complete) {
    // The catch-up first, as `sgfpat catch-up` makes it (a writer: refused
    // with exit 7 while an ingest runs).
    OpenOptions open;
    const MemorySplit memory = split_memory(size_t(2048) << 20);
    give_db_memory(memory, &open);
    st = PatternDb::Open(a.db, open, &db);
    if (!st.ok()) return fail("sgfpat export: ", st);
    CountOptions co;
    co.memory_budget = memory.count_bytes;
    CatchupResult r;
    st = catch_up(*db, co, &r);
    if (st.ok()) st = db->flush_to_tables();
    if (!st.ok()) return fail("sgfpat export: catching up: ", st);
    if (r.patterns > 0 && !a.json)
      std::cerr << "sgfpat export: caught up: " << r.patterns << " pending patterns counted over " << r.games
                << " games\n";
  } else {
    st = PatternDb::OpenReader(a.db, &db);
    if (!st.ok()) return fail("sgfpat export: ", st);
  }
  PendingSummary pending;
  st = pending_summary(*db, &pending);
  if (!st.ok()) return fail("sgfpat export: ", st);
  if (pending.patterns > 0 && !a.json) std::cerr << "sgfpat export: note: " << pending_text(pending) << "\n";
  if (a.format == "priors") return export_priors(*db, a.out, a.priors, a.json, pending);
  return export_tsv(*db, a.out, a.json, pending);
}
}  // namespace

Runner register_export(CLI::App& app) {
  auto a = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export", "Write the counts of a pattern database: move priors, or the spec's TSV");
  cmd->add_option("--db", a->db, "Pattern database directory")->required();
  cmd->add_option("--format,-f", a->format, "priors (binary priors file) or tsv (one line per reported pattern)")
      ->check(CLI::IsMember({"priors", "tsv"}))
      ->capture_default_str();
  cmd->add_option("--output,-o", a->out, "Output file (- for stdout)")->required();
  cmd->add_flag("--json", a->json, "Print the summary as JSON");
  cmd->add_flag("--complete", a->complete,
                "Count the pending patterns first (`sgfpat catch-up`), so that the export equals a count from "
                "scratch");
  cmd->add_flag("--no-wait", a->no_wait,
                "With --complete: do not catch up; refuse (exit 2) when patterns are pending")
      ->needs("--complete");
  cmd->add_option("--min-played", a->priors.min_played,
                  "priors: keep patterns played at least this often (never below the database's threshold)")
      ->check(at_least(0));
  cmd->add_option("--min-seen", a->priors.min_seen, "priors: keep patterns seen at least this often");
  cmd->add_option("--levels,-L", a->priors.levels, "priors: keep levels 1..L only (0: all)")
      ->check(in_range(0, kMaxLevels));
  return [a]() { return run_export(*a); };
}

}  // namespace sgfpat::cli

namespace sgfpat::cli {

namespace {
std::string iso_time(int64_t t) {
  std::time_t tt = std::time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}
template <class Json>
void add_pending(const PendingSummary& pending, Json* j) {
  (*j)["pending_patterns"] = pending.patterns;
  (*j)["pending_since"] = pending.patterns ? Json(iso_time(pending.since)) : Json(nullptr);
}
}  // namespace

void add_pending_json(const PendingSummary& pending, nlohmann::ordered_json* j) { add_pending(pending, j); }
void add_pending_json(const PendingSummary& pending, nlohmann::json* j) { add_pending(pending, j); }

std::string pending_text(const PendingSummary& pending) {
  if (pending.patterns == 0) return "";
  return std::to_string(pending.patterns) + " patterns reached --min-played since " + iso_time(pending.since) +
         " and wait for a catch-up: they are not exported (run `sgfpat catch-up`, or export --complete)";
}

}  // namespace sgfpat::cli

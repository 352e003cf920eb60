// sgfpat export: write a database's counts in another form.
#include <iostream>

#include "cmd_export.h"
#include "commands.h"
#include "flag_checks.h"

namespace sgfpat::cli {

namespace {
struct ExportArgs {
  std::string db;
  std::string format = "priors";
  std::string out;
  bool json = false;
  PriorsExportOptions priors;
};

int run_export(const ExportArgs& a) {
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(a.db, &db);
  if (!st.ok()) {
    return fail("sgfpat export: ", st);
  }
  if (a.format == "priors") return export_priors(*db, a.out, a.priors, a.json);
  return export_tsv(*db, a.out, a.json);
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
  cmd->add_option("--min-played", a->priors.min_played,
                  "priors: keep patterns played at least this often (never below the database's threshold)")
      ->check(at_least(0));
  cmd->add_option("--min-seen", a->priors.min_seen, "priors: keep patterns seen at least this often");
  cmd->add_option("--levels,-L", a->priors.levels, "priors: keep levels 1..L only (0: all)")
      ->check(in_range(0, kMaxLevels));
  return [a]() { return run_export(*a); };
}

}  // namespace sgfpat::cli

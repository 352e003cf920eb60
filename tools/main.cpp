// sgfpat: Go game records -> local pattern database -> move priors.
#include <iostream>
#include <map>

#include "commands.h"
#include "config_path.h"
#include "core/version.h"
#include "flag_checks.h"
#include "tuning.h"

int main(int argc, char** argv) {
  using namespace sgfpat::cli;
  CLI::App app{"sgfpat: turn Go game records (SGF) into a database of local move patterns and move priors"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("sgfpat ") + sgfpat::kVersion);
  // The default configuration (config_path.h).  A file named by
  // $SGFPAT_CONFIG must exist, like one named by --config; a key or section
  // that no command knows is an error naming it.
  bool config_from_env = false;
  const std::string config = default_config_path(&config_from_env);
  app.set_config("--config", config,
                 "Configuration file (TOML; [ingest] etc. sections, keys named like the flags)", config_from_env)
      ->check(config_file());
  app.allow_config_extras(CLI::config_extras_mode::error);
  std::map<CLI::App*, Runner> runners;
  auto add = [&](Runner (*reg)(CLI::App&)) {
    size_t before = app.get_subcommands({}).size();
    Runner r = reg(app);
    runners[app.get_subcommands({})[before]] = std::move(r);
  };
  add(register_board);
  add(register_ingest);
  add(register_query);
  add(register_stats);
  add(register_export);
  add(register_eval);
  add(register_accuracy);
  add(register_bench);
  add(register_suggest);
  add(register_gtp);
  add(register_similar);
  add(register_train);
  add(register_solve);
  add(register_repair);
  add(register_catch_up);
  add(register_shard);
  add(register_serve);
  // The exit codes (tools/exit_codes.h) under every --help.
  const std::string exit_codes =
      "\nExit codes: 0 ok; 1 failure (I/O, memory, ...); 2 usage (flags, config); 3 bad input (the record, position\n"
      "or pattern asked for is rejected; `ingest`, `accuracy`: an input unreadable or holding no game, while the\n"
      "records they reject are counted in the summary, not an error); 4 `solve`: undecided; 5 database damaged or\n"
      "not sgfpat's (run `sgfpat repair --db DIR`); 6 no space left (nothing half-written: free space and run\n"
      "again); 7 database in use by another writer; 8 `repair`: the database works again but stored games were lost.";
  app.footer(exit_codes);
  for (CLI::App* sub : app.get_subcommands({})) sub->footer(exit_codes);
  list_tuning_in_help(app);
  // The rules every flag follows (flag_checks.h): finite numbers, whole
  // numbers of 0 or more, --threads in range, no empty text.
  check_all_flags(app);
  const std::string tuning_flag = tuning_on_command_line(app, std::vector<std::string>(argv + 1, argv + argc));
  if (!tuning_flag.empty()) {
    std::cerr << tuning_flag << "\n";
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kUsage;
  }
  // Nothing the library does throws across its boundary; this catches what
  // a command itself might (an allocation failing, a bug) and still maps it
  // to an exit code.
  try {
    for (auto& [sub, run] : runners)
      if (sub->parsed()) return run();
  } catch (...) {
    return fail("sgfpat: ", sgfpat::status_from_exception("internal error"));
  }
  return kUsage;
}

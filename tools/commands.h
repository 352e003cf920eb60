// Each subcommand registers itself on the root CLI11 app; the returned
// callback runs it and gives the process exit code.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace sgfpat::cli {

// Exit codes shared by every subcommand.
enum Exit : int {
  kOk = 0,
  kFailure = 1,      // the command could not do its job (bad database, I/O error)
  kUsage = 2,        // bad flags or arguments
  kBadInput = 3,     // input records rejected (e.g. an illegal game for `board`)
};

using Runner = std::function<int()>;

Runner register_board(CLI::App& app);
Runner register_ingest(CLI::App& app);
Runner register_query(CLI::App& app);
Runner register_stats(CLI::App& app);
Runner register_export(CLI::App& app);
Runner register_eval(CLI::App& app);
Runner register_accuracy(CLI::App& app);
Runner register_bench(CLI::App& app);
Runner register_suggest(CLI::App& app);
Runner register_gtp(CLI::App& app);
Runner register_solve(CLI::App& app);

}  // namespace sgfpat::cli

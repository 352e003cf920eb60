// Each subcommand registers itself on the root CLI11 app; the returned
// callback runs it and gives the process exit code.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

#include "exit_codes.h"

namespace sgfpat::cli {

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
Runner register_similar(CLI::App& app);
Runner register_train(CLI::App& app);
Runner register_solve(CLI::App& app);
Runner register_repair(CLI::App& app);
Runner register_catch_up(CLI::App& app);
Runner register_shard(CLI::App& app);
Runner register_serve(CLI::App& app);

}  // namespace sgfpat::cli

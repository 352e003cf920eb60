// Tuning settings: options of a subcommand that only tuning runs and tests
// change (their defaults win).  They are not flags: `--help` leaves them
// out (its footer names them), the command line refuses them, and they are
// set in the subcommand's section of the configuration file (--config FILE
// or $SGFPAT_CONFIG; config/sgfpat.toml lists them with their defaults),
// keys named like the options:
//
//   [solve]
//   threat2 = "off"
//   capture-plies = 5
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace sgfpat::cli {

// Makes `opt` (an option of `cmd`) a tuning setting; returns it for further
// checks.
CLI::Option* tuning(CLI::App* cmd, CLI::Option* opt);

// Ends the footer of every subcommand that has tuning settings with their
// names (call once, after every subcommand is registered and its footer set).
void list_tuning_in_help(CLI::App& app);

// The message refusing the first tuning setting given on the command line
// of `app` (argv without the program name), or "" when there is none.
std::string tuning_on_command_line(CLI::App& app, const std::vector<std::string>& args);

}  // namespace sgfpat::cli

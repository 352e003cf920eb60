// The checks on flag values: the range validators the commands declare
// their flags with (their messages print the bounds as people write them,
// "1 to 256", ">= 0"), and the rules every flag of every command follows,
// applied in one place by check_all_flags():
//   - a number given to a FLOAT flag is finite;
//   - an integer flag (INT, UINT) takes a whole number of 0 or more, that
//     fits its type: no integer flag has a meaning for a negative value
//     (counts, sizes, numbers of games and moves, seeds), and a negative
//     value must not wrap around to a huge unsigned one;
//   - every --threads flag is in 1 to kMaxThreads (a thread per core at
//     most is ever useful; thousands abort when the system refuses them);
//   - a path (-o, --db, --sgf, --priors, an input, ...) is not empty (`-o
//     ''`: a file nobody means; an empty pattern or point is bad input,
//     which the commands report themselves).
// The configuration file's values go through the same checks.
#pragma once
#include <CLI/CLI.hpp>

namespace sgfpat::cli {

inline constexpr int kMaxThreads = 256;

// A number in [lo, hi].
CLI::Validator in_range(double lo, double hi);
// A number >= lo.
CLI::Validator at_least(double lo);
// A number > lo.
CLI::Validator more_than(double lo);

// Adds the rules above to every option of every subcommand of `app`
// (nested subcommands too).  Call once, after every command is registered.
void check_all_flags(CLI::App& app);

// The check of the --config option: the file must be a regular file or a
// pipe (a device would be read forever).
CLI::Validator config_file();

}  // namespace sgfpat::cli

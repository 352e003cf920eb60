#include "flag_checks.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sgfpat::cli {

namespace {

// A bound as people write it: 256, 0.5, 1e+12.
std::string bound_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// The value of `v` as a number, or false.
bool number_of(const std::string& v, double* d) {
  char* end = nullptr;
  *d = std::strtod(v.c_str(), &end);
  if (end == v.c_str()) return false;
  while (*end == ' ') ++end;
  return *end == 0;
}

CLI::Validator number_check(const std::string& description, double lo, double hi, bool lo_open,
                            const std::string& wanted) {
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        double d;
        if (!number_of(v, &d) || std::isnan(d)) return "'" + v + "' is not a number";
        if (d < lo || (lo_open && d == lo) || d > hi) return "'" + v + "' is out of range: " + wanted;
        return {};
      },
      description);
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        double d;
        if (!number_of(v, &d) || !std::isfinite(d)) return "'" + v + "' is not a finite number";
        return {};
      },
      "FINITE");
}

// A whole number of 0 or more that fits 64 bits (the option's own type,
// int or uint32_t, refuses what it cannot hold when it converts).
CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        size_t i = v.find_first_not_of(' ');
        if (i != std::string::npos && v[i] == '-')
          return "'" + v + "' is negative: this flag takes a whole number of 0 or more";
        errno = 0;
        char* end = nullptr;
        (void)std::strtoull(v.c_str(), &end, 0);
        if (errno == ERANGE) return "'" + v + "' is too large";
        return {};
      },
      "");
}

CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& v) -> std::string { return v.empty() ? "an empty value is not allowed" : std::string(); }, "");
}

bool is_threads(const CLI::Option* opt) {
  for (const std::string& n : opt->get_lnames())
    if (n == "threads") return true;
  return false;
}

// The options and positionals whose value names a file or a folder.
bool is_path(const CLI::Option* opt) {
  static const char* const kPaths[] = {"backup", "csv",   "db",   "output", "priors", "sgf",
                                       "svg",    "table", "work", "file",   "inputs"};
  std::vector<std::string> names = opt->get_lnames();
  names.push_back(opt->get_name(true, false));  // a positional's name
  for (const std::string& n : names)
    for (const char* p : kPaths)
      if (n == p) return true;
  return false;
}

void check_options(CLI::App* cmd) {
  for (CLI::Option* opt : cmd->get_options()) {
    const std::string type = opt->get_type_name();
    if (type.rfind("FLOAT", 0) == 0) opt->check(finite_number());
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) opt->check(whole_number());
    if (is_path(opt)) opt->check(non_empty());
    if (is_threads(opt)) opt->check(in_range(1, kMaxThreads));
  }
  for (CLI::App* sub : cmd->get_subcommands({})) check_options(sub);
}

}  // namespace

CLI::Validator in_range(double lo, double hi) {
  const std::string text = bound_text(lo) + " to " + bound_text(hi);
  return number_check("[" + bound_text(lo) + " - " + bound_text(hi) + "]", lo, hi, false, text);
}

CLI::Validator at_least(double lo) {
  return number_check(">= " + bound_text(lo), lo, HUGE_VAL, false, "at least " + bound_text(lo));
}

CLI::Validator more_than(double lo) {
  return number_check("> " + bound_text(lo), lo, HUGE_VAL, true, "more than " + bound_text(lo));
}

void check_all_flags(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) check_options(sub);
}

CLI::Validator config_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (path.empty()) return {};
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) return {};  // a missing file is CLI11's to report
        if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) return {};
        return path + " is not a regular file or a pipe";
      },
      "");
}

}  // namespace sgfpat::cli

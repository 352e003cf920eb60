#include "tuning.h"

#include <algorithm>
#include <map>

namespace sgfpat::cli {

namespace {
// The tuning settings of each subcommand, in the order they were added.
std::map<const CLI::App*, std::vector<const CLI::Option*>>& registry() {
  static std::map<const CLI::App*, std::vector<const CLI::Option*>> r;
  return r;
}

// The name a configuration file gives an option: its long name without "--".
std::string key_of(const CLI::Option* opt) {
  const std::vector<std::string>& names = opt->get_lnames();
  return names.empty() ? opt->get_name() : names.front();
}
}  // namespace

CLI::Option* tuning(CLI::App* cmd, CLI::Option* opt) {
  opt->group("");  // hidden from --help
  registry()[cmd].push_back(opt);
  return opt;
}

void list_tuning_in_help(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) {
    auto it = registry().find(sub);
    if (it == registry().end()) continue;
    std::string keys, line;
    for (const CLI::Option* opt : it->second) {
      const std::string key = key_of(opt);
      if (!line.empty() && line.size() + key.size() + 2 > 100) {
        keys += line + ",\n";
        line.clear();
      }
      line += (line.empty() ? "  " : ", ") + key;
    }
    keys += line;
    sub->footer("Tuning settings (their defaults are the ones that win; set them in the [" + sub->get_name() +
                "] section of the\nconfiguration file, --config FILE; config/sgfpat.toml lists them with their "
                "defaults):\n" + keys + "\n" + sub->get_footer());
  }
}

std::string tuning_on_command_line(CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* in = nullptr;  // the subcommand the words belong to so far
  for (const std::string& word : args) {
    if (word == "--") break;
    if (!in) {
      for (CLI::App* sub : app.get_subcommands({}))
        if (sub->check_name(word)) in = sub;
      continue;
    }
    if (word.rfind("--", 0) != 0) continue;
    const std::string name = word.substr(0, word.find('='));
    auto it = registry().find(in);
    if (it == registry().end()) continue;
    for (const CLI::Option* opt : it->second)
      if (opt->check_lname(name.substr(2)))
        return "sgfpat " + in->get_name() + ": " + name + " is a tuning setting, not a flag: set `" + key_of(opt) +
               " = VALUE` in the [" + in->get_name() + "] section of a configuration file (--config FILE)";
  }
  return "";
}

}  // namespace sgfpat::cli

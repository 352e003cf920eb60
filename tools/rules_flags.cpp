#include "rules_flags.h"

namespace sgfpat::cli {

void RulesFlags::add_to(CLI::App* cmd) {
  cmd->add_option("--rules", rules,
                  "chinese (area scoring, the tree search) or atari (atari-go: the first capture wins; boards up "
                  "to 9x9, played by the retrograde table where --table covers the board, by the proving search "
                  "elsewhere)")
      ->capture_default_str()
      ->check(CLI::IsMember({"chinese", "atari"}));
  cmd->add_option("--table", table, "Under --rules atari: the tables database of `sgfpat solve --table` (read only)");
}

Status RulesFlags::atari_options(double seconds, int threads, std::unique_ptr<solve::TableReader>* reader,
                                 solve::AtariPlayOptions* out) const {
  out->search.seconds = seconds;
  out->search.threads = threads;
  out->table = nullptr;
  if (table.empty()) return Status::OK();
  *reader = std::make_unique<solve::TableReader>();
  Status st = (*reader)->open(table);
  if (!st.ok()) return st;
  out->table = reader->get();
  return Status::OK();
}

}  // namespace sgfpat::cli

#include "export/pattern_lookup.h"

#include "export/pattern_table.h"
#include "export/rates.h"
#include "export/text_format.h"
#include "pattern/diamond.h"
#include "pattern/pattern_string.h"

namespace sgfpat {

std::vector<std::string> spell_levels(const Board& board, Point p, Color mover, int levels) {
  std::vector<std::string> spelled;
  for (int l = 1; l <= levels; ++l) spelled.push_back(spell_pattern(board, p, l, mover));
  return spelled;
}

Status lookup_levels(PatternDb* db, const std::vector<std::string>& spelled, std::vector<LevelRow>* rows) {
  rows->clear();
  const KeyScheme& scheme = db->settings().scheme;
  const uint64_t min_played = uint64_t(db->settings().min_played);
  for (size_t i = 0; i < spelled.size(); ++i) {
    LevelRow r;
    r.level = int(i + 1);
    r.pattern = export_form(spelled[i], scheme);
    r.key = pattern_key(r.pattern, scheme);
    bool found = false;
    Status st = db->get(r.level, r.key, &r.counts, &found);
    if (!st.ok()) return st;
    if (found && r.counts.played >= min_played) rows->push_back(std::move(r));
  }
  return Status::OK();
}

nlohmann::ordered_json level_row_json(const LevelRow& r) {
  nlohmann::ordered_json j;
  Interval pr = wilson95(r.counts.played, r.counts.seen);
  Interval wr = wilson95(r.counts.wins, r.counts.played);
  j["level"] = r.level;
  j["points"] = level_points(r.level);
  j["key"] = key_hex(r.key);
  j["played"] = r.counts.played;
  j["seen"] = r.counts.seen;
  j["wins"] = r.counts.wins;
  j["play_rate"] = rate(r.counts.played, r.counts.seen);
  j["play_rate_ci95"] = {pr.low, pr.high};
  j["win_rate"] = rate(r.counts.wins, r.counts.played);
  j["win_rate_ci95"] = {wr.low, wr.high};
  j["pattern"] = r.pattern;
  return j;
}

}  // namespace sgfpat

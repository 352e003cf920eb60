// The --json form of a count summary, shared by ingest and stats: keys in
// alphabetical order (as both printed them before the summary was typed).
#pragma once
#include <nlohmann/json.hpp>

#include "store/count_summary.h"

namespace sgfpat::cli {

template <class Json = nlohmann::json>
Json count_summary_json(const CountSummary& s) {
  Json j = Json::object();
  j["candidates"] = s.candidates;
  j["drains"] = s.drains;
  j["filter_dropped"] = s.filter_dropped;
  j["frontier_passes"] = s.frontier_passes;
  j["crossing_parts"] = s.crossing_parts;
  j["games"] = s.games;
  j["joined_patterns"] = s.joined_patterns;
  j["kept_filter_bits"] = s.kept_filter_bits;
  j["kept_keys"] = s.kept_keys;
  j["mode"] = count_mode_name(s.mode);
  j["new_games"] = s.new_games;
  j["nights"] = s.nights;
  j["parts"] = s.parts;
  j["part_relists"] = s.part_relists;
  j["patterns_per_level"] = s.patterns_per_level;
  j["positions"] = s.positions;
  j["pruned"] = s.pruned;
  j["replayed_games"] = s.replayed_games;
  j["resumed_parts"] = s.resumed_parts;
  Json seconds = Json::object();
  seconds["commit"] = s.seconds_commit;
  seconds["crossing"] = s.seconds_crossing;
  seconds["listing"] = s.seconds_listing;
  seconds["pass1"] = s.seconds_pass1;
  seconds["pass2"] = s.seconds_pass2;
  j["seconds"] = seconds;
  j["sketch_bytes"] = s.sketch_bytes;
  j["sketch_fill"] = s.sketch_fill;
  return j;
}

}  // namespace sgfpat::cli

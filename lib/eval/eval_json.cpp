#include "eval/eval_json.h"

#include <algorithm>

namespace sgfpat {

const char* estimator_name(Estimator e) {
  switch (e) {
    case Estimator::Raw: return "raw";
    case Estimator::Model: return "model";
    default: return "smoothed";
  }
}

std::vector<MoveEval> rank_moves(std::vector<MoveEval> moves) {
  std::stable_sort(moves.begin(), moves.end(), [](const MoveEval& x, const MoveEval& y) { return x.prob > y.prob; });
  return moves;
}

nlohmann::json eval_json(const std::vector<MoveEval>& ranked, int size, Color to_move, Estimator estimator) {
  nlohmann::json j;
  j["to_move"] = to_move == Color::White ? "White" : "Black";
  j["size"] = size;
  j["estimator"] = estimator_name(estimator);
  j["legal_moves"] = ranked.size();
  nlohmann::json arr = nlohmann::json::array();
  for (const MoveEval& e : ranked)
    arr.push_back({{"move", gtp_name(e.point, size)}, {"sgf", sgf_name(e.point)}, {"x", e.point.x},
                   {"y", e.point.y}, {"prob", e.prob}, {"score", e.score}, {"level", e.level},
                   {"played", e.counts.played}, {"seen", e.counts.seen}, {"wins", e.counts.wins}});
  if (estimator == Estimator::Model)
    for (size_t i = 0; i < ranked.size(); ++i) {
      nlohmann::json f = nlohmann::json::object();
      for (int g = 0; g < sgfpat_priors::kFeatureGroups; ++g)
        f[sgfpat_priors::feature_group_name(g)] = ranked[i].features[g];
      arr[i]["rate"] = ranked[i].rate;
      arr[i]["features"] = f;
    }
  j["moves"] = arr;
  return j;
}

}  // namespace sgfpat

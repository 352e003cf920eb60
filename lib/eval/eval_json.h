// The moves of an evaluated position ranked by probability, and their JSON
// as `sgfpat eval --json` prints it (the server's heat map sends the same).
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "eval/evaluator.h"

namespace sgfpat {

// "model", "smoothed" or "raw".
const char* estimator_name(Estimator e);

// The moves by probability, highest first (ties keep board order).
std::vector<MoveEval> rank_moves(std::vector<MoveEval> moves);

// {"to_move", "size", "estimator", "legal_moves", "moves": [{move, sgf, x,
// y, prob, score, level, played, seen, wins, and with the model rate and
// features}]} for `ranked` (rank_moves()' order).
nlohmann::json eval_json(const std::vector<MoveEval>& ranked, int size, Color to_move, Estimator estimator);

}  // namespace sgfpat

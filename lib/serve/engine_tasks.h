// The engine's work for the server, each bounded by the caller's budget:
// the move of the engine's seat in a game (the GTP engine of lib/gtp, its
// pass and resign policy included; under atari-go its solver-backed play),
// the analysis of a position by the tree search (the candidates with their
// visits and win rates), and in atari-go the proved value of every move
// (lib/solve).  Nothing here keeps state between calls.
#pragma once
#include <vector>

#include "core/status.h"
#include "eval/evaluator.h"
#include "play/rules.h"
#include "priors/sgfpat_priors.h"
#include "serve/game_room.h"
#include "serve/protocol.h"
#include "sgf/game.h"

namespace sgfpat::serve {

struct EngineContext {
  const sgfpat_priors::Priors* priors = nullptr;  // null: uniform priors
  EvalOptions eval;
};

// The engine's choice for `to_move` after `moves` (a game under `rules`),
// with `strength` (playouts or seconds a move).  *out: a point, a pass, or
// a resignation.
Status engine_move(const EngineContext& ctx, const GameRules& rules, const std::vector<sgfpat::Action>& moves,
                   Color to_move, const EngineStrength& strength, SeatAction* out);

// The tree search's view of a page's position (`line` at `at`, komi from
// line.info.komi): {to_move, best, win_rate, playouts, seconds,
// candidates: [{move, visits, win_rate, prior}] most visited first}.
Status analyze_position(const EngineContext& ctx, const Game& line, int at, int64_t playouts, double seconds,
                        Json* out);

// Atari-go: every move of the side to move classified by the proving
// search within `seconds` ({to_move, moves: [{move, verdict: win|loss|
// unknown, reason}], winning: a move proved to win or null}); boards up
// to max_size, no capture made yet.
Status solve_position(const Game& line, int at, double seconds, int max_size, Json* out);

}  // namespace sgfpat::serve

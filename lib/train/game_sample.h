// Training positions from the games stored in a pattern database.
//
// The database's counts include every stored game, so a game's own moves
// would make its patterns look more often played than they are in a game
// the counts have never seen (the case of every game an engine plays).  The
// candidates of a sampled game are therefore scored leave-one-out: the
// game's own seen and played counts are taken off every level's counts
// first, a level whose remaining played count falls below the file's
// threshold counts as unknown (as it would not have been exported), and the
// smoothed rate and largest level are computed from what remains.
#pragma once
#include <cstdint>
#include <functional>

#include "core/status.h"
#include "priors/sgfpat_priors.h"
#include "store/pattern_db.h"
#include "train/training_set.h"

namespace sgfpat {

struct SampleOptions {
  uint64_t games = 500;    // games to sample (all when the database has fewer)
  uint64_t seed = 1;       // which games: the same seed, the same sample
  double smoothing = 4.0;  // `a` of the smoothed rate
};

struct SampleSummary {
  uint64_t games = 0;         // sampled games used
  uint64_t skipped_games = 0; // undecodable or illegal records
  uint64_t positions = 0;
  uint64_t candidates = 0;
  uint64_t stored_games = 0;  // games in the database
};

// Picks `options.games` stored games by a hash of their fingerprint and the
// seed (independent of storage order), and appends their positions to
// *out.  `progress` (may be empty) is called after every game.
Status sample_training_set(PatternDb& db, const sgfpat_priors::Priors& priors, const SampleOptions& options,
                           TrainingSet* out, SampleSummary* summary,
                           const std::function<void(const SampleSummary&)>& progress = {});

}  // namespace sgfpat

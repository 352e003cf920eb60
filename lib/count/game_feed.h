// Feeding stored games to counting threads, and replaying a stored record.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/pattern_db.h"

namespace sgfpat {

// Visits game records (fingerprint, record) until the visitor says stop.
using GameVisitor = std::function<bool(const Fingerprint&, std::string_view)>;
using GameSource = std::function<Status(const GameVisitor&)>;

// Feeds the games of `source` (about `total` of them) in batches to
// `threads` workers running work(thread, batch); progress(games handed out)
// is called from the calling thread.  Returns the source's error, else the
// first worker error.
Status feed_games(const GameSource& source, uint64_t total, int threads,
                  const std::function<Status(int, std::vector<std::string>&)>& work,
                  const std::function<void(uint64_t)>& progress);
// The same, work(thread, batch, first) told the index of the batch's first
// game in the source's order.
Status feed_games(const GameSource& source, uint64_t total, int threads,
                  const std::function<Status(int, std::vector<std::string>&, uint64_t)>& work,
                  const std::function<void(uint64_t)>& progress);

// Every stored game of `db`.
Status for_all_games(PatternDb& db, int threads, const std::function<Status(int, std::vector<std::string>&)>& work,
                     const std::function<void(uint64_t)>& progress);

// The fingerprints of the games of `source` (about `expected` of them),
// the games that begin alike next to each other (opening_key()): counted
// in that order, they share their first positions (shared_positions.h).
// Holds an opening key per game while it sorts them.
Status games_by_opening(const GameSource& source, uint64_t expected, std::vector<Fingerprint>* order);
// The most memory games_by_opening() holds for `games` games: the sort's
// entries beside the order it returns.
size_t games_by_opening_bytes(uint64_t games);
// The same for every stored game of `db`.
Status games_by_opening(PatternDb& db, std::vector<Fingerprint>* order);

// Visits the stored games `order` names, in that order, reading their
// records by batched look-ups.
Status for_each_game_in(PatternDb& db, std::span<const Fingerprint> order, const GameVisitor& visit);
// The same as a source; `db` and `order` must outlive it.
GameSource games_in(PatternDb& db, std::span<const Fingerprint> order);

}  // namespace sgfpat

#include "count/frontier.h"

#include "core/coding.h"
#include "pattern/tracking_observer.h"
#include "store/stored_replay.h"

namespace sgfpat {

uint64_t game_prefix(const Fingerprint& fp) { return decode_fixed64_be(reinterpret_cast<const char*>(fp.data())); }

namespace {

// Walks the played point of every move, up to the first level `kept` lacks.
struct FrontierObserver : TrackingObserver {
  const KeyHashSet& kept;
  std::vector<FrontierEntry>* out;
  uint64_t game = 0;
  Color winner = Color::Empty;
  FrontierObserver(const KeyScheme& s, const KeyHashSet& k, std::vector<FrontierEntry>* o)
      : TrackingObserver(s), kept(k), out(o) {
    // Only the played point is walked (as the sketch pass does).
    tracker.set_incremental_rings(1);
  }
  void start_game(const Game& g) {
    TrackingObserver::start_game(g);
    game = game_prefix(game_fingerprint(g));
    winner = g.info.winner();
  }
  void before_move(const Board& board, Color mover, Point move, int number) override {
    if (move.is_pass()) return;
    tracker.walk(board.index(move), mover, [&](int level, uint64_t key) {
      if (kept.contains(level, key)) return true;
      out->push_back({level, key, {game, uint32_t(number), winner == mover}});
      return false;
    });
  }
};

// Records the keys of one move's levels.
struct KeysAtObserver : TrackingObserver {
  uint32_t number;
  std::vector<uint64_t>* keys;
  bool found = false;
  KeysAtObserver(const KeyScheme& s, uint32_t n, std::vector<uint64_t>* k) : TrackingObserver(s), number(n), keys(k) {
    tracker.set_incremental_rings(1);
  }
  void before_move(const Board& board, Color mover, Point move, int n) override {
    if (uint32_t(n) != number || move.is_pass()) return;
    found = true;
    keys->clear();
    tracker.walk(board.index(move), mover, [&](int, uint64_t key) {
      keys->push_back(key);
      return true;
    });
  }
};

}  // namespace

Status frontier_entries(const KeyScheme& scheme, std::span<const std::string> batch, const KeyHashSet& kept,
                        std::vector<FrontierEntry>* out) {
  StoredGame g;
  FrontierObserver obs(scheme, kept, out);
  for (const std::string& rec : batch) {
    Status st = replay_stored(rec, &g, &obs);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

Status played_keys_at(const KeyScheme& scheme, std::string_view record, uint32_t number, std::vector<uint64_t>* keys) {
  StoredGame g;
  KeysAtObserver obs(scheme, number, keys);
  Status st = replay_stored(record, &g, &obs);
  if (!st.ok()) return st;
  if (!obs.found) return Status::NotFound("stored game has no played move " + std::to_string(number));
  return Status::OK();
}

}  // namespace sgfpat

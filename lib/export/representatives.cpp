#include "export/representatives.h"

#include <chrono>

#include "pattern/pattern_string.h"
#include "pattern/tracking_observer.h"
#include "store/stored_replay.h"

namespace sgfpat {

namespace {
struct Finder : TrackingObserver {
  PatternTable* table;
  RepresentativeSearch* search;
  const KeyScheme& scheme;
  std::vector<int> wanted_levels;  // sparse search: levels with wanted keys

  Finder(const KeyScheme& s, PatternTable* t, RepresentativeSearch* rs)
      : TrackingObserver(s), table(t), search(rs), scheme(s) {
    for (int l = 1; l <= t->levels(); ++l)
      if (t->size(l) > 0) wanted_levels.push_back(l);
  }

  void record(const Board& board, Point move, Color mover, int level, uint64_t key, size_t i) {
    std::string s = export_form(spell_pattern(board, move, level, mover), scheme);
    if (pattern_key(s, scheme) != key) {
      ++search->key_mismatches;
      return;
    }
    table->set_string(level, i, s);
  }

  void before_move(const Board& board, Color mover, Point move, int) override {
    if (move.is_pass() || table->missing() == 0) return;
    const int idx = board.index(move);
    if (search->closed) {
      tracker.walk(idx, mover, [&](int level, uint64_t key) {
        int64_t i = table->find(level, key);
        if (i < 0) return false;
        if (!table->has_string(level, size_t(i))) record(board, move, mover, level, key, size_t(i));
        return true;
      });
    } else {
      for (int level : wanted_levels) {
        uint64_t key = tracker.key(idx, level, mover);
        int64_t i = table->find(level, key);
        if (i >= 0 && !table->has_string(level, size_t(i))) record(board, move, mover, level, key, size_t(i));
      }
    }
  }
};
}  // namespace

Status find_representatives(PatternDb& db, PatternTable* table, RepresentativeSearch* search) {
  auto t0 = std::chrono::steady_clock::now();
  search->games_replayed = 0;
  search->key_mismatches = 0;
  Finder finder(db.settings().scheme, table, search);
  Status err;
  StoredGame g;
  Status s = db.for_each_game([&](const Fingerprint&, std::string_view rec) {
    if (table->missing() == 0) return false;
    if (search->max_games && search->games_replayed >= search->max_games) return false;
    err = replay_stored(rec, &g, &finder);
    ++search->games_replayed;
    return err.ok();
  });
  search->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!s.ok()) return s;
  return err;
}

}  // namespace sgfpat

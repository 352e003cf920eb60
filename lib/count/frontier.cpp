#include "count/frontier.h"

#include "pattern/tracking_observer.h"
#include "store/stored_replay.h"

namespace sgfpat {

namespace {

// Walks the played point of every move, up to the first level `kept` lacks
// (of those `pass` lists, when given).
struct FrontierObserver : TrackingObserver {
  const KeyHashSet& kept;
  const KeyHashSet* pending;
  std::vector<FrontierEntry>* out;
  std::vector<FrontierEntry>* pending_plays;
  std::vector<uint64_t>* out_keys = nullptr;  // every level's key of each move in *out
  int levels;
  std::vector<uint64_t> walked;  // this move's keys so far
  FrontierPass pass;
  uint64_t game = 0;
  uint64_t index = 0;  // the game's index in pass.listed
  Color winner = Color::Empty;
  FrontierObserver(const KeyScheme& s, const KeyHashSet& k, std::vector<FrontierEntry>* o, const KeyHashSet* p,
                   std::vector<FrontierEntry>* pp, const FrontierPass& fp)
      : TrackingObserver(s), kept(k), pending(p), out(o), pending_plays(pp), levels(s.levels), pass(fp) {
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
    if (pass.listed && pass.listed->marked(index, uint32_t(number))) return;
    const StoredMove here{game, uint32_t(number), winner == mover};
    bool found = false;
    walked.clear();
    tracker.walk(board.index(move), mover, [&](int level, uint64_t key) {
      if (out_keys) walked.push_back(key);
      if (found) {
        if (level == out->back().level + 1) out->back().above = key;  // the level above the frontier
        return out_keys != nullptr;  // on to the last level when its keys are asked for
      }
      // Below the pass's levels every pattern of a move not listed yet is
      // in K or P; above them, or outside its range, is another pass's.
      if (level < pass.first) return true;
      if (level > pass.last || (pass.first == pass.last && !pass.range.contains(key))) return false;
      if (kept.contains(level, key)) return true;
      if (pending && pending->contains(level, key)) {
        if (pending_plays) pending_plays->push_back({level, key, here});
        return true;
      }
      out->push_back({level, key, here});
      if (pass.listed) pass.listed->mark(index, uint32_t(number));
      found = true;
      return true;
    });
    if (found && out_keys) {
      walked.resize(size_t(levels), 0);  // (a walk that goes on reaches every level)
      out_keys->insert(out_keys->end(), walked.begin(), walked.end());
    }
  }
};

// Records the keys of the levels of the moves asked for.
struct KeysAtObserver : TrackingObserver {
  std::span<const uint32_t> numbers;
  std::vector<std::vector<uint64_t>>* keys = nullptr;
  size_t next = 0;
  explicit KeysAtObserver(const KeyScheme& s) : TrackingObserver(s) { tracker.set_incremental_rings(1); }
  void before_move(const Board& board, Color mover, Point move, int n) override {
    if (next == numbers.size() || uint32_t(n) != numbers[next] || move.is_pass()) return;
    std::vector<uint64_t>& out = (*keys)[next++];
    tracker.walk(board.index(move), mover, [&](int, uint64_t key) {
      out.push_back(key);
      return true;
    });
  }
};

}  // namespace

Status frontier_entries(const KeyScheme& scheme, std::span<const std::string> batch, const KeyHashSet& kept,
                        std::vector<FrontierEntry>* out, const KeyHashSet* pending,
                        std::vector<FrontierEntry>* pending_plays, const FrontierPass* pass,
                        std::vector<uint64_t>* out_keys) {
  StoredGame g;
  FrontierObserver obs(scheme, kept, out, pending, pending_plays, pass ? *pass : FrontierPass{});
  obs.out_keys = out_keys;
  for (size_t i = 0; i < batch.size(); ++i) {
    obs.index = obs.pass.first_game + i;
    Status st = replay_stored(batch[i], &g, &obs);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

struct PlayedKeysAt::Replay {
  StoredGame game;
  KeysAtObserver observer;
  explicit Replay(const KeyScheme& scheme) : observer(scheme) {}
};

PlayedKeysAt::PlayedKeysAt(const KeyScheme& scheme) : replay_(std::make_unique<Replay>(scheme)) {}
PlayedKeysAt::~PlayedKeysAt() = default;

Status PlayedKeysAt::keys(std::string_view record, std::span<const uint32_t> numbers,
                          std::vector<std::vector<uint64_t>>* keys) {
  keys->assign(numbers.size(), {});
  KeysAtObserver& obs = replay_->observer;
  obs.numbers = numbers;
  obs.keys = keys;
  obs.next = 0;
  // The replay stops after the last move asked for.
  Status st = replay_stored(record, &replay_->game, &obs, numbers.empty() ? 0 : int(numbers.back()));
  if (!st.ok()) return st;
  if (obs.next != numbers.size())
    return Status::NotFound("stored game has no played move " + std::to_string(numbers[obs.next]));
  return Status::OK();
}

}  // namespace sgfpat

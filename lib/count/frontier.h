// The frontier of a played move (docs/nightly.md): the smallest level whose
// played pattern is in neither the kept set K nor the pending set P.
//
// Two moves with the same level-j pattern have the same smaller patterns
// (they lie inside it), so they have the same frontier when it is at level
// j or above: for a pattern x outside K and P, if x is the frontier of one
// move it is the frontier of every move that played it, and the moves
// indexed under x are all of x's plays.  That is what lets a night decide
// exactly, without replaying the archive, which patterns its games bring
// to min_played.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/key_hash_set.h"
#include "count/move_marks.h"
#include "count/part_range.h"
#include "pattern/key_scheme.h"
#include "store/frontier_entry.h"

namespace sgfpat {

// One replay of several that list F's entries: the moves whose frontier
// lies in levels first..last (and when first == last, whose key of that
// level is in `range`: part_hash() of the key), each once.  A move that
// `listed` marks was listed by an earlier pass and is skipped; one this
// pass lists is marked.  Passes in increasing levels, every range of a
// level before the next level, list every move as one replay of the whole
// range does: a move not marked at level `first` is in K or P at every
// level below it.  `first_game` is the index in `listed` of the batch's
// first game.
struct FrontierPass {
  int first = 1, last = 255;
  PartRange range;
  MoveMarks* listed = nullptr;
  uint64_t first_game = 0;
};

// Appends to *out the frontier entry of every played move of the stored
// game records `batch`: its first level whose played pattern is in neither
// `kept` (K) nor `pending` (P, when given), with the move's played key of
// the level above it (`above`, 0 at the last level); a move in them at
// every level has none.  When `pending_plays` is given, each level of a move's played
// pattern below its frontier that is in P (and not in K) is appended there
// too, as an entry of that level.  Both sets must be exact.  Corruption for
// a record that does not decode or replay.
//
// With `pass`, one of the replays that build F by groups of levels
// (count/frontier_build.h): only the moves it lists are, and `kept` needs
// only the keys it tests (exact there).  `pending` must hold every level.
// With `out_keys`, the played keys of every level (scheme.levels of them,
// as PlayedKeysAt gives them) of each move given an entry are appended
// there, in the entries' order.
Status frontier_entries(const KeyScheme& scheme, std::span<const std::string> batch, const KeyHashSet& kept,
                        std::vector<FrontierEntry>* out, const KeyHashSet* pending = nullptr,
                        std::vector<FrontierEntry>* pending_plays = nullptr, const FrontierPass* pass = nullptr,
                        std::vector<uint64_t>* out_keys = nullptr);

// The played keys of every level of some moves of stored games.  One per
// thread: its pattern tracker is made once and reset from game to game (a
// new one spells the board's edges again, most of a short replay's cost).
class PlayedKeysAt {
 public:
  explicit PlayedKeysAt(const KeyScheme& scheme);
  ~PlayedKeysAt();
  // The played keys of every level (1..L, index level - 1) of the moves of
  // one stored game numbered `numbers` (increasing), replaying `record` up
  // to the last of them: (*keys)[i] for numbers[i].  NotFound when the game
  // has no played move of one of those numbers.
  Status keys(std::string_view record, std::span<const uint32_t> numbers, std::vector<std::vector<uint64_t>>* keys);

 private:
  struct Replay;
  std::unique_ptr<Replay> replay_;
};

}  // namespace sgfpat

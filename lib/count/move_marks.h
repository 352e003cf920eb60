// A mark per played move of the stored games, by the game's index in one
// fixed order of them and the move's number: which moves an earlier
// replay of the frontier index's build listed (count/frontier_build.h).
//
// 512 bits a game (64 bytes: 147 MB at 2.3M games); moves numbered 512 and
// on, and games past the size given, go to a small locked set.  Marks of
// different games may be set from different threads at once.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace sgfpat {

class MoveMarks {
 public:
  explicit MoveMarks(uint64_t games) : words_(size_t(games) * kWordsPerGame) {}
  static size_t bytes_for(uint64_t games) { return size_t(games) * kWordsPerGame * sizeof(uint64_t); }

  bool marked(uint64_t game, uint32_t number) const {
    if (const std::atomic<uint64_t>* w = word(game, number))
      return (w->load(std::memory_order_relaxed) >> (number & 63)) & 1;
    std::lock_guard<std::mutex> lock(mu_);
    return others_.count({game, number}) > 0;
  }
  void mark(uint64_t game, uint32_t number) {
    if (std::atomic<uint64_t>* w = word(game, number)) {
      w->fetch_or(uint64_t(1) << (number & 63), std::memory_order_relaxed);
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    others_.insert({game, number});
  }

 private:
  static constexpr uint32_t kMovesPerGame = 512;
  static constexpr size_t kWordsPerGame = kMovesPerGame / 64;
  std::atomic<uint64_t>* word(uint64_t game, uint32_t number) {
    const size_t i = size_t(game) * kWordsPerGame + number / 64;
    return number < kMovesPerGame && i < words_.size() ? &words_[i] : nullptr;
  }
  const std::atomic<uint64_t>* word(uint64_t game, uint32_t number) const {
    return const_cast<MoveMarks*>(this)->word(game, number);
  }
  std::vector<std::atomic<uint64_t>> words_;
  mutable std::mutex mu_;
  std::set<std::pair<uint64_t, uint32_t>> others_;
};

}  // namespace sgfpat

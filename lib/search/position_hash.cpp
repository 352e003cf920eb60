#include "search/position_hash.h"

#include <memory>
#include <mutex>

namespace sgfpat {

namespace {
uint64_t splitmix(uint64_t* s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

void PositionHasher::reset(int size) {
  using Words = std::array<std::array<std::array<uint64_t, kTransforms>, 2>, kMaxBoardSize * kMaxBoardSize>;
  static std::array<std::unique_ptr<Words>, kMaxBoardSize + 1> tables;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  size_ = size;
  auto& table = tables[size_t(size)];
  if (!table) {
    // One random word per (colour, point) of the identity view, the seed
    // salted by the size; transform t of a stone reads the word of its image.
    uint64_t seed = 0x5eed0f5105171011ULL ^ (uint64_t(size) << 40);
    std::array<std::array<uint64_t, kMaxBoardSize * kMaxBoardSize>, 2> base{};
    for (auto& colour : base)
      for (auto& w : colour) w = splitmix(&seed);
    table = std::make_unique<Words>();
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x)
        for (int c = 0; c < 2; ++c)
          for (int t = 0; t < kTransforms; ++t) {
            Point q = apply_symmetry(transform_sym(t), Point{int8_t(x), int8_t(y)}, size);
            int colour = transform_swaps(t) ? 1 - c : c;
            (*table)[size_t(y * size + x)][size_t(c)][size_t(t)] = base[size_t(colour)][size_t(q.y * size + q.x)];
          }
  }
  words_ = table.get();
  hashes_.fill(0);
}

uint64_t PositionHasher::canonical(int* transform) const {
  int best = 0;
  for (int t = 1; t < kTransforms; ++t)
    if (hashes_[size_t(t)] < hashes_[size_t(best)]) best = t;
  if (transform) *transform = best;
  return hashes_[size_t(best)];
}

}  // namespace sgfpat

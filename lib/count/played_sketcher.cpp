#include "count/played_sketcher.h"

#include <algorithm>

namespace sgfpat {

PlayedSketcher::PlayedSketcher(const KeyScheme& scheme, CountMinSketch* sketch, unsigned min_played,
                               size_t max_list_bytes)
    : scheme_(scheme),
      sketch_(sketch),
      min_played_(min_played),
      max_list_bytes_(max_list_bytes),
      collector_(scheme.levels),
      collect_(max_list_bytes > 0) {}

Status PlayedSketcher::add(const std::vector<std::string>& batch) {
  // In pieces: the keys of 256 games (~4 MB) are all a call holds.
  constexpr size_t kPiece = 256;
  std::vector<uint64_t> keys;
  std::vector<uint8_t> tops;  // per move: the levels listed
  for (size_t first = 0; first < batch.size(); first += kPiece) {
    Status st = add_piece(std::span<const std::string>(batch).subspan(first, std::min(kPiece, batch.size() - first)),
                          &keys, &tops);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

Status PlayedSketcher::add_piece(std::span<const std::string> batch, std::vector<uint64_t>* keys_out,
                                 std::vector<uint8_t>* tops_out) {
  std::vector<uint64_t>& keys = *keys_out;
  std::vector<uint8_t>& tops = *tops_out;
  keys.clear();
  tops.clear();
  Status st = played_keys(scheme_, batch, &keys);
  if (!st.ok()) return st;
  // keys holds L keys per move, levels 1..L.  Fetch a few items ahead: the
  // sketch is far out of the caches.
  constexpr size_t kAhead = 16;
  const size_t L = size_t(scheme_.levels), n = keys.size();
  auto item = [&](size_t i) { return level_item(int(i % L) + 1, keys[i]); };
  std::unique_lock<std::mutex> lock(sketch_mu_);
  // A move lists its levels up to the first whose estimate is below
  // min_played: a pattern's smaller parts were played at least as often,
  // so a kept one is listed with all of them, and the sketch's false
  // positives above a part that is not kept (most of them, where the
  // sketch is full) are not listed at all.
  tops.assign(n / L, 0);
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) sketch_->prefetch_for_add(item(i + kAhead));
    const bool reached = sketch_->add(item(i)) + 1 >= min_played_;
    uint8_t& top = tops[i / L];
    if (reached && top == i % L) ++top;
  }
  lock.unlock();
  games_ += batch.size();
  items_ += n;
  std::lock_guard<std::mutex> listing(collector_mu_);
  if (!collect_) return Status::OK();
  for (size_t m = 0; m < tops.size(); ++m) collector_.add_move(&keys[m * L], tops[m]);
  listed_moves_ += tops.size();
  // Too many to hold: pass 2 will ask the sketch instead.
  if (collector_.bytes() > max_list_bytes_ || listed_moves_ >= (uint64_t(1) << 32)) {
    collect_ = false;
    collector_ = KeptCollector(1);
  }
  list_bytes_.store(collector_.bytes(), std::memory_order_relaxed);
  return Status::OK();
}

void PlayedSketcher::finish(SketchPass* out) {
  std::lock_guard<std::mutex> listing(collector_mu_);
  out->complete = collect_;
  if (collect_) {
    out->kept = std::move(collector_.kept);
    out->extended = std::move(collector_.extended);
  }
  out->games = games_;
  out->items = items_;
}

}  // namespace sgfpat

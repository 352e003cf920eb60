// The k smallest of a stream of items, in O(n + k log k) time and O(k)
// memory: items at or above the current bound are refused in O(1); kept
// items fill a buffer of 2k, which a linear selection (nth_element) cuts
// back to k, raising the bound.  A cut costs O(k) and follows at least k
// admitted items, so each item costs O(1) amortized.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace sgfpat {

template <class T, class Less = std::less<T>>
class KSmallest {
 public:
  explicit KSmallest(size_t k, Less less = Less()) : k_(k), less_(less) { items_.reserve(2 * k + 1); }

  // True if x would be kept now (it is below the k-th smallest so far).
  bool admits(const T& x) const { return k_ > 0 && (!full_ || less_(x, bound_)); }
  void offer(const T& x) {
    if (!admits(x)) return;
    items_.push_back(x);
    if (items_.size() >= 2 * k_) cut();
  }
  // Offers every item another selector kept (merging per-thread results).
  void merge(const KSmallest& other) {
    for (const T& x : other.items_) offer(x);
  }
  // The k smallest (fewer if fewer were offered), sorted.
  std::vector<T> sorted() {
    cut();
    std::sort(items_.begin(), items_.end(), less_);
    return items_;
  }
  size_t k() const { return k_; }

 private:
  void cut() {
    if (items_.size() <= k_) return;
    std::nth_element(items_.begin(), items_.begin() + std::ptrdiff_t(k_ - 1), items_.end(), less_);
    items_.resize(k_);
    bound_ = *std::max_element(items_.begin(), items_.end(), less_);
    full_ = true;
  }
  size_t k_;
  Less less_;
  bool full_ = false;
  T bound_{};
  std::vector<T> items_;
};

}  // namespace sgfpat

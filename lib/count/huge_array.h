// A fixed-size, zero-filled array for the big random-access structures of
// counting (the sketch, the count tables).  It is an anonymous mapping
// advised to use transparent huge pages: with 4 KiB pages nearly every
// random access into hundreds of MB also misses the TLB, and zero pages
// the kernel hands out lazily are not resident until touched, so a table
// sized for the worst case costs nothing until it fills.
#pragma once
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace sgfpat {

void* huge_alloc(size_t bytes);           // zero-filled; throws std::bad_alloc
void huge_free(void* p, size_t bytes);
void huge_zero(void* p, size_t bytes);    // zero again, giving the pages back

template <class T>
class HugeArray {
  static_assert(std::is_trivially_copyable_v<T>, "HugeArray holds plain data");

 public:
  HugeArray() = default;
  explicit HugeArray(size_t n) : n_(n), p_(n ? static_cast<T*>(huge_alloc(n * sizeof(T))) : nullptr) {}
  HugeArray(HugeArray&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  HugeArray& operator=(HugeArray&& o) noexcept {
    std::swap(n_, o.n_);
    std::swap(p_, o.p_);
    return *this;
  }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  ~HugeArray() {
    if (p_) huge_free(p_, n_ * sizeof(T));
  }

  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  // All elements back to zero bytes.
  void clear() {
    if (p_) huge_zero(p_, bytes());
  }

 private:
  size_t n_ = 0;
  T* p_ = nullptr;
};

}  // namespace sgfpat

#include "count/huge_array.h"

#include <cstdlib>
#include <cstring>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sgfpat {

namespace {
constexpr size_t kHuge = size_t(2) << 20;
size_t round_up(size_t n) { return (n + kHuge - 1) / kHuge * kHuge; }
}  // namespace

void* huge_alloc(size_t bytes) {
#if defined(__linux__)
  void* p = ::mmap(nullptr, round_up(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(p, round_up(bytes), MADV_HUGEPAGE);  // advice only: fine if refused
#endif
  return p;
#else
  void* p = std::calloc(1, bytes);
  if (!p) throw std::bad_alloc();
  return p;
#endif
}

void huge_free(void* p, size_t bytes) {
#if defined(__linux__)
  ::munmap(p, round_up(bytes));
#else
  (void)bytes;
  std::free(p);
#endif
}

void huge_zero(void* p, size_t bytes) {
#if defined(__linux__)
  // Dropping the pages both zeroes them and returns the memory; for a few
  // pages a memset is cheaper than the faults that follow.
  if (bytes >= 4 * kHuge && ::madvise(p, round_up(bytes), MADV_DONTNEED) == 0) return;
#endif
  std::memset(p, 0, bytes);
}

}  // namespace sgfpat

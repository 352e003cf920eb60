#include "solve/page_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace sgfpat::solve {

namespace {
constexpr size_t kGiB = size_t(1) << 30;
}  // namespace

PageMemory::PageMemory(size_t bytes) : bytes_(bytes) {
  const size_t whole = bytes / kGiB;
  // One range, aligned to 1 GB when any 1 GB page could be in it, that the
  // pieces are then mapped into.
  const size_t span = bytes + (whole ? kGiB : 0);
  void* range = mmap(nullptr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (range == MAP_FAILED) throw std::bad_alloc();
  auto* base = static_cast<char*>(range);
  if (whole) {
    auto* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(base) + kGiB - 1) & ~(kGiB - 1));
    if (aligned > base) munmap(base, size_t(aligned - base));
    if (base + span > aligned + bytes) munmap(aligned + bytes, size_t(base + span - (aligned + bytes)));
    base = aligned;
  }
  size_t done = 0;
#if defined(MAP_HUGETLB) && defined(MAP_HUGE_SHIFT)
  // Each GB on its own 1 GB page until the system's reserve runs out.
  for (; done < whole * kGiB; done += kGiB)
    if (mmap(base + done, kGiB, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_HUGETLB | (30 << MAP_HUGE_SHIFT), -1, 0) == MAP_FAILED)
      break;
#endif
  gb_pages_ = done / kGiB;
  if (done < bytes) {
    if (mmap(base + done, bytes - done, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
        MAP_FAILED) {
      munmap(base, bytes);
      throw std::bad_alloc();
    }
    // Where the system offers no 2 MB pages this changes nothing.
    madvise(base + done, bytes - done, MADV_HUGEPAGE);
  }
  data_ = base;
}

PageMemory::~PageMemory() { munmap(data_, bytes_); }

}  // namespace sgfpat::solve

// Large zeroed memory for the solver's tables that are read at random
// places (the transposition table, the tactics caches).  Every look-up
// lands on a random page, so address translation is paid per look-up
// unless the pages are large: the memory is on 1 GB pages as far as the
// system has them reserved (hugetlbfs), the rest on 2 MB pages where the
// system offers them (transparent huge pages on request).
#pragma once
#include <cstddef>

namespace sgfpat::solve {

class PageMemory {
 public:
  // `bytes` of zeroed memory, backed only as it is first touched; throws
  // std::bad_alloc when the address space cannot be had.
  explicit PageMemory(size_t bytes);
  ~PageMemory();
  PageMemory(const PageMemory&) = delete;
  PageMemory& operator=(const PageMemory&) = delete;

  void* data() const { return data_; }
  // How many GB of it are on 1 GB pages (the first ones).
  size_t gb_pages() const { return gb_pages_; }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
  size_t gb_pages_ = 0;
};

}  // namespace sgfpat::solve

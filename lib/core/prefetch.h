// Starts loading the cache line holding `p`, for a read soon after.
//
// __builtin_prefetch counts as free of side effects, so GCC deletes a loop
// that does nothing but prefetch (a pass that computes keys only to fetch
// their table slots ahead of the look-ups); an asm volatile stays.
#pragma once

namespace sgfpat {

inline void prefetch_line(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

// Starts loading the cache line holding `p` for a write soon after: the
// line comes exclusive, so the (atomic) addition that follows need not ask
// the other cores for it a second time.
inline void prefetch_line_for_write(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1);
#endif
}

}  // namespace sgfpat

// What a fuzz harness asserts about the code under test: a failed check
// prints the condition and its line (to tell findings apart) and aborts,
// which libFuzzer reports as a crash and the corpus replay
// (tests/test_fuzz_corpus.cpp) as a dead test.
#pragma once
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond);          \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

// The tests' main: doctest's, with the corpus cases kept apart.
//
//   test_x             every case; "corpus: ..." cases only when the corpus is there
//   test_x --plain     every case but the corpus ones (ctest's entry NAME)
//   test_x --corpus    only the corpus cases; exit 77 (ctest: skipped) without
//                      the corpus (ctest's entry NAME:corpus)
//
// Other arguments are doctest's own.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "corpus.h"

int main(int argc, char** argv) {
  bool plain = false, corpus = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--plain") == 0) {
      plain = true;
    } else if (i > 0 && std::strcmp(argv[i], "--corpus") == 0) {
      corpus = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  const bool present = testutil::have_corpus();
  doctest::Context context;
  if (corpus) {
    if (!present) {
      std::printf("skipped: the corpus cases need the corpus at %s (set SGFPAT_CORPUS_DIR)\n",
                  testutil::corpus_dir().c_str());
      return 77;
    }
    context.addFilter("test-case", "corpus: *");
  } else if (plain || !present) {
    if (!plain) std::printf("no corpus at %s: its cases are left out\n", testutil::corpus_dir().c_str());
    context.addFilter("test-case-exclude", "corpus: *");
  }
  context.applyCommandLine(int(args.size()), args.data());
  return context.run();
}

// Where the tests find their games.
//
// Everything that can be tested on small data uses the sample the project
// ships (data/tygem-sample.sgf.gz: 2,000 real games, one per line; see
// data/README.md).  Tests that need the large development corpus are doctest
// cases named "corpus: ..."; ctest runs them as their own entries
// (NAME:corpus), which report "skipped" (exit 77) when the corpus is absent.
// The corpus is the directory named by $SGFPAT_CORPUS_DIR, else the build's
// default (CMake's SGFPAT_CORPUS_DIR: ../shared/corpus beside the sources).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>

namespace testutil {

inline std::string corpus_dir() {
  const char* env = std::getenv("SGFPAT_CORPUS_DIR");
  return env && *env ? env : SGFPAT_CORPUS_DIR;
}

// The corpus is there when its README is (a stray empty folder is not one).
inline bool have_corpus() {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::path(corpus_dir()) / "README.md", ec);
}

// A file of the large corpus; only "corpus: ..." test cases may ask.
inline std::string corpus_path(const std::string& rel) { return corpus_dir() + "/" + rel; }

// The 2,000-game sample shipped in data/.
inline std::string sample_path() { return std::string(SGFPAT_SOURCE_DIR) + "/data/tygem-sample.sgf.gz"; }
inline constexpr size_t kSampleGames = 2000;

}  // namespace testutil

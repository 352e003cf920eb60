// The fuzzers' corpora (tests/fuzz_corpus/HARNESS/, the inputs libFuzzer
// kept and the ones that found bugs) replayed through their harnesses
// (tests/fuzz/HARNESS.cpp) in every build, without libFuzzer: a harness
// aborts on what it checks, and under SGFPAT_SANITIZE the sanitizers see
// each input too.  CMakeLists.txt compiles each harness into this test
// with its entry point renamed sgfpat_replay_HARNESS.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

extern "C" int sgfpat_replay_fuzz_sgf_parser(const uint8_t* data, size_t size);
extern "C" int sgfpat_replay_fuzz_game_reader(const uint8_t* data, size_t size);
extern "C" int sgfpat_replay_fuzz_priors_reader(const uint8_t* data, size_t size);
extern "C" int sgfpat_replay_fuzz_gtp(const uint8_t* data, size_t size);
extern "C" int sgfpat_replay_fuzz_serve_message(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

namespace {

using Entry = int (*)(const uint8_t*, size_t);

const std::map<std::string, Entry>& harnesses() {
  static const std::map<std::string, Entry> h = {
      {"fuzz_sgf_parser", sgfpat_replay_fuzz_sgf_parser},
      {"fuzz_game_reader", sgfpat_replay_fuzz_game_reader},
      {"fuzz_priors_reader", sgfpat_replay_fuzz_priors_reader},
      {"fuzz_gtp", sgfpat_replay_fuzz_gtp},
      {"fuzz_serve_message", sgfpat_replay_fuzz_serve_message},
  };
  return h;
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("fuzz corpora: every harness has a corpus and is replayed here") {
  const fs::path src = SGFPAT_SOURCE_DIR;
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(src / "tests/fuzz"))
    if (e.path().extension() == ".cpp" && e.path().stem().string().rfind("fuzz_", 0) == 0)
      found.push_back(e.path().stem().string());
  std::sort(found.begin(), found.end());
  std::vector<std::string> known;
  for (const auto& [name, entry] : harnesses()) known.push_back(name);
  CHECK(found == known);
  for (const std::string& name : known) {
    INFO(name);
    CHECK(fs::is_directory(src / "tests/fuzz_corpus" / name));
    CHECK(files_in(src / "tests/fuzz_corpus" / name).size() >= 4);
  }
}

TEST_CASE("fuzz corpora: every input passes its harness") {
  const fs::path corpus = fs::path(SGFPAT_SOURCE_DIR) / "tests/fuzz_corpus";
  for (const auto& [name, entry] : harnesses()) {
    size_t n = 0;
    for (const fs::path& f : files_in(corpus / name)) {
      INFO(f.string());
      std::ifstream in(f, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      CHECK(entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == 0);
      ++n;
    }
    MESSAGE(name << ": " << n << " inputs");
  }
}

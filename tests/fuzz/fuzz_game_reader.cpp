// libFuzzer target: arbitrary bytes as an input file (its name's extension
// chosen by the first byte) through GameTextReader and the parser: format
// detection, the Boost decompressors, the zstd frame check, libarchive and
// the splitter must report bad data as errors, never crash or throw.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_check.h"
#include "io/game_text_reader.h"
#include "sgf/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static const char* kExt[] = {".sgf", ".gz", ".bz2", ".xz", ".zst", ".tar", ".tgz", ".zip", ".dat"};
  std::string path = "/tmp/sgfpat-fuzz-reader-" + std::to_string(getpid()) + kExt[data[0] % 9];
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  std::fwrite(data + 1, 1, size - 1, f);
  std::fclose(f);

  uint64_t errors = 0;
  sgfpat::ReaderOptions opt;
  opt.max_game_bytes = 4096;
  opt.chunk_bytes = 1 + data[0] / 9 * 37;
  sgfpat::GameTextReader reader({path}, [&](const sgfpat::ReadError& e) {
    FUZZ_CHECK(e.message.find(path) == 0);  // every error names its file
    ++errors;
  }, opt);
  sgfpat::GameText text;
  sgfpat::Game game;
  while (reader.next(&text)) {
    FUZZ_CHECK(text.origin.file == path);
    (void)sgfpat::parse_game(text.text, &game);
  }
  sgfpat::ReadProgress p = reader.progress();
  FUZZ_CHECK(p.files_done == 1 && p.errors == errors);
  std::remove(path.c_str());
  return 0;
}

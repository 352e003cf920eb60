// libFuzzer target: arbitrary text as GTP command lines into the engine of
// `sgfpat gtp` (lib/gtp), with small budgets so that genmove stays fast.
// Every line must get exactly one well-formed response ("=" or "?", the id
// echoed, ending in a blank line), nothing may crash or grow without bound.
//
// Input: the first byte picks the rules (bit 0: atari-go) and the seed;
// the rest is the command lines, up to a line "%%" after which come the
// bytes of the file every `loadsgf` reads (its argument is replaced by
// that file's name, so that the fuzzer reaches the SGF replay, not the
// machine's files).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "gtp/engine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string_view sgf;
  const size_t sep = text.find("\n%%\n");
  if (sep != std::string_view::npos) {
    sgf = text.substr(sep + 4);
    text = text.substr(0, sep + 1);
  }
  const std::string path = "/tmp/sgfpat-fuzz-gtp-" + std::to_string(getpid()) + ".sgf";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  std::fwrite(sgf.data(), 1, sgf.size(), f);
  std::fclose(f);

  sgfpat::gtp::EngineOptions o;
  o.search.iterations = 8;
  o.search.threads = 1;
  o.search.seed = mode >> 1;
  o.search.max_tree_mb = 2;
  o.search.skip_own_eyes = true;
  o.search.reuse_tree = true;
  o.search.early_stop = true;
  o.score_playouts = 4;
  o.rules = (mode & 1) ? sgfpat::gtp::Rules::Atari : sgfpat::gtp::Rules::Chinese;
  o.atari.search.seconds = 0.05;
  o.atari.search.max_nodes = 2000;
  o.atari.search.table_mb = 1;
  sgfpat::gtp::Engine engine(nullptr, o);

  std::string response;
  size_t lines = 0;
  while (!text.empty() && lines < 200) {
    const size_t nl = text.find('\n');
    std::string line(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++lines;
    // loadsgf reads the input's own file, whatever name the line gives.
    const size_t at = line.find("loadsgf");
    if (at != std::string::npos) {
      size_t b = line.find_first_not_of(' ', at + 7);
      if (b != std::string::npos && b > at + 7) {
        size_t e = line.find_first_of(" \t#", b);
        line.replace(b, e == std::string::npos ? std::string::npos : e - b, path);
      }
    }
    response.clear();
    const bool more = engine.handle(line, &response);
    if (!response.empty()) {
      FUZZ_CHECK(response[0] == '=' || response[0] == '?');
      FUZZ_CHECK(response.size() >= 3 && response.compare(response.size() - 2, 2, "\n\n") == 0);
      FUZZ_CHECK(response.find("\n\n") == response.size() - 2);
    }
    const int n = engine.board().size();
    FUZZ_CHECK(n >= sgfpat::kMinBoardSize && n <= sgfpat::kMaxBoardSize);
    if (!more) break;
  }
  std::remove(path.c_str());
  return 0;
}

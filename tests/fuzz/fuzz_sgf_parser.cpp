// libFuzzer target: arbitrary bytes through the collection splitter (with a
// chunk size and size cap taken from the input, to reach the chunk-boundary
// and oversize paths) and every piece through the SGF parser.  Besides the
// sanitizers, it checks what parse_game promises about a parsed game: its
// moves and setup on the board, its text valid UTF-8.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "core/utf8.h"
#include "io/game_splitter.h"
#include "sgf/parser.h"

namespace {

class BytesSource : public sgfpat::ByteSource {
 public:
  BytesSource(std::string_view d, size_t step) : d_(d), step_(step) {}
  size_t read(char* buf, size_t n) override {
    size_t k = std::min({n, step_, d_.size() - pos_});
    std::copy(d_.data() + pos_, d_.data() + pos_ + k, buf);
    pos_ += k;
    return k;
  }

 private:
  std::string_view d_;
  size_t step_, pos_ = 0;
};

void parse_and_check(std::string_view text) {
  sgfpat::Game g;
  g.origin.file = "fuzz";
  sgfpat::Status s = sgfpat::parse_game(text, &g);
  FUZZ_CHECK(g.origin.file == "fuzz");
  if (!s.ok()) {
    FUZZ_CHECK(!s.message().empty());
    return;
  }
  // Text comes out as UTF-8 whatever the bytes and the charset (CA).
  for (const std::string* t : {&g.info.result, &g.info.black_name, &g.info.white_name, &g.info.black_rank,
                               &g.info.white_rank, &g.info.date, &g.info.rules, &g.info.name})
    FUZZ_CHECK(sgfpat::valid_utf8(*t));
  const int size = g.info.size;
  FUZZ_CHECK(size >= sgfpat::kMinBoardSize && size <= sgfpat::kMaxBoardSize);
  for (const sgfpat::Action& a : g.actions) {
    bool on_board = a.point.x >= 0 && a.point.y >= 0 && a.point.x < size && a.point.y < size;
    switch (a.kind) {
      case sgfpat::Action::Kind::Play:
        FUZZ_CHECK(a.color != sgfpat::Color::Empty && (a.point.is_pass() || on_board));
        break;
      case sgfpat::Action::Kind::Setup:
        FUZZ_CHECK(on_board);
        break;
      case sgfpat::Action::Kind::SetPlayer:
        FUZZ_CHECK(a.color != sgfpat::Color::Empty);
        break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  size_t chunk = 1 + data[0] % 64;
  size_t step = 1 + data[1] % 97;
  std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);

  parse_and_check(text);

  BytesSource src(text, step);
  sgfpat::GameSplitter splitter(/*max_game_bytes=*/512, chunk);
  splitter.reset(&src);
  std::string game, error;
  uint64_t index = 0, last = 0, count = 0;
  for (;;) {
    auto r = splitter.next(&game, &index, &error);
    if (r == sgfpat::GameSplitter::Result::End) break;
    FUZZ_CHECK(count == 0 || index >= last);
    last = index;
    ++count;
    if (r == sgfpat::GameSplitter::Result::Error) {
      FUZZ_CHECK(!error.empty());
      continue;
    }
    FUZZ_CHECK(game.size() >= 3 && game.size() <= 512 && game.front() == '(' && game.back() == ')');
    parse_and_check(game);
  }
  FUZZ_CHECK(splitter.bytes_read() == text.size());
  return 0;
}

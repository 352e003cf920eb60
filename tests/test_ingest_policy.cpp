// The ingest policy: the memory split of a budget and when counts are stale.
#include <doctest/doctest.h>

#include "count/played_sketch_file.h"
#include "ingest/ingest_policy.h"
#include "io/input_list.h"

using namespace sgfpat;

namespace {
constexpr size_t MiB = size_t(1) << 20;
}

TEST_CASE("memory split: RocksDB an eighth up to 256 MiB, counting the rest after the fixed part") {
  MemorySplit m = split_memory(2048 * MiB);  // the default
  CHECK(m.db_bytes == 256 * MiB);
  CHECK(m.count_bytes == (2048 - 256 - 192) * MiB);
  CHECK_FALSE(m.tight);

  m = split_memory(1024 * MiB);
  CHECK(m.db_bytes == 128 * MiB);
  CHECK(m.count_bytes == (1024 - 128 - 192) * MiB);

  m = split_memory(64 * 1024 * MiB);  // the cap
  CHECK(m.db_bytes == 256 * MiB);
  CHECK(m.count_bytes == (64 * 1024 - 256 - 192) * MiB);
}

TEST_CASE("memory split: a small budget keeps half for the fixed part and is flagged") {
  MemorySplit m = split_memory(256 * MiB);
  CHECK(m.db_bytes == 32 * MiB);
  CHECK(m.count_bytes == (256 - 32 - 128) * MiB);
  CHECK(m.tight);
  CHECK(split_memory(511 * MiB).tight);
  CHECK_FALSE(split_memory(512 * MiB).tight);

  m = split_memory(4 * MiB);  // the smallest --memory-mb allowed
  CHECK(m.db_bytes + m.count_bytes <= 4 * MiB);
  CHECK(m.count_bytes > 0);
}

TEST_CASE("the sketch made during an import: sized from the inputs' bytes, within half the counting share") {
  const MemorySplit m = split_memory(2048 * MiB);
  auto input = [](const char* path, uint64_t size) {
    InputFile f;
    f.path = path;
    f.size = size;
    return f;
  };
  // A few thousand games: not worth it, unless asked.
  const std::vector<InputFile> small = {input("a.sgf", 7 * MiB), input("b.sgf.gz", MiB)};
  CHECK(sketch_alongside_bytes(small, m, 10, 2) == 0);
  const size_t asked = sketch_alongside_bytes(small, m, 10, 2, true);
  CHECK(asked > 0);
  CHECK(asked == sketch_bytes_for(uint64_t((7.0 * MiB / 7.0 + MiB / 1.5) * 10), 2, m.count_bytes / 2));
  // Compressed bytes hold more moves than plain ones.
  const size_t xz = sketch_alongside_bytes({input("a.sgf.xz", 20 * MiB)}, m, 10, 2);
  const size_t gz = sketch_alongside_bytes({input("a.SGF.GZ", 20 * MiB)}, m, 10, 2);
  const size_t plain = sketch_alongside_bytes({input("a.sgf", 20 * MiB)}, m, 10, 2, true);
  CHECK(xz > gz);
  CHECK(gz > plain);
  // Large inputs: the whole share, never more.
  CHECK(sketch_alongside_bytes({input("big.tar.gz", 2048 * MiB)}, m, 10, 2) == m.count_bytes / 2);
  // stdin cannot be sized.
  CHECK(sketch_alongside_bytes({input("-", 0)}, m, 10, 2) == 0);
}

TEST_CASE("the run of position index entries during such an import gets what the sketch and the lists leave") {
  const MemorySplit m = split_memory(2048 * MiB);
  const size_t sketch = m.count_bytes / 2;
  CHECK(position_run_room(m, sketch / 4, 0) == m.position_run_bytes);  // never more than without the sketch
  const size_t a = position_run_room(m, sketch, 100 * MiB), b = position_run_room(m, sketch, 300 * MiB);
  CHECK(a < m.position_run_bytes);
  CHECK(a - b == 200 * MiB);
  CHECK(sketch + 300 * MiB + b + (m.count_bytes - sketch) / 10 == m.count_bytes);
  CHECK(position_run_room(m, sketch, m.count_bytes) == 32 * MiB);  // the lists took everything
}

TEST_CASE("counts are stale when asked, never made, or made over other games; never when empty") {
  CountState s;
  s.generation = 3;
  s.counted_games = 1000;
  s.stored_games = 1000;
  CHECK_FALSE(counts_stale(s));  // up to date

  CountState more = s;
  more.stored_games = 1001;
  CHECK(counts_stale(more));

  CountState asked = s;
  asked.recount_requested = true;
  CHECK(counts_stale(asked));

  CountState never = s;
  never.generation = 0;
  CHECK(counts_stale(never));

  CountState empty;
  empty.recount_requested = true;
  CHECK_FALSE(counts_stale(empty));  // nothing to count
}

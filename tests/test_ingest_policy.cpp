// The ingest policy: the memory split of a budget and when counts are stale.
#include <doctest/doctest.h>

#include "ingest/ingest_policy.h"

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

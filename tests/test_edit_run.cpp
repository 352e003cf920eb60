// store/edit_run.h and count/entry_buckets.h, the files a night spills to:
// what is written is read back, in order and whole; a run or a bucket file
// that is truncated or damaged is an error, never a shorter list.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "count/entry_buckets.h"
#include "store/edit_run.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {

struct Edit {
  TableOp op;
  std::string key, value;
};

std::vector<Edit> sample_edits(size_t n) {
  std::vector<Edit> edits;
  for (size_t i = 0; i < n; ++i) {
    std::string key = std::to_string(1000000 + i * 7);  // same length: in order as numbers
    const TableOp op = TableOp(i % 3);
    edits.push_back({op, key, op == TableOp::kDelete ? "" : std::string(i % 40, char('a' + i % 26))});
  }
  return edits;
}

void write_run(const std::string& path, const std::vector<Edit>& edits) {
  EditRunWriter w;
  REQUIRE(w.open(path).ok());
  for (const Edit& e : edits) w.add(e.op, e.key, e.value);
  REQUIRE(w.finish().ok());
}

// Reads the run whole: its status, and the edits read before it ended.
Status read_run(const std::string& path, std::vector<Edit>* out) {
  EditRunReader r;
  Status s = r.open(path);
  for (; s.ok() && r.valid(); r.next()) out->push_back({r.op(), std::string(r.key()), std::string(r.value())});
  return s.ok() ? r.status() : s;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void put_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("an edit run reads back what was written, in order") {
  TempDir tmp("sgfpat-edit-run");
  for (size_t n : {size_t(0), size_t(1), size_t(50000)}) {
    CAPTURE(n);
    const auto edits = sample_edits(n);
    write_run(tmp / "run", edits);
    std::vector<Edit> back;
    REQUIRE(read_run(tmp / "run", &back).ok());
    REQUIRE(back.size() == edits.size());
    for (size_t i = 0; i < n; ++i) {
      CHECK(back[i].op == edits[i].op);
      CHECK(back[i].key == edits[i].key);
      CHECK(back[i].value == edits[i].value);
    }
  }
}

TEST_CASE("an edit run with keys out of order is refused when written") {
  TempDir tmp("sgfpat-edit-run-order");
  EditRunWriter w;
  REQUIRE(w.open(tmp / "run").ok());
  w.add(TableOp::kPut, "b", "1");
  w.add(TableOp::kPut, "b", "2");  // not strictly increasing
  CHECK(w.finish().code() == Status::Code::kInternal);
}

TEST_CASE("a truncated or damaged edit run is Corruption, never a shorter run") {
  TempDir tmp("sgfpat-edit-run-damage");
  const std::string path = tmp / "run";
  write_run(path, sample_edits(2000));
  const std::string whole = file_bytes(path);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    std::string bytes = whole;
    if (trial % 2 == 0) {
      bytes.resize(std::uniform_int_distribution<size_t>(0, whole.size() - 1)(rng));  // cut anywhere
    } else {
      bytes[std::uniform_int_distribution<size_t>(0, whole.size() - 1)(rng)] ^= char(1 + trial % 200);
    }
    put_bytes(path, bytes);
    std::vector<Edit> back;
    const Status s = read_run(path, &back);
    CHECK(!s.ok());
    CHECK((s.code() == Status::Code::kCorruption));
  }
  put_bytes(path, whole + "x");  // bytes after its end
  std::vector<Edit> back;
  CHECK(read_run(path, &back).code() == Status::Code::kCorruption);
}

TEST_CASE("entry buckets give each bucket every entry its threads added, and notice a short file") {
  TempDir tmp("sgfpat-entry-buckets");
  EntryBuckets buckets(tmp / "f", 2);
  std::mt19937_64 rng(3);
  std::vector<std::vector<FrontierEntry>> want(kPartBuckets);
  for (int round = 0; round < 20; ++round)
    for (int t = 0; t < 2; ++t) {
      std::vector<FrontierEntry> batch;
      for (int i = 0; i < 500; ++i) {
        FrontierEntry e{1 + int(rng() % 10), rng(), {rng(), uint32_t(rng() % 400), bool(rng() & 1)}, rng() % 3 ? rng() : 0};
        batch.push_back(e);
        want[size_t(part_bucket(e.key))].push_back(e);
      }
      REQUIRE(buckets.add(t, batch).ok());
    }
  REQUIRE(buckets.flush().ok());
  CHECK(buckets.total() == 20u * 2u * 500u);
  for (int b = 0; b < kPartBuckets; ++b) {
    std::vector<FrontierEntry> got;
    REQUIRE(buckets.read(b, &got).ok());
    CHECK(buckets.size(b) == want[size_t(b)].size());
    std::sort(got.begin(), got.end());
    std::sort(want[size_t(b)].begin(), want[size_t(b)].end());
    CHECK(got == want[size_t(b)]);
  }
  // A bucket file cut short (as by a full disk noticed late) is reported.
  std::string victim;
  for (const auto& f : std::filesystem::directory_iterator(tmp.path()))
    if (std::filesystem::file_size(f.path()) > 0) victim = f.path();
  REQUIRE(!victim.empty());
  std::filesystem::resize_file(victim, std::filesystem::file_size(victim) - 1);
  bool reported = false;
  for (int b = 0; b < kPartBuckets; ++b) {
    std::vector<FrontierEntry> got;
    const Status s = buckets.read(b, &got);
    if (!s.ok()) {
      CHECK(s.code() == Status::Code::kCorruption);
      reported = true;
    }
  }
  CHECK(reported);
}

TEST_CASE("entry buckets carry each entry's keys with it") {
  TempDir tmp("sgfpat-entry-buckets-keys");
  constexpr size_t kKeys = 3;
  EntryBuckets buckets(tmp / "f", 1, kKeys);
  std::mt19937_64 rng(9);
  std::vector<FrontierEntry> entries(5000);
  std::vector<uint64_t> keys;
  for (FrontierEntry& e : entries) {
    e = FrontierEntry{1 + int(rng() % 10), rng(), {rng(), uint32_t(rng() % 400), false}, 0};
    // Keys that name their entry: what was read back must agree.
    for (size_t k = 0; k < kKeys; ++k) keys.push_back(e.key ^ (k + 1));
  }
  CHECK(buckets.add(0, entries, std::span(keys).first(keys.size() - 1)).code() == Status::Code::kInternal);
  REQUIRE(buckets.add(0, entries, keys).ok());
  REQUIRE(buckets.flush().ok());
  uint64_t seen = 0;
  for (int b = 0; b < kPartBuckets; ++b) {
    std::vector<FrontierEntry> got;
    std::vector<uint64_t> got_keys;
    REQUIRE(buckets.read(b, &got, &got_keys).ok());
    REQUIRE(got_keys.size() == got.size() * kKeys);
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(part_bucket(got[i].key) == b);
      for (size_t k = 0; k < kKeys; ++k) CHECK(got_keys[i * kKeys + k] == (got[i].key ^ (k + 1)));
    }
    seen += got.size();
  }
  CHECK(seen == entries.size());
}

// lib/export: the rates and their text, the pattern table, the TSV writer;
// and the atomic output file they are written through.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/pattern_table.h"
#include "export/rates.h"
#include "export/text_format.h"
#include "export/tsv_writer.h"
#include "io/atomic_file.h"
#include "pattern/diamond.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {
std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// A pattern string of `level` (its level_points) from a repeating motif.
std::string motif(int level, const std::string& m) {
  std::string s;
  while (int(s.size()) < level_points(level)) s += m;
  s.resize(size_t(level_points(level)));
  return s;
}
}  // namespace

TEST_CASE("wilson95: textbook values and the edges") {
  Interval a = wilson95(5, 10);
  CHECK(a.low == doctest::Approx(0.236593).epsilon(1e-5));
  CHECK(a.high == doctest::Approx(0.763407).epsilon(1e-5));
  Interval z = wilson95(0, 10);
  CHECK(z.low == 0.0);
  CHECK(z.high == doctest::Approx(0.277533).epsilon(1e-5));
  Interval all = wilson95(10, 10);
  CHECK(all.high == doctest::Approx(1.0));
  CHECK(all.low == doctest::Approx(1 - 0.277533).epsilon(1e-5));
  Interval none = wilson95(0, 0);
  CHECK(none.low == 0.0);
  CHECK(none.high == 1.0);
  // Narrows with n around the same rate.
  Interval big = wilson95(50000, 100000);
  CHECK(big.low > 0.49);
  CHECK(big.high < 0.51);
  CHECK(big.low < 0.5);
  CHECK(big.high > 0.5);
}

TEST_CASE("rates as text") {
  CHECK(rate(1, 4) == 0.25);
  CHECK(rate(3, 0) == 0.0);
  CHECK(percent_text(0.1234) == "12.34%");
  CHECK(percent_text(0.0000397) == "0.00397%");
  CHECK(percent_text(0) == "0.00%");
  CHECK(percent_text(1) == "100.00%");
  CHECK(wilson95_text(5, 10) == "[23.66%, 76.34%]");
  CHECK(wilson95_text(0, 0) == "[0.00%, 100.00%]");
}

TEST_CASE("format_text and key_hex") {
  CHECK(format_text("%5s|%-3d|", "ab", 7) == "   ab|7  |");
  const std::string long_text = format_text("%s-%s", std::string(700, 'x').c_str(), std::string(300, 'y').c_str());
  CHECK(long_text.size() == 1001);
  CHECK(long_text.substr(698, 4) == "xx-y");
  CHECK(key_hex(0) == "0000000000000000");
  CHECK(key_hex(0x0123456789abcdefULL) == "0123456789abcdef");
}

TEST_CASE("pattern table: find, strings packed and read back, missing per level") {
  PatternTable t(2);
  for (uint64_t k = 1; k <= 300; ++k) t.add(1, k * 0x1000, PatternCounts{k, 10 * k, k / 2});
  t.add(2, 77, PatternCounts{2, 3, 1});
  t.seal();
  CHECK(t.total() == 301);
  CHECK(t.missing() == 301);
  CHECK(t.find(1, 5 * 0x1000) == 4);
  CHECK(t.find(1, 5 * 0x1000 + 1) == -1);
  CHECK(t.find(2, 77) == 0);
  CHECK(t.find(2, 78) == -1);
  CHECK(t.counts(1, 4).seen == 50);
  const std::string p1 = motif(1, "X.O#");
  CHECK_FALSE(t.has_string(1, 4));
  CHECK(t.string(1, 4).empty());
  t.set_string(1, 4, p1);
  CHECK(t.has_string(1, 4));
  CHECK(t.string(1, 4) == p1);
  CHECK(t.missing() == 300);
  CHECK(t.missing(1) == 299);
  CHECK(t.missing(2) == 1);
  t.set_string(1, 4, p1);  // again: still one found
  CHECK(t.missing() == 300);
}

TEST_CASE("TSV writer: the spec's header and one line per pattern, level by level") {
  PatternTable t(2);
  t.add(1, 0x10, PatternCounts{3, 40, 2});
  t.add(1, 0xff00000000000001ULL, PatternCounts{18446744073709551615ULL, 5, 0});
  t.add(2, 0x2a, PatternCounts{2, 2, 2});
  t.seal();
  const std::string a = motif(1, "X."), b = motif(1, "O#"), c = motif(2, ".XO");
  t.set_string(1, 0, a);
  t.set_string(1, 1, b);
  t.set_string(2, 0, c);
  TempDir tmp;
  const auto path = std::filesystem::path(tmp.path()) / "out.tsv";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  std::vector<uint64_t> written;
  CHECK(write_pattern_tsv(t, f, &written).ok());
  std::fclose(f);
  CHECK(written == std::vector<uint64_t>{2, 1});
  CHECK(slurp(path) == std::string("level\tkey\tplayed\tseen\twins\tpattern\n") +
                           "1\t0000000000000010\t3\t40\t2\t" + a + "\n" +
                           "1\tff00000000000001\t18446744073709551615\t5\t0\t" + b + "\n" +
                           "2\t000000000000002a\t2\t2\t2\t" + c + "\n");
}

TEST_CASE("TSV writer reports a write error") {
  PatternTable t(1);
  t.add(1, 1, PatternCounts{2, 2, 1});
  t.seal();
  std::FILE* full = std::fopen("/dev/full", "wb");
  REQUIRE_MESSAGE(full != nullptr, "/dev/full cannot be opened");
  std::vector<uint64_t> written;
  Status st = write_pattern_tsv(t, full, &written);
  std::fclose(full);
  CHECK_FALSE(st.ok());
}

TEST_CASE("atomic file: the target changes only on commit, whole") {
  TempDir tmp;
  const auto path = std::filesystem::path(tmp.path()) / "target";
  { std::ofstream(path) << "old"; }
  {
    AtomicFile f;
    REQUIRE(f.open(path.string()).ok());
    f.write("new content", 11);
    f.write_at(0, "N", 1);
    CHECK(f.offset() == 11);
    CHECK(slurp(path) == "old");  // not yet
    CHECK(std::filesystem::exists(f.temp_path()));
    CHECK(f.commit().ok());
  }
  CHECK(slurp(path) == "New content");
  {
    AtomicFile f;
    REQUIRE(f.open(path.string()).ok());
    f.write("abandoned", 9);
  }  // dropped without commit
  CHECK(slurp(path) == "New content");
  size_t entries = 0;
  for (auto& e : std::filesystem::directory_iterator(tmp.path())) entries += e.exists();
  CHECK(entries == 1);  // no temporary left
  AtomicFile bad;
  CHECK_FALSE(bad.open((std::filesystem::path(tmp.path()) / "no-such-dir" / "x").string()).ok());
  CHECK_FALSE(bad.commit().ok());
}

TEST_CASE("atomic file: a directory as target is refused and left alone") {
  // A directory cannot be replaced by a file: open() refuses it before
  // anything is written, and no temporary is left beside it.
  TempDir tmp;
  const auto dir = std::filesystem::path(tmp.path()) / "adir";
  std::filesystem::create_directory(dir);
  std::filesystem::create_directory(dir / "inside");
  AtomicFile f;
  Status st = f.open(dir.string());
  CHECK(st.is_invalid_argument());
  CHECK_FALSE(f.commit().ok());
  CHECK(std::filesystem::is_directory(dir / "inside"));
  size_t entries = 0;
  for (auto& e : std::filesystem::directory_iterator(tmp.path())) entries += e.exists();
  CHECK(entries == 1);
}

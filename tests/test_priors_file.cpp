// Opening priors files inside sgfpat (priors/priors_file.h): the drop-in
// reader's version numbers are kPriorsFormat's, a version this sgfpat does
// not read is refused by check_format_version(), and the reader's other
// refusals become Status codes.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

#include "core/format_version.h"
#include "priors/priors_file.h"
#include "priors/sgfpat_features.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {
// A whole priors file of one empty level and 8 bytes of data, version `version`.
std::string tiny_priors(uint32_t version) {
  sgfpat_priors::Header h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, sgfpat_priors::kMagic, 8);
  h.version = version;
  h.header_bytes = sgfpat_priors::kHeaderBytes;
  h.file_bytes = sgfpat_priors::kHeaderBytes + 8;
  h.byte_order = sgfpat_priors::kByteOrderMark;
  h.levels = 1;
  h.level[0].buckets_offset = h.level[0].counts_offset = sgfpat_priors::kHeaderBytes;
  const char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  h.data_checksum = sgfpat_priors::checksum64(data, 8);
  h.header_checksum = sgfpat_priors::checksum64(&h, sizeof h);
  std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
  return bytes + std::string(data, 8);
}
}  // namespace

TEST_CASE("priors format version: the drop-in reader's constants are kPriorsFormat's") {
  CHECK(sgfpat_priors::kVersion == kPriorsFormat.current);
  CHECK(sgfpat_priors::kOldestVersion == kPriorsFormat.oldest);
}

TEST_CASE("open_priors: versions oldest..current open; others refused by check_format_version") {
  TempDir dir("sgfpat-priors-file");
  for (uint32_t v = kPriorsFormat.oldest; v <= kPriorsFormat.current; ++v) {
    INFO("version " << v);
    testutil::write_file(dir / "p.priors", tiny_priors(v));
    sgfpat_priors::Priors p;
    REQUIRE(open_priors(dir / "p.priors", /*verify=*/true, &p).ok());
    CHECK(p.levels() == 1);
    CHECK(p.count(1) == 0);
  }
  for (uint32_t v : {kPriorsFormat.oldest - 1, kPriorsFormat.current + 1, 1000u}) {
    INFO("version " << v);
    testutil::write_file(dir / "p.priors", tiny_priors(v));
    sgfpat_priors::Priors p;
    Status st = open_priors(dir / "p.priors", false, &p);
    CHECK(st.is_not_supported());
    CHECK(st.message() == check_format_version(kPriorsFormat, v, dir / "p.priors").message());
    CHECK_FALSE(p.is_open());
  }
}

TEST_CASE("open_priors: missing is NotFound; foreign, truncated or damaged is Corruption") {
  TempDir dir("sgfpat-priors-file");
  sgfpat_priors::Priors p;
  CHECK(open_priors(dir / "none.priors", false, &p).is_not_found());
  testutil::write_file(dir / "text.priors", std::string(2000, 'x'));
  CHECK(open_priors(dir / "text.priors", false, &p).is_corruption());
  const std::string good = tiny_priors(kPriorsFormat.current);
  testutil::write_file(dir / "short.priors", good.substr(0, good.size() - 1));
  CHECK(open_priors(dir / "short.priors", false, &p).is_corruption());
  std::string damaged = good;
  damaged.back() ^= 1;  // in the data: only the checksum of verify sees it
  testutil::write_file(dir / "damaged.priors", damaged);
  CHECK(open_priors(dir / "damaged.priors", false, &p).ok());
  CHECK(open_priors(dir / "damaged.priors", true, &p).is_corruption());
}

TEST_CASE("set_pattern_groups: the pattern bin of the rate and the level, nothing else") {
  uint8_t levels[sgfpat_priors::kFeatureGroups] = {};
  levels[sgfpat_priors::kCapture] = 2;
  sgfpat_priors::set_pattern_groups(0.25, 7, levels);
  CHECK(levels[sgfpat_priors::kPatternBin] == 8);  // 4 bins an octave, 2 octaves below 1
  CHECK(levels[sgfpat_priors::kLevel] == 7);
  CHECK(levels[sgfpat_priors::kCapture] == 2);
  sgfpat_priors::set_pattern_groups(0, 0, levels);
  CHECK(levels[sgfpat_priors::kPatternBin] == sgfpat_priors::kGroupLevels[sgfpat_priors::kPatternBin] - 1);
}

// The drop-in promise: the two headers, copied beside each other into a
// folder of their own, compile as C++17 with the standard library alone.
TEST_CASE("sgfpat_priors.h and sgfpat_features.h compile alone, copied beside each other") {
  TempDir dir("sgfpat-dropin");
  for (const char* name : {"sgfpat_priors.h", "sgfpat_features.h"})
    testutil::write_file(dir / name, testutil::read_file(std::string(SGFPAT_SOURCE_DIR) + "/lib/priors/" + name));
  testutil::write_file(dir / "engine.cpp", R"(#include "sgfpat_features.h"
#include <cmath>
double score(const sgfpat_priors::Priors& priors, const uint8_t* board, int point) {
  sgfpat_priors::Tactics tactics;
  tactics.setup(board, 9, 1, -1, -1);
  uint8_t levels[sgfpat_priors::kFeatureGroups] = {};
  tactics.compute(point, levels);
  sgfpat_priors::set_pattern_groups(priors.base_rate(), 0, levels);
  return priors.model() ? std::exp(sgfpat_priors::log_strength(*priors.model(), levels)) : 1.0;
}
)");
  const std::string cmd = std::string(SGFPAT_CXX) + " -std=c++17 -Wall -Wextra -Werror -fsyntax-only " +
                          dir / "engine.cpp" + " > " + dir / "cc.log" + " 2>&1";
  const int rc = std::system(cmd.c_str());
  INFO(testutil::read_file(dir / "cc.log"));
  CHECK(rc == 0);
}

// The count summary record: encode/decode round trips, the JSON of earlier
// versions still reads, damage is an error and never an empty summary.
#include <doctest/doctest.h>

#include "core/coding.h"
#include "store/count_summary.h"

using namespace sgfpat;

namespace {
CountSummary sample() {
  CountSummary s;
  s.games = 1000;
  s.positions = 201234;
  s.candidates = 51234567890ULL;
  s.patterns_per_level = {40, 1234, 56789, 0, 7};
  s.sketch_fill = 0.3125;
  s.sketch_bytes = 1 << 20;
  s.drains = 17;
  s.pruned = 321;
  s.mode = CountMode::kDraining;
  s.kept_keys = 99;
  s.seconds_pass1 = 1.25;
  s.seconds_pass2 = 2.5e-3;
  s.seconds_commit = 0.1;  // not exact in binary: must survive bit for bit
  s.new_games = 37;
  s.joined_patterns = 2377;
  s.replayed_games = 963;
  s.seconds_crossing = 0.7;
  s.parts = 6;
  s.seconds_listing = 0.3;
  s.part_relists = 2;
  s.resumed_parts = 3;
  return s;
}
}  // namespace

TEST_CASE("summary round trip, every field") {
  const CountSummary s = sample();
  const std::string bytes = encode_summary(s);
  CHECK(uint8_t(bytes[0]) == kSummaryFormat);
  CountSummary back;
  REQUIRE(decode_summary(bytes, &back).ok());
  CHECK(back == s);
  CHECK(back.seconds_commit == 0.1);
  // And an empty one (a count of no level).
  CountSummary empty;
  empty.mode = CountMode::kResident;
  REQUIRE(decode_summary(encode_summary(empty), &back).ok());
  CHECK(back == empty);
}

TEST_CASE("no summary stored: an empty summary") {
  CountSummary back = sample();
  REQUIRE(decode_summary("", &back).ok());
  CHECK(back == CountSummary{});
}

TEST_CASE("the JSON summary of earlier versions reads as before") {
  // As recount() wrote it before the record was typed (a resident run).
  const std::string old =
      R"({"candidates":9876543,"flushes":1,"games":1000,"kept_keys":4242,"mode":"resident",)"
      R"("patterns_per_level":[41,2000,3000],"positions":201234,"pruned":12,)"
      R"("seconds":{"commit":0.5,"pass1":1.5,"pass2":2.5},"sketch_bytes":4096,"sketch_fill":0.25})";
  CountSummary s;
  REQUIRE(decode_summary(old, &s).ok());
  CHECK(s.games == 1000);
  CHECK(s.positions == 201234);
  CHECK(s.candidates == 9876543);
  CHECK(s.patterns_per_level == std::vector<uint64_t>{41, 2000, 3000});
  CHECK(s.mode == CountMode::kResident);
  CHECK(s.drains == 0);  // a resident run drains nothing (the old "flushes" said 1)
  CHECK(s.kept_keys == 4242);
  CHECK(s.pruned == 12);
  CHECK(s.sketch_bytes == 4096);
  CHECK(s.sketch_fill == 0.25);
  CHECK(s.seconds_pass1 == 1.5);
  CHECK(s.seconds_pass2 == 2.5);
  CHECK(s.seconds_commit == 0.5);
  // A draining run keeps its count of drains.
  REQUIRE(decode_summary(R"({"games":3,"mode":"draining","flushes":9})", &s).ok());
  CHECK(s.games == 3);
  CHECK(s.drains == 9);
  CHECK(s.mode == CountMode::kDraining);
}

TEST_CASE("damaged summaries are errors") {
  CountSummary s;
  const std::string good = encode_summary(sample());
  // Cut anywhere inside: never decodes as something else silently.
  for (size_t n = 2; n < good.size(); ++n) {
    Status st = decode_summary(std::string_view(good).substr(0, n), &s);
    if (st.ok()) CHECK(s != sample());  // a cut between fields reads fewer fields
  }
  // Some cuts must fail: inside the per-level list.
  std::string cut(1, char(kSummaryFormat));
  put_varint32(&cut, 4);  // the per-level list: 5 announced, 2 given
  put_varint64(&cut, 5);
  put_varint64(&cut, 40);
  put_varint64(&cut, 1234);
  CHECK(decode_summary(cut, &s).is_corruption());
  CHECK_FALSE(decode_summary(good.substr(0, good.size() - 3), &s).ok());  // inside the last real number
  CHECK(decode_summary(std::string(1, char(kSummaryFormat + 1)), &s).is_not_supported());  // a later format
  std::string unknown_tag(1, char(kSummaryFormat));
  put_varint32(&unknown_tag, 99);
  put_varint64(&unknown_tag, 1);
  CHECK(decode_summary(unknown_tag, &s).is_not_supported());
  std::string bad_mode(1, char(kSummaryFormat));
  put_varint32(&bad_mode, 9);
  put_varint64(&bad_mode, 7);
  CHECK_FALSE(decode_summary(bad_mode, &s).ok());
  std::string huge_list(1, char(kSummaryFormat));
  put_varint32(&huge_list, 4);
  put_varint64(&huge_list, uint64_t(1) << 40);
  CHECK_FALSE(decode_summary(huge_list, &s).ok());
  CHECK_FALSE(decode_summary("{not json", &s).ok());
  CHECK_FALSE(decode_summary("[1,2]", &s).ok());
  CHECK_FALSE(decode_summary(R"({"games":"many"})", &s).ok());
}

#include "store/count_summary.h"

#include <bit>
#include <nlohmann/json.hpp>

#include "core/coding.h"

namespace sgfpat {

namespace {
// Tag numbers are part of the stored format: never reuse one.
enum Tag : uint32_t {
  kGames = 1,
  kPositions = 2,
  kCandidates = 3,
  kPatternsPerLevel = 4,
  kSketchFill = 5,
  kSketchBytes = 6,
  kDrains = 7,
  kPruned = 8,
  kMode = 9,
  kKeptKeys = 10,
  kSecondsPass1 = 11,
  kSecondsPass2 = 12,
  kSecondsCommit = 13,
  kNewGames = 14,
  kJoinedPatterns = 15,
  kReplayedGames = 16,
  kSecondsCrossing = 17,
  kParts = 18,
  kSecondsListing = 19,
  kPartRelists = 20,
  kResumedParts = 21,
  kNights = 22,
  kPendingPatterns = 23,
  kFrontierEntries = 24,
  kCatchups = 25,
  kKeptFilterBits = 26,
  kFilterDropped = 27,
  kFrontierPasses = 28,
  kCrossingParts = 29,
};
// A per-level list longer than this is damage, not data.
constexpr uint64_t kMaxLevelsInSummary = 64;

void put_tagged(std::string* out, Tag tag, uint64_t v) {
  put_varint32(out, tag);
  put_varint64(out, v);
}
void put_tagged_real(std::string* out, Tag tag, double v) {
  put_varint32(out, tag);
  put_fixed64(out, std::bit_cast<uint64_t>(v));
}

// The JSON object written by earlier versions (keys as they wrote them).
Status decode_legacy_json(std::string_view text, CountSummary* s) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::Corruption("count summary: neither a summary record nor JSON");
  try {
    s->games = j.value("games", uint64_t(0));
    s->positions = j.value("positions", uint64_t(0));
    s->candidates = j.value("candidates", uint64_t(0));
    if (j.contains("patterns_per_level")) s->patterns_per_level = j["patterns_per_level"].get<std::vector<uint64_t>>();
    s->sketch_fill = j.value("sketch_fill", 0.0);
    s->sketch_bytes = j.value("sketch_bytes", uint64_t(0));
    s->drains = j.value("drains", j.value("flushes", uint64_t(0)));
    s->pruned = j.value("pruned", uint64_t(0));
    const std::string mode = j.value("mode", std::string());
    s->mode = mode == "resident" ? CountMode::kResident : mode == "draining" ? CountMode::kDraining : CountMode::kNone;
    // Resident runs of earlier versions recorded one "flush".
    if (s->mode == CountMode::kResident) s->drains = 0;
    s->kept_keys = j.value("kept_keys", uint64_t(0));
    if (j.contains("seconds") && j["seconds"].is_object()) {
      const auto& t = j["seconds"];
      s->seconds_pass1 = t.value("pass1", 0.0);
      s->seconds_pass2 = t.value("pass2", 0.0);
      s->seconds_commit = t.value("commit", 0.0);
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::Corruption(std::string("count summary (JSON): ") + e.what());
  }
  return Status::OK();
}
}  // namespace

const char* count_mode_name(CountMode mode) {
  switch (mode) {
    case CountMode::kResident: return "resident";
    case CountMode::kDraining: return "draining";
    case CountMode::kIncremental: return "incremental";
    case CountMode::kSharded: return "sharded";
    case CountMode::kParts: return "parts";
    case CountMode::kNight: return "night";
    case CountMode::kNone: break;
  }
  return "";
}

std::string encode_summary(const CountSummary& s) {
  std::string out(1, char(kSummaryFormat));
  put_tagged(&out, kGames, s.games);
  put_tagged(&out, kPositions, s.positions);
  put_tagged(&out, kCandidates, s.candidates);
  put_varint32(&out, kPatternsPerLevel);
  put_varint64(&out, s.patterns_per_level.size());
  for (uint64_t n : s.patterns_per_level) put_varint64(&out, n);
  put_tagged_real(&out, kSketchFill, s.sketch_fill);
  put_tagged(&out, kSketchBytes, s.sketch_bytes);
  put_tagged(&out, kDrains, s.drains);
  put_tagged(&out, kPruned, s.pruned);
  put_tagged(&out, kMode, uint64_t(s.mode));
  put_tagged(&out, kKeptKeys, s.kept_keys);
  put_tagged_real(&out, kSecondsPass1, s.seconds_pass1);
  put_tagged_real(&out, kSecondsPass2, s.seconds_pass2);
  put_tagged_real(&out, kSecondsCommit, s.seconds_commit);
  put_tagged(&out, kNewGames, s.new_games);
  put_tagged(&out, kJoinedPatterns, s.joined_patterns);
  put_tagged(&out, kReplayedGames, s.replayed_games);
  put_tagged_real(&out, kSecondsCrossing, s.seconds_crossing);
  if (s.parts) put_tagged(&out, kParts, s.parts);
  if (s.parts) put_tagged_real(&out, kSecondsListing, s.seconds_listing);
  if (s.part_relists) put_tagged(&out, kPartRelists, s.part_relists);
  if (s.resumed_parts) put_tagged(&out, kResumedParts, s.resumed_parts);
  if (s.nights) put_tagged(&out, kNights, s.nights);
  if (s.pending_patterns) put_tagged(&out, kPendingPatterns, s.pending_patterns);
  if (s.frontier_entries) put_tagged(&out, kFrontierEntries, s.frontier_entries);
  if (s.catchups) put_tagged(&out, kCatchups, s.catchups);
  if (s.kept_filter_bits) put_tagged(&out, kKeptFilterBits, s.kept_filter_bits);
  if (s.filter_dropped) put_tagged(&out, kFilterDropped, s.filter_dropped);
  if (s.frontier_passes) put_tagged(&out, kFrontierPasses, s.frontier_passes);
  if (s.crossing_parts) put_tagged(&out, kCrossingParts, s.crossing_parts);
  return out;
}

bool is_legacy_summary(std::string_view bytes) { return !bytes.empty() && bytes.front() == '{'; }

Status decode_summary(std::string_view in, CountSummary* s) {
  *s = CountSummary{};
  if (in.empty()) return Status::OK();
  if (is_legacy_summary(in)) return decode_legacy_json(in, s);
  Status version = check_format_version(kCountSummaryFormat, uint8_t(in.front()), "count summary");
  if (!version.ok()) return version;
  in.remove_prefix(1);
  auto bad = [](const char* what) { return Status::Corruption(std::string("count summary: corrupt ") + what); };
  while (!in.empty()) {
    uint32_t tag = 0;
    if (!get_varint32(&in, &tag)) return bad("tag");
    uint64_t v = 0;
    double* real = nullptr;
    switch (tag) {
      case kSketchFill: real = &s->sketch_fill; break;
      case kSecondsPass1: real = &s->seconds_pass1; break;
      case kSecondsPass2: real = &s->seconds_pass2; break;
      case kSecondsCommit: real = &s->seconds_commit; break;
      case kSecondsCrossing: real = &s->seconds_crossing; break;
      case kSecondsListing: real = &s->seconds_listing; break;
      default: break;
    }
    if (real) {
      if (!get_fixed64(&in, &v)) return bad("number");
      *real = std::bit_cast<double>(v);
      continue;
    }
    if (!get_varint64(&in, &v)) return bad("number");
    switch (tag) {
      case kGames: s->games = v; break;
      case kPositions: s->positions = v; break;
      case kCandidates: s->candidates = v; break;
      case kSketchBytes: s->sketch_bytes = v; break;
      case kDrains: s->drains = v; break;
      case kPruned: s->pruned = v; break;
      case kKeptKeys: s->kept_keys = v; break;
      case kNewGames: s->new_games = v; break;
      case kJoinedPatterns: s->joined_patterns = v; break;
      case kReplayedGames: s->replayed_games = v; break;
      case kParts: s->parts = v; break;
      case kPartRelists: s->part_relists = v; break;
      case kResumedParts: s->resumed_parts = v; break;
      case kNights: s->nights = v; break;
      case kPendingPatterns: s->pending_patterns = v; break;
      case kFrontierEntries: s->frontier_entries = v; break;
      case kCatchups: s->catchups = v; break;
      case kKeptFilterBits: s->kept_filter_bits = v; break;
      case kFilterDropped: s->filter_dropped = v; break;
      case kFrontierPasses: s->frontier_passes = v; break;
      case kCrossingParts: s->crossing_parts = v; break;
      case kMode:
        if (v > uint64_t(CountMode::kNight)) return bad("mode");
        s->mode = CountMode(v);
        break;
      case kPatternsPerLevel:
        if (v > kMaxLevelsInSummary) return bad("level list");
        s->patterns_per_level.assign(size_t(v), 0);
        for (uint64_t& n : s->patterns_per_level)
          if (!get_varint64(&in, &n)) return bad("level list");
        break;
      default: return Status::NotSupported("count summary: unknown field " + std::to_string(tag));
    }
  }
  return Status::OK();
}

}  // namespace sgfpat

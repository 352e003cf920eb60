#include "count/parts_progress.h"

#include <bit>

#include "core/coding.h"
#include "count/part_range.h"

namespace sgfpat {

std::string encode_parts_progress(const PartsProgress& p) {
  std::string out(1, char(kPartsProgressFormat));
  put_varint32(&out, p.gen);
  put_varint64(&out, p.games);
  put_varint64(&out, p.moves);
  put_varint32(&out, p.split_level);
  put_fixed64(&out, p.next);
  out.push_back(p.done ? 1 : 0);
  put_fixed64(&out, std::bit_cast<uint64_t>(p.width));
  put_length_prefixed(&out, encode_summary(p.summary));
  return out;
}

Status decode_parts_progress(std::string_view in, PartsProgress* p) {
  *p = PartsProgress{};
  auto bad = [](const char* what) { return Status::Corruption(std::string("count progress: corrupt ") + what); };
  if (in.empty()) return bad("record (empty)");
  const uint8_t format = uint8_t(in.front());
  Status version = check_format_version(kCountProgressFormat, format, "count progress");
  if (!version.ok()) return version;
  in.remove_prefix(1);
  uint64_t width = 0;
  std::string_view summary;
  if (!get_varint32(&in, &p->gen) || !get_varint64(&in, &p->games) || !get_varint64(&in, &p->moves))
    return bad("position");
  if (format == kPartsProgressFormat1) {
    p->split_level = 3;  // what its ranges cut (not recorded then)
  } else if (!get_varint32(&in, &p->split_level)) {
    return bad("position");
  }
  if (!get_fixed64(&in, &p->next)) return bad("position");
  if (in.empty() || uint8_t(in.front()) > 1) return bad("flag");
  p->done = in.front() == 1;
  in.remove_prefix(1);
  if (!get_fixed64(&in, &width)) return bad("width");
  p->width = std::bit_cast<double>(width);
  if (!get_length_prefixed(&in, &summary)) return bad("summary");
  if (!in.empty()) return bad("record (bytes after its end)");
  Status s = decode_summary(summary, &p->summary);
  return s.ok() ? s : s.with_context("count progress");
}

Status usable_parts_progress(PatternDb& db, PartsProgress* p, bool* usable) {
  *usable = false;
  std::string record;
  Status s = db.count_progress(&record);
  if (!s.ok() || record.empty()) return s;
  if (!decode_parts_progress(record, p).ok()) return Status::OK();
  *usable = p->gen == db.generation() + 1 && p->games == db.game_count() && p->moves == db.move_count() &&
            p->split_level == uint32_t(kSplitLevel) && p->summary.games == p->games &&
            p->summary.mode == CountMode::kParts && p->width > 0;
  return Status::OK();
}

}  // namespace sgfpat

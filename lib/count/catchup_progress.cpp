#include "count/catchup_progress.h"

#include "core/coding.h"
#include "core/format_version.h"
#include "core/hash.h"

namespace sgfpat {

namespace {
constexpr uint8_t kFormat = uint8_t(kCatchupProgressFormat.current);
}  // namespace

std::string encode_catchup_progress(const CatchupProgress& p) {
  std::string out(1, char(kFormat));
  put_fixed32(&out, p.generation);
  put_fixed64(&out, p.games);
  put_fixed64(&out, p.pending_digest);
  put_fixed64(&out, p.games_done);
  put_fixed64(&out, p.counts.size());
  for (const PatternCounts& c : p.counts) {
    put_varint64(&out, c.played);
    put_varint64(&out, c.seen);
    put_varint64(&out, c.wins);
  }
  return out;
}

bool decode_catchup_progress(std::string_view in, CatchupProgress* p) {
  *p = CatchupProgress{};
  if (in.empty() || uint8_t(in[0]) != kFormat) return false;
  in.remove_prefix(1);
  uint64_t n = 0;
  if (!get_fixed32(&in, &p->generation) || !get_fixed64(&in, &p->games) || !get_fixed64(&in, &p->pending_digest) ||
      !get_fixed64(&in, &p->games_done) || !get_fixed64(&in, &n) || n > in.size())
    return false;
  p->counts.resize(size_t(n));
  for (PatternCounts& c : p->counts)
    if (!get_varint64(&in, &c.played) || !get_varint64(&in, &c.seen) || !get_varint64(&in, &c.wins)) return false;
  return in.empty();
}

uint64_t pending_digest(const std::vector<PendingPattern>& sorted) {
  uint64_t h = 0x9e3779b97f4a7c15ULL * (sorted.size() + 1);
  for (const PendingPattern& p : sorted)
    for (uint64_t v : {uint64_t(p.level), p.key, p.played, p.wins}) h = mix64(h ^ v) + 0x9e3779b97f4a7c15ULL;
  return h;
}

}  // namespace sgfpat

#include "store/game_record.h"

#include <cstring>

namespace sgfpat {

namespace {
constexpr uint8_t kRecordVersion = 1;

// Action as 16 bits: kind (2) | color (2) | point (10, 1023 = pass).
uint16_t pack(const Action& a, int size) {
  uint16_t pt = a.point.is_pass() ? 1023 : uint16_t(a.point.y * size + a.point.x);
  return uint16_t((uint16_t(a.kind) << 12) | (uint16_t(a.color) << 10) | pt);
}
Action unpack(uint16_t v, int size) {
  Action a;
  a.kind = Action::Kind((v >> 12) & 3);
  a.color = Color((v >> 10) & 3);
  uint16_t pt = v & 1023;
  a.point = pt == 1023 ? kPass : Point{int8_t(pt % size), int8_t(pt / size)};
  return a;
}

uint64_t mix(uint64_t h, uint64_t v, uint64_t mult) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= mult;
  return h ^ (h >> 29);
}

void put_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(char(v | 0x80));
    v >>= 7;
  }
  out->push_back(char(v));
}
void put_string(std::string* out, const std::string& s) {
  put_varint(out, s.size());
  out->append(s);
}

struct Reader {
  std::string_view in;
  bool ok = true;
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in.empty()) break;
      uint8_t b = uint8_t(in[0]);
      in.remove_prefix(1);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok = false;
    return 0;
  }
  std::string str() {
    uint64_t n = varint();
    if (!ok || n > in.size()) {
      ok = false;
      return {};
    }
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
};
}  // namespace

Fingerprint game_fingerprint(const Game& game) {
  uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL;
  a = mix(a, uint64_t(game.info.size), 0xff51afd7ed558ccdULL);
  b = mix(b, uint64_t(game.info.size), 0xc4ceb9fe1a85ec53ULL);
  for (const Action& act : game.actions) {
    uint16_t v = pack(act, game.info.size);
    a = mix(a, v, 0xff51afd7ed558ccdULL);
    b = mix(b, v, 0xc4ceb9fe1a85ec53ULL);
  }
  a = mix(a, game.actions.size(), 0xff51afd7ed558ccdULL);
  b = mix(b, game.actions.size(), 0xc4ceb9fe1a85ec53ULL);
  Fingerprint fp;
  std::memcpy(fp.data(), &a, 8);
  std::memcpy(fp.data() + 8, &b, 8);
  return fp;
}

std::string encode_game(const Game& g) {
  std::string out;
  out.reserve(64 + g.actions.size() * 2);
  out.push_back(char(kRecordVersion));
  put_varint(&out, uint64_t(g.info.size));
  put_varint(&out, uint64_t(g.info.handicap));
  put_varint(&out, uint64_t(int64_t(g.info.komi * 2) + (1 << 20)));  // komi in half points
  for (const std::string* s : {&g.info.result, &g.info.black_name, &g.info.white_name, &g.info.black_rank,
                               &g.info.white_rank, &g.info.date, &g.info.rules, &g.info.name,
                               &g.origin.file, &g.origin.member})
    put_string(&out, *s);
  put_varint(&out, g.origin.index);
  put_varint(&out, g.actions.size());
  for (const Action& a : g.actions) {
    uint16_t v = pack(a, g.info.size);
    out.push_back(char(v & 0xff));
    out.push_back(char(v >> 8));
  }
  return out;
}

Status decode_game(std::string_view bytes, Game* g) {
  Reader r{bytes};
  if (bytes.empty() || uint8_t(bytes[0]) != kRecordVersion) return Status::Corruption("unknown game record version");
  r.in.remove_prefix(1);
  g->info.size = int(r.varint());
  g->info.handicap = int(r.varint());
  g->info.komi = double(int64_t(r.varint()) - (1 << 20)) / 2.0;
  for (std::string* s : {&g->info.result, &g->info.black_name, &g->info.white_name, &g->info.black_rank,
                         &g->info.white_rank, &g->info.date, &g->info.rules, &g->info.name, &g->origin.file,
                         &g->origin.member})
    *s = r.str();
  g->origin.index = r.varint();
  uint64_t n = r.varint();
  if (!r.ok || g->info.size < kMinBoardSize || g->info.size > kMaxBoardSize || n * 2 != r.in.size())
    return Status::Corruption("corrupt game record");
  g->actions.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint16_t v = uint16_t(uint8_t(r.in[2 * i]) | (uint8_t(r.in[2 * i + 1]) << 8));
    g->actions[i] = unpack(v, g->info.size);
  }
  return Status::OK();
}

}  // namespace sgfpat

#include "store/game_record.h"

#include <functional>

#include "core/coding.h"
#include "core/hash.h"

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

// Reads the fields of a record in turn; a short or malformed field clears
// `ok`, and decode_game() checks it once at the end.
struct Reader {
  std::string_view in;
  bool ok = true;
  uint64_t varint() {
    uint64_t v = 0;
    if (!get_varint64(&in, &v)) ok = false;
    return v;
  }
  std::string str() {
    std::string_view s;
    if (!get_length_prefixed(&in, &s)) ok = false;
    return std::string(s);
  }
};
}  // namespace

Fingerprint game_fingerprint(const Game& game) {
  uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL;
  auto step = [&](uint64_t v) {
    a = fingerprint_step(a, v, kFingerprintMultiplierA);
    b = fingerprint_step(b, v, kFingerprintMultiplierB);
  };
  step(uint64_t(game.info.size));
  for (const Action& act : game.actions) step(pack(act, game.info.size));
  step(game.actions.size());
  Fingerprint fp;
  encode_fixed64(reinterpret_cast<char*>(fp.data()), a);
  encode_fixed64(reinterpret_cast<char*>(fp.data()) + 8, b);
  return fp;
}

std::string encode_game(const Game& g) {
  std::string out;
  out.reserve(64 + g.actions.size() * 2);
  out.push_back(char(kRecordVersion));
  put_varint64(&out, uint64_t(g.info.size));
  put_varint64(&out, uint64_t(g.info.handicap));
  put_varint64(&out, uint64_t(int64_t(g.info.komi * 2) + (1 << 20)));  // komi in half points
  for (const std::string* s : {&g.info.result, &g.info.black_name, &g.info.white_name, &g.info.black_rank,
                               &g.info.white_rank, &g.info.date, &g.info.rules, &g.info.name,
                               &g.origin.file, &g.origin.member})
    put_length_prefixed(&out, *s);
  put_varint64(&out, g.origin.index);
  put_varint64(&out, g.actions.size());
  for (const Action& a : g.actions) {
    char two[2];
    encode_fixed16(two, pack(a, g.info.size));
    out.append(two, 2);
  }
  return out;
}

bool opening_key(std::string_view record, uint8_t* key) {
  Reader r{record};
  if (record.empty() || uint8_t(record[0]) != kRecordVersion) return false;
  r.in.remove_prefix(1);
  const uint64_t size = r.varint();
  r.varint();  // handicap
  r.varint();  // komi
  std::string_view rules;
  for (int field = 0; field < 10; ++field) {
    std::string_view s;
    if (!get_length_prefixed(&r.in, &s)) return false;
    if (field == 6) rules = s;
  }
  r.varint();  // origin index
  const uint64_t n = r.varint();
  if (!r.ok || n * 2 != r.in.size()) return false;
  key[0] = uint8_t(size);
  key[1] = uint8_t(mix64(std::hash<std::string_view>{}(rules)));
  for (size_t i = 0; i < kOpeningKeyActions; ++i)
    key[2 + i] = i < n ? uint8_t(mix64(decode_fixed16(r.in.data() + 2 * i) + 1) >> 56) : 0;
  return true;
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
    g->actions[i] = unpack(decode_fixed16(r.in.data() + 2 * i), g->info.size);
  }
  return Status::OK();
}

}  // namespace sgfpat

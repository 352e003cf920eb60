#include "store/game_record.h"

#include <functional>

#include "core/coding.h"
#include "core/format_version.h"
#include "core/hash.h"

namespace sgfpat {

namespace {
// A record's first byte: its version (kGameRecordFormat).  This program
// writes and reads only the current one.
constexpr uint8_t kRecordVersion = uint8_t(kGameRecordFormat.current);
static_assert(kGameRecordFormat.oldest == kGameRecordFormat.current,
              "read_record() reads the current record version only: teach it the older ones first");

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
// `ok`, checked once at the end.
struct Reader {
  std::string_view in;
  bool ok = true;
  uint64_t varint() {
    uint64_t v = 0;
    if (!get_varint64(&in, &v)) ok = false;
    return v;
  }
  std::string_view str() {
    std::string_view s;
    if (!get_length_prefixed(&in, &s)) ok = false;
    return s;
  }
};

// A record's fields before the actions, in encode_game()'s order, and its
// actions' bytes (two each), read in one place for decode_game() and
// opening_key().
constexpr int kTextFields = 10;  // result, names, ranks, date, rules, name, origin file and member
constexpr int kRulesField = 6;
struct RecordView {
  uint64_t size = 0, handicap = 0, komi = 0, origin_index = 0;
  std::string_view text[kTextFields];
  std::string_view actions;
};

// False when `bytes` is not a whole record of this version.
bool read_record(std::string_view bytes, RecordView* v) {
  if (bytes.empty() || uint8_t(bytes[0]) != kRecordVersion) return false;
  Reader r{bytes.substr(1)};
  v->size = r.varint();
  v->handicap = r.varint();
  v->komi = r.varint();
  for (std::string_view& t : v->text) t = r.str();
  v->origin_index = r.varint();
  const uint64_t n = r.varint();
  if (!r.ok || n * 2 != r.in.size()) return false;
  v->actions = r.in;
  return true;
}
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
  RecordView v;
  if (!read_record(record, &v)) return false;
  const size_t n = v.actions.size() / 2;
  key[0] = uint8_t(v.size);
  key[1] = uint8_t(mix64(std::hash<std::string_view>{}(v.text[kRulesField])));
  for (size_t i = 0; i < kOpeningKeyActions; ++i)
    key[2 + i] = i < n ? uint8_t(mix64(decode_fixed16(v.actions.data() + 2 * i) + 1) >> 56) : 0;
  return true;
}

Status decode_game(std::string_view bytes, Game* g) {
  if (bytes.empty()) return Status::Corruption("corrupt game record (empty)");
  // Records are not checked at open (there are millions): the database's
  // format version covers them, so in a database this program reads, a
  // record of another version is damage, reported with both versions.
  Status version = check_format_version(kGameRecordFormat, uint8_t(bytes[0]), "unknown game record version");
  if (!version.ok()) return Status::Corruption(version.message());
  RecordView v;
  if (!read_record(bytes, &v) || v.size < uint64_t(kMinBoardSize) || v.size > uint64_t(kMaxBoardSize))
    return Status::Corruption("corrupt game record");
  g->info.size = int(v.size);
  g->info.handicap = int(v.handicap);
  g->info.komi = double(int64_t(v.komi) - (1 << 20)) / 2.0;
  std::string* text[kTextFields] = {&g->info.result,     &g->info.black_name, &g->info.white_name, &g->info.black_rank,
                                    &g->info.white_rank, &g->info.date,       &g->info.rules,      &g->info.name,
                                    &g->origin.file,     &g->origin.member};
  for (int i = 0; i < kTextFields; ++i) text[i]->assign(v.text[i]);
  g->origin.index = v.origin_index;
  const size_t n = v.actions.size() / 2;
  g->actions.resize(n);
  for (size_t i = 0; i < n; ++i) g->actions[i] = unpack(decode_fixed16(v.actions.data() + 2 * i), g->info.size);
  return Status::OK();
}

}  // namespace sgfpat

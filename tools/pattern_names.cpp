#include "pattern_names.h"

#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "board/replay.h"
#include "pattern/pattern_string.h"
#include "pattern/tracking_observer.h"
#include "store/game_record.h"

namespace sgfpat::cli {

Interval wilson95(uint64_t k, uint64_t n) {
  if (n == 0) return {0.0, 1.0};
  const double z = 1.959963984540054;
  const double nn = double(n), p = double(k) / nn, z2 = z * z;
  const double denom = 1 + z2 / nn;
  const double center = (p + z2 / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

std::string percent_text(double p) {
  char buf[32];
  // Small rates keep 3 significant digits rather than showing 0.00%.
  std::snprintf(buf, sizeof buf, p > 0 && p < 0.001 ? "%.3g%%" : "%.2f%%", 100.0 * p);
  return buf;
}

std::string format_text(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < int(sizeof buf)) return buf;
  std::string big(size_t(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(big.data(), big.size(), fmt, ap);
  va_end(ap);
  big.resize(size_t(n));
  return big;
}

std::string key_hex(uint64_t key) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)key);
  return buf;
}

std::string export_form(std::string_view pattern, const KeyScheme& scheme) {
  return scheme.symmetry ? canonical_pattern(pattern) : std::string(pattern);
}

// ---- PatternTable ----

namespace {
inline size_t slot_of(uint64_t key, size_t mask) {
  return size_t((key ^ (key >> 31)) * 0x9e3779b97f4a7c15ULL >> 17) & mask;
}
uint8_t code_of(char c) { return c == '#' ? 0 : c == '.' ? 1 : c == 'O' ? 2 : 3; }
}  // namespace

PatternTable::PatternTable(int levels) : levels_(size_t(levels)) {
  for (int l = 1; l <= levels; ++l) levels_[size_t(l - 1)].bytes_per = size_t(level_points(l) + 3) / 4;
}

void PatternTable::add(int level, uint64_t key, const PatternCounts& counts) {
  Level& L = levels_[size_t(level - 1)];
  L.keys.push_back(key);
  L.counts.push_back(counts);
}

void PatternTable::seal() {
  missing_ = 0;
  for (Level& L : levels_) {
    const size_t n = L.keys.size();
    L.found.assign(n, false);
    L.packed.assign(n * L.bytes_per, 0);
    missing_ += n;
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    L.slots.assign(cap, 0);
    const size_t mask = cap - 1;
    for (size_t i = 0; i < n; ++i) {
      size_t s = slot_of(L.keys[i], mask);
      while (L.slots[s]) s = (s + 1) & mask;
      L.slots[s] = uint32_t(i + 1);
    }
  }
}

size_t PatternTable::total() const {
  size_t t = 0;
  for (const Level& L : levels_) t += L.keys.size();
  return t;
}

size_t PatternTable::missing(int level) const {
  const Level& L = levels_[size_t(level - 1)];
  size_t m = 0;
  for (bool f : L.found) m += !f;
  return m;
}

int64_t PatternTable::find(int level, uint64_t key) const {
  const Level& L = levels_[size_t(level - 1)];
  if (L.keys.empty()) return -1;
  const size_t mask = L.slots.size() - 1;
  for (size_t s = slot_of(key, mask);; s = (s + 1) & mask) {
    uint32_t v = L.slots[s];
    if (!v) return -1;
    if (L.keys[v - 1] == key) return int64_t(v - 1);
  }
}

std::string PatternTable::string(int level, size_t i) const {
  const Level& L = levels_[size_t(level - 1)];
  if (!L.found[i]) return "";
  std::string s(size_t(level_points(level)), '#');
  const uint8_t* p = &L.packed[i * L.bytes_per];
  for (size_t o = 0; o < s.size(); ++o) s[o] = kPStateChar[(p[o / 4] >> (2 * (o % 4))) & 3];
  return s;
}

void PatternTable::set_string(int level, size_t i, std::string_view pattern) {
  Level& L = levels_[size_t(level - 1)];
  uint8_t* p = &L.packed[i * L.bytes_per];
  std::fill(p, p + L.bytes_per, 0);
  for (size_t o = 0; o < pattern.size(); ++o) p[o / 4] |= uint8_t(code_of(pattern[o]) << (2 * (o % 4)));
  if (!L.found[i]) {
    L.found[i] = true;
    --missing_;
  }
}

// ---- representatives ----

namespace {
struct Finder : TrackingObserver {
  PatternTable* table;
  RepresentativeSearch* search;
  const KeyScheme& scheme;
  std::vector<int> wanted_levels;  // sparse search: levels with wanted keys

  Finder(const KeyScheme& s, PatternTable* t, RepresentativeSearch* rs)
      : TrackingObserver(s), table(t), search(rs), scheme(s) {
    for (int l = 1; l <= t->levels(); ++l)
      if (t->size(l) > 0) wanted_levels.push_back(l);
  }

  void record(const Board& board, Point move, Color mover, int level, uint64_t key, size_t i) {
    std::string s = export_form(spell_pattern(board, move, level, mover), scheme);
    if (pattern_key(s, scheme) != key) {
      ++search->key_mismatches;
      return;
    }
    table->set_string(level, i, s);
  }

  void before_move(const Board& board, Color mover, Point move, int) override {
    if (move.is_pass() || table->missing() == 0) return;
    const int idx = board.index(move);
    if (search->closed) {
      tracker.walk(idx, mover, [&](int level, uint64_t key) {
        int64_t i = table->find(level, key);
        if (i < 0) return false;
        if (!table->has_string(level, size_t(i))) record(board, move, mover, level, key, size_t(i));
        return true;
      });
    } else {
      for (int level : wanted_levels) {
        uint64_t key = tracker.key(idx, level, mover);
        int64_t i = table->find(level, key);
        if (i >= 0 && !table->has_string(level, size_t(i))) record(board, move, mover, level, key, size_t(i));
      }
    }
  }
};
}  // namespace

Status find_representatives(PatternDb& db, PatternTable* table, RepresentativeSearch* search) {
  auto t0 = std::chrono::steady_clock::now();
  search->games_replayed = 0;
  search->key_mismatches = 0;
  Finder finder(db.settings().scheme, table, search);
  Status err;
  Game game;
  Board board;
  Status s = db.for_each_game([&](const Fingerprint&, std::string_view rec) {
    if (table->missing() == 0) return false;
    if (search->max_games && search->games_replayed >= search->max_games) return false;
    Status st = decode_game(rec, &game);
    if (!st.ok()) {
      err = st.with_context("stored game");
      return false;
    }
    finder.start_game(game.info.size);
    ReplayResult rr;
    st = replay(game, &board, &rr, &finder);
    ++search->games_replayed;
    if (!st.ok()) {
      err = Status::Corruption("stored game " + game.origin.describe() + ": " + st.message());
      return false;
    }
    return true;
  });
  search->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!s.ok()) return s;
  return err;
}

}  // namespace sgfpat::cli

// Priors file and move evaluator: file validation, every database count
// found in the file's hash tables, dichotomic lookup against a linear scan,
// batched look-ups against single ones, evaluation from the file against
// evaluation from the database counts, edges and corners, and the player to
// move.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <random>

#include "board/position_text.h"
#include "board/replay.h"
#include "eval/accuracy.h"
#include "eval/evaluator.h"
#include "pattern/tracking_observer.h"
#include "priors/priors_writer.h"
#include "priors/sgfpat_priors.h"
#include "sgf/game_stream.h"
#include "test_util.h"

using namespace sgfpat;
using testutil::TempDir;

namespace {
// A database of a few hundred real games and its priors file, built once.
struct Fixture {
  TempDir dir{"sgfpat-priors"};
  std::string db_path = dir / "db";
  std::string priors_path = dir / "p.priors";
  std::string test_games = dir / "test.sgf";
  Fixture() {
    auto lines = testutil::sample_lines(0, 400);
    testutil::write_file(dir / "train.sgf", testutil::join(lines));
    auto test = testutil::sample_lines(1900, 12);
    testutil::write_file(test_games, testutil::join(test));
    testutil::ingest_ok(db_path, {"--levels", "8", "--min-played", "2", "--memory-mb", "64"}, {dir / "train.sgf"},
                        dir.path());
    std::unique_ptr<PatternDb> db;
    OpenOptions o;
    o.secondary = true;
    REQUIRE(PatternDb::Open(db_path, o, &db).ok());
    PriorsExportSummary summary;
    Status st = write_priors(*db, PriorsExportOptions{}, priors_path, &summary);
    INFO(st.message());
    REQUIRE(st.ok());
    REQUIRE(summary.patterns_per_level.size() == 8);
    REQUIRE(summary.patterns_per_level[0] > 0);
    max_probe = summary.max_probe_per_level;
  }
  std::vector<uint32_t> max_probe;
};
Fixture& fixture() {
  static Fixture f;
  return f;
}

// Calls visit(board, tracker, mover, move, number) before every move of the test games.
template <class Visit>
void for_test_positions(const KeyScheme& scheme, Visit&& visit) {
  struct Obs : TrackingObserver {
    Visit* v;
    Obs(const KeyScheme& s, Visit* vv) : TrackingObserver(s), v(vv) {}
    void before_move(const Board& b, Color mover, Point move, int n) override {
      if (!move.is_pass()) (*v)(b, tracker, mover, move, n);
    }
  } obs(scheme, &visit);
  GameStream stream({fixture().test_games});
  Game game;
  Status st;
  Board board;
  ReplayResult rr;
  int games = 0;
  while (stream.next(&game, &st)) {
    REQUIRE(st.ok());
    obs.start_game(game.info.size);
    if (replay(game, &board, &rr, &obs).ok()) ++games;
  }
  REQUIRE(games > 5);
}

// Every legal move of every test position: visit(tracker, mover, point index).
template <class Visit>
void for_test_candidates(const KeyScheme& scheme, Visit&& visit) {
  for_test_positions(scheme, [&](const Board& b, const PatternTracker& t, Color mover, Point, int) {
    for (int y = 0; y < b.size(); ++y)
      for (int x = 0; x < b.size(); ++x) {
        const int idx = b.index(Point{int8_t(x), int8_t(y)});
        if (b.is_legal_index(idx, mover)) visit(t, mover, idx);
      }
  });
}
}  // namespace

TEST_CASE("priors file: header carries the key scheme and thresholds, and verifies") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  CHECK(p.levels() == 8);
  CHECK(p.seed() == kDefaultZobristSeed);
  CHECK(p.symmetry());
  CHECK(p.header().min_played == 2);
  CHECK(p.header().games == 400);
  CHECK(p.base_rate() > 0.001);
  CHECK(p.base_rate() < 0.05);
  CHECK(p.verify(&error));
  // Level 1 has at most 4^4 raw patterns, far fewer up to symmetry.
  CHECK(p.count(1) < 256);
}

TEST_CASE("priors file: $SOURCE_DATE_EPOCH fixes the export time, so equal counts export to equal bytes") {
  std::unique_ptr<PatternDb> db;
  OpenOptions o;
  o.secondary = true;
  REQUIRE(PatternDb::Open(fixture().db_path, o, &db).ok());
  TempDir tmp("sgfpat-priors-epoch");
  PriorsExportSummary summary;
  REQUIRE(setenv("SOURCE_DATE_EPOCH", "1234567", 1) == 0);
  Status a = write_priors(*db, PriorsExportOptions{}, tmp / "a.priors", &summary);
  Status b = write_priors(*db, PriorsExportOptions{}, tmp / "b.priors", &summary);
  REQUIRE(unsetenv("SOURCE_DATE_EPOCH") == 0);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(testutil::read_file(tmp / "a.priors") == testutil::read_file(tmp / "b.priors"));
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(tmp / "a.priors", &error));
  CHECK(p.header().export_time == 1234567);
  CHECK(p.verify(&error));
  // Without it, the time of the export.
  sgfpat_priors::Priors now;
  REQUIRE(now.open(fixture().priors_path, &error));
  CHECK(now.header().export_time > 1600000000);
}

TEST_CASE("priors file: corrupt, truncated and foreign files are refused") {
  std::string bytes = testutil::read_file(fixture().priors_path);
  TempDir dir("sgfpat-bad-priors");
  sgfpat_priors::Priors p;
  std::string error;
  auto refused = [&](const std::string& content) {
    testutil::write_file(dir / "bad", content);
    error.clear();
    bool ok = p.open(dir / "bad", &error);
    return !ok && !error.empty();
  };
  CHECK(refused(""));
  CHECK(refused("hello, not priors"));
  CHECK(refused(bytes.substr(0, bytes.size() - 1)));    // truncated by a byte
  CHECK(refused(bytes.substr(0, 600)));                 // truncated in the header
  CHECK(refused(bytes.substr(0, 5000)));                // truncated in the tables
  CHECK(refused(bytes + std::string(8, '\0')));         // extended
  std::string flipped = bytes;
  flipped[100] ^= 1;  // inside the header: checksum catches it
  CHECK(refused(flipped));
  std::string magic = bytes;
  magic[0] = 'X';
  CHECK(refused(magic));
  CHECK(error.find("magic") != std::string::npos);
  // A flipped byte in the data passes open() (it reads no data) but not verify().
  std::string data = bytes;
  data[bytes.size() - 3] ^= 0x40;
  testutil::write_file(dir / "data", data);
  REQUIRE(p.open(dir / "data", &error));
  CHECK_FALSE(p.verify(&error));
  CHECK(error.find("checksum") != std::string::npos);
}

namespace {
// The file's header, edited by `edit`, with its checksum made right again:
// what a buggy writer (rather than a disk error) would produce.
template <class Edit>
std::string forged(const std::string& bytes, Edit&& edit) {
  sgfpat_priors::Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  edit(h);
  h.header_checksum = 0;
  h.header_checksum = sgfpat_priors::checksum64(&h, sizeof h);
  std::string out = bytes;
  std::memcpy(out.data(), &h, sizeof h);
  return out;
}
}  // namespace

TEST_CASE("priors file: forged tables and an older version are refused at open") {
  std::string bytes = testutil::read_file(fixture().priors_path);
  TempDir dir("sgfpat-forged-priors");
  sgfpat_priors::Priors p;
  std::string error;
  auto refusal = [&](const std::string& content) {
    testutil::write_file(dir / "bad", content);
    error.clear();
    return p.open(dir / "bad", &error) ? std::string() : error;
  };
  using sgfpat_priors::Header;
  // The forging itself keeps a good file good.
  CHECK(refusal(forged(bytes, [](Header&) {})).empty());
  std::string version = bytes;
  version[8] = 1;  // the version field, before the checksum is even looked at
  CHECK(refusal(version).find("version 1") != std::string::npos);
  const std::string table = "table out of bounds";
  CHECK(refusal(forged(bytes, [&](Header& h) { h.level[2].buckets_offset = bytes.size() - 64; }))
            .find(table) != std::string::npos);
  CHECK(refusal(forged(bytes, [&](Header& h) { h.level[2].counts_offset = bytes.size() - 8; })).find(table) !=
        std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.level[2].buckets_offset += 8; })).find(table) !=  // misaligned
        std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.level[2].patterns = h.level[2].buckets * 7 + 1; })).find(table) !=
        std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.level[2].max_probe = 0; })).find(table) != std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.level[2].max_probe = uint32_t(h.level[2].buckets + 1); }))
            .find(table) != std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.level[2].buckets = 0; })).find(table) != std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.level[2].buckets = UINT64_MAX / 2; })).find(table) !=
        std::string::npos);
  CHECK(refusal(forged(bytes, [](Header& h) { h.levels = 17; })).find("level count") != std::string::npos);
}

TEST_CASE("priors file: corrupt buckets make look-ups fail, never read past the tables") {
  std::string bytes = testutil::read_file(fixture().priors_path);
  sgfpat_priors::Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  // Every bucket of level 4 claims too many keys, an overflow, and records
  // past the end; its first key slot keeps a real key.
  const sgfpat_priors::LevelTable& t = h.level[3];
  REQUIRE(t.buckets > 0);
  std::vector<uint64_t> real_keys;
  for (uint64_t b = 0; b < t.buckets; ++b) {
    sgfpat_priors::Bucket bk;
    std::memcpy(&bk, bytes.data() + t.buckets_offset + b * 64, 64);
    if (bk.used > 0) real_keys.push_back(bk.keys[0]);
    bk.used = 255;
    bk.overflow = 1;
    bk.base = UINT32_MAX - 3;
    std::memcpy(bytes.data() + t.buckets_offset + b * 64, &bk, 64);
  }
  REQUIRE(real_keys.size() > 100);
  TempDir dir("sgfpat-corrupt-buckets");
  testutil::write_file(dir / "bad", bytes);
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(dir / "bad", &error));  // open() reads no data
  CHECK_FALSE(p.verify(&error));
  sgfpat_priors::Counts c;
  for (uint64_t key : real_keys) CHECK_FALSE(p.lookup(4, key, &c));
  CHECK_FALSE(p.lookup(4, 12345, &c));
  std::vector<int> levels(real_keys.size(), 4);
  std::vector<sgfpat_priors::Counts> out(real_keys.size());
  std::unique_ptr<bool[]> found(new bool[real_keys.size()]);
  p.lookup_many(levels.data(), real_keys.data(), real_keys.size(), out.data(), found.get());
  for (size_t i = 0; i < real_keys.size(); ++i) CHECK_FALSE(found[i]);
}

TEST_CASE("evaluator: counts no export writes (played above seen, never seen) give probabilities summing to 1") {
  // A forged or damaged file that passes open(): every record says played
  // 2^32-1, half of them seen 0, and positions above candidates (a base
  // rate above 1).  Rates were infinite and probabilities NaN.
  std::string bytes = testutil::read_file(fixture().priors_path);
  sgfpat_priors::Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  for (uint32_t l = 0; l < h.levels; ++l)
    for (uint64_t r = 0; r < h.level[l].patterns; ++r) {
      const sgfpat_priors::CountsRecord rec{r % 2 ? 0u : 1u, UINT32_MAX, UINT32_MAX};
      std::memcpy(bytes.data() + h.level[l].counts_offset + r * 16, &rec, 16);
    }
  bytes = forged(bytes, [](sgfpat_priors::Header& fh) { fh.positions = fh.candidates * 1000; });
  TempDir dir("sgfpat-forged-counts");
  testutil::write_file(dir / "bad", bytes);
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(dir / "bad", &error));
  for (const double a : {0.0, 1e-320, 4.0})
    for (const Estimator est : {Estimator::Raw, Estimator::Smoothed}) {
      INFO("a " << a << " estimator " << int(est));
      EvalOptions opts;
      opts.estimator = est;
      opts.smoothing = a;
      Evaluator ev(p, opts);
      int positions = 0, known = 0, bad = 0;
      for_test_positions(ev.scheme(), [&](const Board& b, const PatternTracker& t, Color mover, Point, int n) {
        if (n % 25 != 0) return;
        std::vector<MoveEval> moves;
        ev.evaluate(b, t, mover, &moves);
        double sum = 0;
        for (const MoveEval& e : moves) {
          bad += !(std::isfinite(e.prob) && e.rate >= 0 && e.rate <= 1);
          known += e.level > 0;
          sum += e.prob;
        }
        CHECK(sum == doctest::Approx(1.0));
        ++positions;
      });
      CHECK(bad == 0);
      CHECK(positions > 10);
      CHECK(known > 100);
    }
}

TEST_CASE("priors file: every database count above the threshold is found, with its counts") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  std::unique_ptr<PatternDb> db;
  OpenOptions o;
  o.secondary = true;
  REQUIRE(PatternDb::Open(fixture().db_path, o, &db).ok());
  std::mt19937_64 rng(7);
  for (int level = 1; level <= p.levels(); ++level) {
    uint64_t kept = 0, mismatched = 0, wrongly_absent = 0, wrongly_present = 0;
    REQUIRE(db->for_each_count(level, [&](int, uint64_t key, const PatternCounts& c) {
      sgfpat_priors::Counts got;
      bool present = p.lookup(level, key, &got);
      if (c.played < 2) {
        wrongly_present += present;
        return true;
      }
      ++kept;
      if (!present) ++wrongly_absent;
      else if (got.played != c.played || got.seen != c.seen || got.wins != c.wins) ++mismatched;
      return true;
    }).ok());
    for (int i = 0; i < 1000; ++i) wrongly_present += p.contains(level, rng());
    INFO("level " << level);
    CHECK(kept == p.count(level));
    CHECK(wrongly_absent == 0);
    CHECK(mismatched == 0);
    CHECK(wrongly_present == 0);
    // The key mix spreads min-of-8 keys evenly: no long probe chains.
    CHECK(fixture().max_probe[size_t(level - 1)] >= 1);
    CHECK(fixture().max_probe[size_t(level - 1)] <= 16);
    CHECK(p.header().level[level - 1].max_probe == fixture().max_probe[size_t(level - 1)]);
  }
  sgfpat_priors::Counts c;
  CHECK_FALSE(p.lookup(0, 1, &c));
  CHECK_FALSE(p.lookup(p.levels() + 1, 1, &c));
}

TEST_CASE("dichotomic lookup agrees with a linear scan for every candidate of real positions") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  Evaluator ev(p);
  uint64_t checked = 0, deep = 0;
  for_test_candidates(ev.scheme(), [&](const PatternTracker& t, Color mover, int idx) {
    uint64_t keys[16];
    t.walk(idx, mover, [&](int level, uint64_t k) { keys[level - 1] = k; return true; });
    int bin = p.largest_level(keys, p.levels());
    int lin = p.largest_level_linear(keys, p.levels());
    CHECK(bin == lin);
    // Closure: every level up to the largest is present.
    for (int l = 1; l <= bin; ++l) CHECK(p.contains(l, keys[l - 1]));
    ++checked;
    deep += bin >= 3;
  });
  MESSAGE("candidates checked: " << checked << ", with level >= 3: " << deep);
  CHECK(checked > 10000);
  CHECK(deep > 100);
}

TEST_CASE("priors file: thresholds keep presence closed under smaller levels") {
  TempDir dir("sgfpat-thresholds");
  std::unique_ptr<PatternDb> db;
  REQUIRE(PatternDb::OpenReader(fixture().db_path, &db).ok());
  PriorsExportOptions options;
  options.min_played = 5;
  options.min_seen = 60;
  options.levels = 6;
  PriorsExportSummary summary;
  REQUIRE(write_priors(*db, options, dir / "t.priors", &summary).ok());
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(dir / "t.priors", &error));
  CHECK(p.levels() == 6);
  CHECK(p.header().min_played == 5);
  CHECK(p.header().min_seen == 60);
  Evaluator ev(p);
  uint64_t checked = 0, deep = 0;
  for_test_candidates(ev.scheme(), [&](const PatternTracker& t, Color mover, int idx) {
    // Present levels form a prefix 1..m, and each passed both thresholds.
    bool gap = false;
    int m = 0;
    t.walk(idx, mover, [&](int level, uint64_t k) {
      sgfpat_priors::Counts c;
      const bool present = p.lookup(level, k, &c);
      if (present) {
        CHECK_FALSE(gap);
        CHECK(c.played >= 5);
        CHECK(c.seen >= 60);
        m = level;
      }
      gap = gap || !present;
      return true;
    }, 6);
    uint64_t keys[16];
    t.walk(idx, mover, [&](int level, uint64_t k) { keys[level - 1] = k; return true; }, 6);
    CHECK(p.largest_level(keys, 6) == m);
    ++checked;
    deep += m >= 3;
  });
  CHECK(checked > 10000);
  CHECK(deep > 100);
  // Fewer patterns than without thresholds, at every level that has any.
  sgfpat_priors::Priors all;
  REQUIRE(all.open(fixture().priors_path, &error));
  for (int l = 2; l <= 6; ++l) CHECK(p.count(l) < all.count(l));
}

TEST_CASE("batched look-ups agree with single ones for every candidate of real positions") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  Evaluator ev(p);
  const int L = p.levels();
  uint64_t checked = 0, positions = 0;
  std::map<int, uint64_t> by_level;
  for_test_positions(ev.scheme(), [&](const Board& b, const PatternTracker& t, Color mover, Point, int) {
    // Keys with a stride wider than L, as an engine with room for more levels would lay them out.
    const size_t stride = size_t(L) + 3;
    std::vector<uint64_t> keys;
    for (int y = 0; y < b.size(); ++y)
      for (int x = 0; x < b.size(); ++x) {
        int idx = b.index(Point{int8_t(x), int8_t(y)});
        if (!b.is_legal_index(idx, mover)) continue;
        keys.resize(keys.size() + stride, 0);
        t.walk(idx, mover, [&](int level, uint64_t k) { keys[keys.size() - stride + size_t(level) - 1] = k; return true; });
      }
    const size_t n = keys.size() / stride;
    for (int max_level : {L, 3, L + 2}) {
      std::vector<int> batched(n, -1);
      p.largest_levels(keys.data(), stride, max_level, n, batched.data());
      for (size_t c = 0; c < n; ++c) {
        int single = p.largest_level(&keys[c * stride], max_level);
        CHECK(batched[c] == single);
        if (max_level == L) ++by_level[single];
      }
    }
    // lookup_many over every (candidate, level), present or not, and levels out of range.
    std::vector<int> levels;
    std::vector<uint64_t> flat;
    for (size_t c = 0; c < n; ++c)
      for (int level = 0; level <= L + 1; ++level) {
        levels.push_back(level);
        flat.push_back(level >= 1 && level <= L ? keys[c * stride + size_t(level) - 1] : keys[c * stride]);
      }
    std::vector<sgfpat_priors::Counts> out(levels.size());
    std::unique_ptr<bool[]> found(new bool[levels.size()]);
    p.lookup_many(levels.data(), flat.data(), levels.size(), out.data(), found.get());
    for (size_t i = 0; i < levels.size(); ++i) {
      sgfpat_priors::Counts single;
      bool present = p.lookup(levels[i], flat[i], &single);
      CHECK(found[i] == present);
      if (present && found[i]) {
        CHECK(out[i].played == single.played);
        CHECK(out[i].seen == single.seen);
        CHECK(out[i].wins == single.wins);
      }
    }
    checked += n;
    ++positions;
  });
  MESSAGE("candidates checked: " << checked << " in " << positions << " batches");
  CHECK(checked > 10000);
  // Every outcome of the search occurs, from an unknown shape to the largest level.
  for (int m = 0; m <= L; ++m) {
    INFO("largest level " << m);
    CHECK(by_level[m] > 0);
  }
  // An empty batch writes nothing.
  int untouched = -7;
  p.largest_levels(nullptr, size_t(L), L, 0, &untouched);
  p.lookup_many(nullptr, nullptr, 0, nullptr, nullptr);
  CHECK(untouched == -7);
}

TEST_CASE("evaluate() scores every legal move as score() does") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  for (Estimator est : {Estimator::Raw, Estimator::Smoothed}) {
    EvalOptions opts;
    opts.estimator = est;
    Evaluator ev(p, opts);
    int positions = 0;
    for_test_positions(ev.scheme(), [&](const Board& b, const PatternTracker& t, Color mover, Point, int n) {
      if (n % 5 != 0) return;
      std::vector<MoveEval> moves;
      ev.evaluate(b, t, mover, &moves);
      for (const MoveEval& e : moves) {
        MoveEval s = ev.score(t, b.index(e.point), mover);
        CHECK(e.level == s.level);
        CHECK(e.score == s.score);
        CHECK(e.counts.played == s.counts.played);
        CHECK(e.counts.seen == s.counts.seen);
      }
      ++positions;
    });
    CHECK(positions > 100);
  }
}

TEST_CASE("evaluation from the priors file equals evaluation from the database counts") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  std::unique_ptr<PatternDb> db;
  OpenOptions o;
  o.secondary = true;
  REQUIRE(PatternDb::Open(fixture().db_path, o, &db).ok());
  for (Estimator est : {Estimator::Raw, Estimator::Smoothed}) {
    EvalOptions opts;
    opts.estimator = est;
    opts.smoothing = 3.0;
    Evaluator ev(p, opts);
    const double p0 = p.base_rate();
    int positions = 0;
    for_test_positions(ev.scheme(), [&](const Board& b, const PatternTracker& t, Color mover, Point, int n) {
      if (n % 9 != 0) return;  // a sample of positions keeps the database look-ups quick
      std::vector<MoveEval> moves;
      ev.evaluate(b, t, mover, &moves);
      double total = 0;
      for (const MoveEval& e : moves) {
        // The same estimate, straight from the database, levels walked upward.
        int idx = b.index(e.point);
        double prior = p0;
        int level = 0;
        double raw = p0;
        t.walk(idx, mover, [&](int lv, uint64_t key) {
          PatternCounts c;
          bool found = false;
          REQUIRE(db->get(lv, key, &c, &found).ok());
          if (!found || c.played < 2) return false;
          level = lv;
          raw = double(c.played) / double(c.seen);
          prior = (double(c.played) + 3.0 * prior) / (double(c.seen) + 3.0);
          return true;
        }, p.levels());
        CHECK(e.level == level);
        CHECK(e.score == doctest::Approx(est == Estimator::Raw ? raw : prior).epsilon(1e-12));
        total += e.prob;
      }
      CHECK(total == doctest::Approx(1.0));
      ++positions;
    });
    CHECK(positions > 50);
  }
}

TEST_CASE("evaluator: corner and edge candidates, and the player to move") {
  sgfpat_priors::Priors p;
  std::string error;
  REQUIRE(p.open(fixture().priors_path, &error));
  Evaluator ev(p);
  // An opening position: every corner 3-4 / 4-4 point is a well-known move.
  TextPosition pos;
  std::string rows;
  for (int y = 0; y < 19; ++y) rows += std::string(19, '.') + "\n";
  REQUIRE(parse_position_text("B\n19\n" + rows, &pos).ok());
  std::vector<MoveEval> moves = ev.evaluate(pos.board, pos.to_move);
  CHECK(moves.size() == 361);
  auto eval_at = [&](const std::vector<MoveEval>& ms, int x, int y) {
    for (const MoveEval& e : ms)
      if (e.point == Point{int8_t(x), int8_t(y)}) return e;
    FAIL("no such move");
    return MoveEval{};
  };
  MoveEval corner = eval_at(moves, 0, 0), star = eval_at(moves, 3, 3), komoku = eval_at(moves, 15, 2);
  CHECK(corner.level >= 1);      // the corner pattern (# all around) is known
  CHECK(star.level >= 3);
  CHECK(star.prob > 10 * corner.prob);
  CHECK(komoku.prob > corner.prob);
  // Symmetry: the four 4-4 points score alike.
  CHECK(eval_at(moves, 15, 15).prob == doctest::Approx(star.prob));
  CHECK(eval_at(moves, 3, 15).prob == doctest::Approx(star.prob));

  // Color switch: the same stones with colors swapped and the other player to
  // move give the same distribution (patterns are relative to the mover).
  TextPosition a, b;
  std::string ra =
      "B\n9\n.........\n..X...O..\n.........\n...XO....\n....X....\n.........\n..O......\n.........\n.........\n";
  std::string rb =
      "W\n9\n.........\n..O...X..\n.........\n...OX....\n....O....\n.........\n..X......\n.........\n.........\n";
  REQUIRE(parse_position_text(ra, &a).ok());
  REQUIRE(parse_position_text(rb, &b).ok());
  CHECK(b.to_move == Color::White);
  auto ma = ev.evaluate(a.board, a.to_move), mb = ev.evaluate(b.board, b.to_move);
  REQUIRE(ma.size() == mb.size());
  for (size_t i = 0; i < ma.size(); ++i) {
    CHECK(ma[i].point == mb[i].point);
    CHECK(ma[i].prob == doctest::Approx(mb[i].prob));
    CHECK(ma[i].level == mb[i].level);
  }
  // ...while the same board with the other player to move differs.
  auto mc = ev.evaluate(a.board, Color::White);
  bool differs = false;
  for (size_t i = 0; i < ma.size(); ++i) differs |= std::abs(ma[i].prob - mc[i].prob) > 1e-9;
  CHECK(differs);
}

TEST_CASE("text positions: English and French forms") {
  TextPosition pos;
  REQUIRE(parse_position_text("Joueur? Noir\nTaille? 3\nGoban: . . .\n       . B .\n       N . .\n", &pos).ok());
  CHECK(pos.french);
  CHECK(pos.to_move == Color::Black);
  CHECK(pos.board.at(Point{1, 1}) == Color::White);
  CHECK(pos.board.at(Point{0, 2}) == Color::Black);
  REQUIRE(parse_position_text("W\n2\nX.\n.O\n", &pos).ok());
  CHECK(pos.to_move == Color::White);
  CHECK(pos.board.at(Point{0, 0}) == Color::Black);
  CHECK(pos.board.at(Point{1, 1}) == Color::White);
  CHECK_FALSE(parse_position_text("Q\n3\n...\n...\n...\n", &pos).ok());
  CHECK_FALSE(parse_position_text("B\n3\n...\n..\n...\n", &pos).ok());
  CHECK_FALSE(parse_position_text("B\n30\n", &pos).ok());
  CHECK_FALSE(parse_position_text("B\n3\n...\n.Z.\n...\n", &pos).ok());
}

TEST_CASE("accuracy statistics: ranks with ties") {
  AccuracyReport r;
  std::vector<MoveEval> moves(4);
  for (int i = 0; i < 4; ++i) moves[size_t(i)].point = Point{int8_t(i), 0};
  moves[0].prob = 0.5;
  moves[1].prob = 0.2;
  moves[2].prob = 0.2;
  moves[3].prob = 0.1;
  r.add_position(moves, Point{0, 0}, 1);  // rank 1
  r.add_position(moves, Point{1, 0}, 40); // tied for ranks 2-3
  r.add_position(moves, Point{3, 0}, 200);// rank 4
  CHECK(r.all.positions == 3);
  CHECK(r.all.top_rate(0) == doctest::Approx(1.0 / 3));
  CHECK(r.all.top_rate(1) == doctest::Approx(2.0 / 3));
  CHECK(r.all.top_rate(2) == doctest::Approx(1.0));
  CHECK(r.all.mean_loglik() == doctest::Approx((std::log(0.5) + std::log(0.2) + std::log(0.1)) / 3));
  CHECK(r.phases[0].positions == 1);
  CHECK(r.phases[1].positions == 1);
  CHECK(r.phases[3].positions == 1);
  REQUIRE(r.all.at_rank.size() == 4);
  CHECK(r.all.at_rank[1] == doctest::Approx(0.5));
  CHECK(r.all.at_rank[2] == doctest::Approx(0.5));
}

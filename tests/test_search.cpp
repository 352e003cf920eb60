// Position search: the k-smallest selection against a full sort, symmetric
// hashes, exact search through the position index (a position placed under
// every symmetry and colour exchange is found; the index survives
// incremental ingests, a build for a database without it, and kill -9), and
// the nearest scan's distances against a from-scratch recomputation.
#include <algorithm>
#include <random>
#include <set>

#include "board/replay.h"
#include "ingest/importer.h"
#include "search/continuations.h"
#include "search/k_smallest.h"
#include "search/nearest_scan.h"
#include "search/position_hash.h"
#include "search/position_index.h"
#include "store/game_record.h"
#include "test_util.h"

using namespace sgfpat;
using namespace testutil;

namespace {

// Games of the sample from its 300th on (one per line), parsed.
std::vector<Game> sample_games(size_t first, size_t count) {
  std::vector<Game> games;
  for (const std::string& line : sample_lines(300 + first, count)) {
    Game g;
    if (parse_game(line, &g).ok()) games.push_back(std::move(g));
  }
  return games;
}

std::unique_ptr<PatternDb> open_db(const std::string& path, size_t run_bytes = OpenOptions{}.position_run_bytes,
                                   int write_threads = 1) {
  OpenOptions o;
  o.create_if_missing = true;
  o.position_run_bytes = run_bytes;
  o.write_threads = write_threads;
  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::Open(path, o, &db);
  INFO(st.message());
  REQUIRE(st.ok());
  return db;
}

// finish: false leaves the importer's last batch and the database's index
// run unwritten, as a process killed then would.
void import(PatternDb* db, const std::vector<Game>& games, bool finish = true) {
  Importer importer(db, GameFilter{}, "", 7);  // small batches: several writes
  for (const Game& g : games) {
    std::string problem;
    AddOutcome outcome;
    REQUIRE(importer.add(g, &outcome, &problem).ok());
  }
  if (finish) REQUIRE(importer.finish().ok());
}

// `game` seen through symmetry `sym`, colours exchanged if `swap`.
Game transformed(const Game& game, int sym, bool swap) {
  Game t = game;
  for (Action& a : t.actions) {
    a.point = apply_symmetry(sym, a.point, game.info.size);
    if (swap) a.color = opponent(a.color);
  }
  t.info.black_name = "sym" + std::to_string(sym) + (swap ? "swap" : "");
  return t;
}

Board board_after(const Game& g, int moves) {
  Board b;
  ReplayResult rr;
  REQUIRE(replay(g, &b, &rr, nullptr, moves).ok());
  return b;
}

std::array<uint8_t, 8> prefix_of(const Game& g) {
  std::array<uint8_t, 8> p{};
  Fingerprint fp = game_fingerprint(g);
  std::copy(fp.begin(), fp.begin() + 8, p.begin());
  return p;
}

Point nth_move(const Game& g, int n) {  // 1-based
  int seen = 0;
  for (const Action& a : g.actions)
    if (a.kind == Action::Kind::Play && ++seen == n) return a.point;
  return kPass;
}

std::set<std::string> all_index_entries(PatternDb* db) {
  std::set<std::string> s;
  REQUIRE(db->for_each_position("", [&](std::string_view k, std::string_view v) {
                s.insert(std::string(k) + "=" + std::string(v));
                return true;
              }).ok());
  return s;
}

uint64_t stored_positions(PatternDb* db) {
  uint64_t n = 0;
  Game g;
  REQUIRE(db->for_each_game([&](const Fingerprint&, std::string_view rec) {
                REQUIRE(decode_game(rec, &g).ok());
                n += uint64_t(g.move_count()) + 1;
                return true;
              }).ok());
  return n;
}

}  // namespace

TEST_CASE("k smallest: equals the first k of a full sort, with many ties, for every k") {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const size_t n = 1 + rng() % 3000;
    std::vector<std::pair<int, int>> items(n);
    for (size_t i = 0; i < n; ++i) items[i] = {int(rng() % (round % 2 ? 10 : 100000)), int(i)};
    std::vector<std::pair<int, int>> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    for (size_t k : {size_t(1), size_t(2), size_t(10), n / 3 + 1, n, n + 5}) {
      KSmallest<std::pair<int, int>> sel(k);
      for (const auto& x : items) sel.offer(x);
      std::vector<std::pair<int, int>> want(sorted.begin(), sorted.begin() + std::ptrdiff_t(std::min(k, n)));
      CHECK(sel.sorted() == want);
      // Merging two halves gives the same.
      KSmallest<std::pair<int, int>> a(k), b(k), all(k);
      for (size_t i = 0; i < n; ++i) (i % 2 ? a : b).offer(items[i]);
      all.merge(a);
      all.merge(b);
      CHECK(all.sorted() == want);
    }
  }
}

TEST_CASE("symmetries: inverse and composition; the canonical hash is the same under all 16 transforms") {
  for (int s = 0; s < kSymmetries; ++s) {
    const int inv = inverse_symmetry(s);
    for (int t = 0; t < kSymmetries; ++t) {
      const int st = compose_symmetry(s, t);
      for (Point p : {Point{0, 0}, Point{3, 15}, Point{18, 7}, Point{9, 9}}) {
        CHECK(apply_symmetry(inv, apply_symmetry(s, p, 19), 19) == p);
        CHECK(apply_symmetry(st, p, 19) == apply_symmetry(t, apply_symmetry(s, p, 19), 19));
      }
    }
  }
  std::mt19937 rng(3);
  for (int size : {9, 13, 19}) {
    std::vector<std::pair<Point, Color>> stones;
    for (int i = 0; i < 40; ++i)
      stones.push_back({Point{int8_t(rng() % size), int8_t(rng() % size)}, rng() % 2 ? Color::Black : Color::White});
    std::set<uint64_t> canon, plain;
    for (int t = 0; t < kTransforms; ++t) {
      PositionHasher h(size);
      Board b(size);
      for (auto [p, c] : stones) {
        const Point q = apply_symmetry(transform_sym(t), p, size);
        const Color cc = apply_swap(t, c);
        h.change(q, b.at(q), cc);
        b.setup(q, cc);
      }
      canon.insert(h.canonical());
      plain.insert(h.hash(0));
    }
    CHECK(canon.size() == 1);
    CHECK(plain.size() == 16);  // a random position has no symmetry
  }
}

TEST_CASE("exact search finds a position stored under each of the 8 symmetries, colours exchanged or not") {
  TempDir dir("sgfpat-search");
  auto db = open_db(dir / "db");
  std::vector<Game> games = sample_games(0, 12);
  REQUIRE(games.size() >= 10);
  const Game original = games[0];
  const int n = 24;
  std::vector<Game> variants;
  for (int t = 0; t < kTransforms; ++t) variants.push_back(transformed(original, transform_sym(t), transform_swaps(t)));
  // The variants in two ingests, with other games between: incremental ingests keep the index.
  std::vector<Game> first(variants.begin(), variants.begin() + 5), second(variants.begin() + 5, variants.end());
  first.insert(first.end(), games.begin() + 1, games.begin() + 6);
  second.insert(second.end(), games.begin() + 6, games.end());
  import(db.get(), first);
  import(db.get(), second);
  REQUIRE(db->has_position_index());
  CHECK(all_index_entries(db.get()).size() == stored_positions(db.get()));

  std::vector<PositionHit> hits;
  for (int qt : {0, 5, 10}) {  // queries in three orientations
    const Game& query_game = variants[size_t(qt)];
    REQUIRE(find_exact(db.get(), board_after(query_game, n), &hits).ok());
    for (const Game& v : variants) {
      auto it = std::find_if(hits.begin(), hits.end(),
                             [&](const PositionHit& h) { return h.game == prefix_of(v) && h.position == n; });
      REQUIRE(it != hits.end());
      // The move played next, seen in the query's orientation, is the query game's own.
      CHECK(it->has_next);
      CHECK(it->next == nth_move(query_game, n + 1));
    }
    CHECK(hits.size() == variants.size());  // nothing else is equal at move 24
  }
  // A position nobody reached.
  Board empty_corner = board_after(original, n);
  empty_corner.setup(Point{0, 0}, Color::Black);
  empty_corner.setup(Point{18, 0}, Color::Black);
  REQUIRE(find_exact(db.get(), empty_corner, &hits).ok());
  CHECK(hits.empty());
  // The continuation table counts every variant once, at one move.
  REQUIRE(find_exact(db.get(), board_after(original, n), &hits).ok());
  auto table = continuations(hits, board_after(original, n));
  REQUIRE(table.size() == 1);
  CHECK(table[0].count == 16);
  CHECK(table[0].move == nth_move(original, n + 1));
}

TEST_CASE("a database stored without the index gets it built, equal to the one kept by ingest") {
  TempDir dir("sgfpat-search");
  std::vector<Game> games = sample_games(20, 15);
  // The ingest also meets duplicates (within a batch of 7 and across
  // batches) and an illegal game, whose replays gather index entries that
  // must not stay.
  std::vector<Game> offered = games;
  offered.insert(offered.begin() + 3, games[1]);
  offered.push_back(games[2]);
  Game illegal = games[4];
  illegal.actions.push_back(illegal.actions.back());  // a stone on an occupied point
  illegal.actions.back().color = opponent(illegal.actions.back().color);
  offered.insert(offered.begin() + 9, illegal);
  auto kept = open_db(dir / "kept");
  import(kept.get(), offered);
  CHECK(kept->game_count() == games.size());
  auto bare = open_db(dir / "bare");
  std::vector<std::pair<Fingerprint, std::string>> records;
  for (const Game& g : games) records.emplace_back(game_fingerprint(g), encode_game(g));
  REQUIRE(bare->add_games(records, 0).ok());  // as an sgfpat without the index stored them
  CHECK_FALSE(bare->has_position_index());
  std::vector<PositionHit> hits;
  CHECK_FALSE(find_exact(bare.get(), board_after(games[0], 10), &hits).ok());
  REQUIRE(build_position_index(bare.get()).ok());
  CHECK(bare->has_position_index());
  CHECK(all_index_entries(bare.get()) == all_index_entries(kept.get()));
  REQUIRE(find_exact(bare.get(), board_after(games[0], 10), &hits).ok());
  CHECK(!hits.empty());
}

TEST_CASE("index entries written in many runs equal one run's; an import cut before its run is written leaves the index incomplete, never wrong") {
  TempDir dir("sgfpat-search");
  const std::vector<Game> games = sample_games(60, 40);
  auto one = open_db(dir / "one");
  import(one.get(), games);
  const std::set<std::string> want = all_index_entries(one.get());
  REQUIRE(want.size() == stored_positions(one.get()));
  // A run of 500 entries: two to four games, several runs per batch of 7.
  const size_t tiny = 500 * sizeof(PositionEntry);
  {
    auto many = open_db(dir / "many", tiny);
    import(many.get(), games);
    CHECK(many->has_position_index());
    CHECK(all_index_entries(many.get()) == want);
  }
  for (int threads : {2, 3}) {  // each run written as several files side by side
    INFO("write threads " << threads);
    auto split = open_db(dir / ("split" + std::to_string(threads)), tiny, threads);
    import(split.get(), games);
    CHECK(split->has_position_index());
    CHECK(all_index_entries(split.get()) == want);
  }
  auto many = open_db(dir / "many");  // reopened: recorded complete
  CHECK(many->has_position_index());
  std::vector<PositionHit> hits;
  REQUIRE(find_exact(many.get(), board_after(games[5], 40), &hits).ok());
  CHECK(std::any_of(hits.begin(), hits.end(), [&](const PositionHit& h) { return h.position == 40; }));

  for (size_t run_bytes : {OpenOptions{}.position_run_bytes, tiny}) {
    INFO("run bytes " << run_bytes);
    const std::string path = dir / ("cut" + std::to_string(run_bytes));
    {
      auto cut = open_db(path, run_bytes);
      import(cut.get(), games, false);
      CHECK(cut->game_count() > 30);
    }
    auto cut = open_db(path);
    // What was written is right; it is recorded complete only when it
    // holds every stored game's entries (tiny runs may end with a batch).
    const std::set<std::string> part = all_index_entries(cut.get());
    CHECK(std::includes(want.begin(), want.end(), part.begin(), part.end()));
    if (run_bytes == tiny) CHECK(!part.empty());
    else CHECK_FALSE(cut->has_position_index());
    if (cut->has_position_index()) {
      CHECK(part.size() == stored_positions(cut.get()));
      continue;
    }
    CHECK(part.size() < stored_positions(cut.get()));
    CHECK(std::string(cut->position_index_state()) == "incomplete");
    CHECK(find_exact(cut.get(), board_after(games[0], 10), &hits).is_not_found());
    REQUIRE(build_position_index(cut.get()).ok());
    CHECK(cut->has_position_index());
    const std::set<std::string> rebuilt = all_index_entries(cut.get());
    CHECK(rebuilt.size() == stored_positions(cut.get()));
    CHECK(std::includes(want.begin(), want.end(), rebuilt.begin(), rebuilt.end()));
  }
}

TEST_CASE("--no-position-index: none kept, counts unchanged, searches refused by name; --position-index builds it") {
  TempDir dir("sgfpat-search");
  const auto lines = sample_lines(500, 120);
  const std::string first = dir / "first.sgf", second = dir / "second.sgf";
  write_file(first, join({lines.begin(), lines.begin() + 80}));
  write_file(second, join({lines.begin() + 80, lines.end()}));
  const std::vector<std::string> small = {"--levels", "3", "--threads", "1"};
  const std::string kept = dir / "kept", off = dir / "off", dropped = dir / "dropped";
  std::vector<std::string> no_index = small;
  no_index.push_back("--no-position-index");
  ingest_ok(kept, small, {first}, dir.path());
  ingest_ok(dropped, small, {first}, dir.path());
  CHECK(ingest_ok(off, no_index, {first}, dir.path())["position_index"] == "off");
  // A later ingest without the flag keeps the choice; the counts are those of
  // a database with the index.
  ingest_ok(kept, small, {second}, dir.path());
  CHECK(ingest_ok(off, small, {second}, dir.path())["position_index"] == "off");
  CHECK(ingest_ok(dropped, no_index, {second}, dir.path())["position_index"] == "off");
  for (const std::string& path : {off, dropped}) {
    INFO(path);
    std::string why;
    const DbSnapshot want = read_db(kept);
    REQUIRE(!want.counts.empty());
    CHECK(diff_counts(want.counts, read_db(path).counts, &why) == 0);
    INFO(why);
    auto db = open_db(path);
    CHECK(db->position_index_off());
    CHECK_FALSE(db->has_position_index());
    CHECK(all_index_entries(db.get()).empty());
    std::vector<PositionHit> hits;
    Game g;
    REQUIRE(parse_game(lines[3], &g).ok());
    Status st = find_exact(db.get(), board_after(g, 20), &hits);
    CHECK(st.is_not_found());
    CHECK(st.message().find("--position-index") != std::string::npos);
  }
  RunResult stats = run_cli({"stats", "--db", off, "--json"}, dir.path());
  REQUIRE(stats.exit_code == 0);
  CHECK(stats.json()["position_index"] == "off");
  // Turned back on: the same entries as the database that always kept it.
  std::vector<std::string> rebuild = small;
  rebuild.push_back("--position-index");
  CHECK(ingest_ok(off, rebuild, {}, dir.path())["position_index"] == "complete");
  auto a = open_db(kept), b = open_db(off);
  CHECK_FALSE(b->position_index_off());
  CHECK(all_index_entries(b.get()) == all_index_entries(a.get()));
  CHECK(all_index_entries(a.get()).size() == stored_positions(a.get()));
}

TEST_CASE("the index survives kill -9 of an ingest: it matches the stored games, before and after a rerun") {
  TempDir dir("sgfpat-search");
  const std::string input = dir / "games.sgf";
  write_file(input, join(sample_lines(0, kSampleGames)));
  const std::string db_path = dir / "db";
  auto args = ingest_args(db_path, {"--levels", "2", "--threads", "1"}, {input});
  // Killed right after its first batch of games is stored (a fail point).
  Child c(args, dir.path(), "killed", {fail_point_env("import.batch_stored@1")});
  const RunResult killed = c.wait();
  INFO(killed.err);
  REQUIRE(died_at_fail_point(killed, "import.batch_stored@1"));
  // Killed before its run of index entries was written, the index is
  // recorded incomplete (searches refuse it) and the rerun builds it.
  auto check = [&](const char* when) {
    INFO(std::string(when));
    auto db = open_db(db_path);
    MESSAGE(std::string(when) << ": " << db->game_count() << " games stored, index " << std::string(db->position_index_state()));
    CHECK(db->game_count() > 0);
    if (!db->has_position_index()) {
      // Refused by searches, and what it holds is right: every entry is
      // one of a stored game's.
      std::set<std::string> expected;
      Game g;
      PositionEntries entries;
      REQUIRE(db->for_each_game([&](const Fingerprint& fp, std::string_view rec) {
                    REQUIRE(decode_game(rec, &g).ok());
                    entries.clear();
                    REQUIRE(position_entries(g, fp, &entries).ok());
                    for (const PositionEntry& e : entries)
                      expected.insert(std::string(e.key.begin(), e.key.end()) + "=" +
                                      std::string(e.value.begin(), e.value.end()));
                    return true;
                  }).ok());
      const std::set<std::string> held = all_index_entries(db.get());
      CHECK(std::includes(expected.begin(), expected.end(), held.begin(), held.end()));
      std::vector<PositionHit> hits;
      CHECK(find_exact(db.get(), board_after(g, 10), &hits).is_not_found());
      return false;
    }
    CHECK(all_index_entries(db.get()).size() == stored_positions(db.get()));
    // Every stored game's position after 30 moves is found in it.
    int checked = 0;
    Game g;
    std::vector<PositionHit> hits;
    REQUIRE(db->for_each_game([&](const Fingerprint& fp, std::string_view rec) {
                  if (++checked % 97) return true;
                  REQUIRE(decode_game(rec, &g).ok());
                  const int at = std::min(30, g.move_count());
                  REQUIRE(find_exact(db.get(), board_after(g, at), &hits).ok());
                  CHECK(std::any_of(hits.begin(), hits.end(), [&](const PositionHit& h) {
                    return std::equal(h.game.begin(), h.game.end(), fp.begin()) && h.position == at;
                  }));
                  return true;
                }).ok());
    return true;
  };
  CHECK_FALSE(check("after the kill"));  // the index was left incomplete
  RunResult again = run(args, dir.path());
  INFO(again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(check("after a complete rerun"));
}

TEST_CASE("nearest scan: distances, games, positions and symmetries equal a from-scratch recomputation") {
  TempDir dir("sgfpat-search");
  auto db = open_db(dir / "db");
  std::vector<Game> games = sample_games(40, 30);
  import(db.get(), games);
  std::vector<Game> outside = sample_games(100, 3);
  REQUIRE(outside.size() == 3);

  std::vector<DistanceQuery> queries;
  auto add_query = [&](const Game& g, int moves, const std::string& region, int radius) {
    DistanceQuery q;
    Board b;
    ReplayResult rr;
    REQUIRE(replay(g, &b, &rr, nullptr, moves).ok());
    q.board = b;
    q.to_move = rr.to_move;
    REQUIRE(make_weights(19, region, nth_move(g, moves), radius, &q.weight).ok());
    queries.push_back(q);
  };
  add_query(outside[0], 40, "", 0);
  add_query(outside[1], 121, "", 4);
  add_query(games[3], 60, "tr", 0);           // a stored position: distance 0 found
  add_query(transformed(games[5], 6, true), 33, "C3:H9", 3);

  // From scratch: every position before a move of every stored game.
  std::vector<std::vector<PositionHit>> all(queries.size());
  struct Brute : ReplayObserver {
    const std::vector<DistanceQuery>* queries;
    std::vector<std::vector<PositionHit>>* all;
    std::array<uint8_t, 8> game{};
    void before_move(const Board& board, Color mover, Point, int number) override {
      for (size_t i = 0; i < queries->size(); ++i) {
        PositionHit h;
        h.distance = position_distance((*queries)[i], board, mover, &h.sym);
        h.game = game;
        h.position = number - 1;
        (*all)[i].push_back(h);
      }
    }
  } brute;
  brute.queries = &queries;
  brute.all = &all;
  Game g;
  Board b;
  ReplayResult rr;
  REQUIRE(db->for_each_game([&](const Fingerprint& fp, std::string_view rec) {
                REQUIRE(decode_game(rec, &g).ok());
                std::copy(fp.begin(), fp.begin() + 8, brute.game.begin());
                REQUIRE(replay(g, &b, &rr, &brute).ok());
                return true;
              }).ok());
  for (auto& v : all) std::sort(v.begin(), v.end(), hit_less);

  for (int k : {1, 9, 200}) {
    for (int threads : {1, 2}) {
      ScanOptions so;
      so.k = k;
      so.threads = threads;
      std::vector<std::vector<PositionHit>> hits;
      ScanStats stats;
      REQUIRE(scan_nearest(db.get(), queries, so, &hits, &stats).ok());
      CHECK(stats.games == db->game_count());
      CHECK(stats.positions == all[0].size());
      for (size_t i = 0; i < queries.size(); ++i) {
        INFO("query " << i << " k " << k << " threads " << threads);
        REQUIRE(hits[i].size() == size_t(k));
        for (size_t j = 0; j < size_t(k); ++j) {
          CHECK(hits[i][j].distance == all[i][j].distance);
          CHECK(hits[i][j].game == all[i][j].game);
          CHECK(hits[i][j].position == all[i][j].position);
          CHECK(hits[i][j].sym == all[i][j].sym);
        }
      }
      CHECK(hits[2][0].distance == 0);
    }
  }
}

TEST_CASE("sgfpat accuracy --knn measures the k-NN predictor without a priors file") {
  TempDir dir("sgfpat-search");
  write_file(dir / "stored.sgf", join(sample_lines(300, 40)));
  write_file(dir / "test.sgf", join(sample_lines(300, 2)));
  RunResult r = run_cli({"ingest", "--db", dir / "db", "--quiet", "--levels", "3", dir / "stored.sgf"}, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // The test games are stored games: with K = 1 the nearest position is the
  // same position (distance 0), so every sampled move is ranked first.
  r = run_cli({"accuracy", "--knn", "1", "--db", dir / "db", "--knn-positions", "20", "--json", dir / "test.sgf"},
              dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["estimator"] == "knn");
  CHECK(j["positions"].get<uint64_t>() == 20);
  CHECK(j["top1"].get<double>() > 0.9);
  // Neither --priors nor --knn: a usage error that says what to give.
  r = run_cli({"accuracy", dir / "test.sgf"}, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--priors") != std::string::npos);
}

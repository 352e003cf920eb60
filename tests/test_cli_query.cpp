// The query, stats and export commands, run as a user would: the sgfpat
// binary on a small database built from real games, its answers checked
// against each other and against the spec's TSV contract.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "corpus.h"
#include "pattern/diamond.h"
#include "pattern/key_scheme.h"
#include "pattern/pattern_string.h"
#include "store/pattern_db.h"

using namespace sgfpat;
using nlohmann::json;

namespace {

struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct TsvRow {
  int level = 0;
  uint64_t key = 0;
  std::string key_text;
  uint64_t played = 0, seen = 0, wins = 0;
  std::string pattern;
};

// A database of the first 200 games of one corpus month, built once.
struct Fixture {
  std::string dir, games, db, tsv, tsv_text;
  int ingested = 0;
  KeyScheme scheme;
  int min_played = 0;
  std::vector<TsvRow> rows;
  std::map<std::pair<int, uint64_t>, size_t> by_key;  // (level, key) -> row

  Fixture() {
    char tmpl[] = "/tmp/sgfpat-test-cli-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    dir = tmpl;
    games = dir + "/games.sgf";
    db = dir + "/db";
    tsv = dir + "/patterns.tsv";
    std::string src = testutil::sample_path();
    REQUIRE_MESSAGE(std::filesystem::exists(src), "the sample is missing: " << src);
    REQUIRE(std::system(("zcat " + quote(src) + " | head -200 > " + quote(games)).c_str()) == 0);
    Run r = run("ingest --db " + quote(db) + " " + quote(games) + " -j 2 -q --json");
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json j = json::parse(r.out);
    ingested = j["games_in_db"].get<int>();
    REQUIRE(ingested > 0);
    r = run("stats --db " + quote(db) + " --json --top 0");
    REQUIRE_MESSAGE(r.code == 0, r.err);
    j = json::parse(r.out);
    scheme.seed = std::stoull(j["seed"].get<std::string>(), nullptr, 16);
    scheme.levels = j["levels"].get<int>();
    scheme.symmetry = j["symmetry"].get<bool>();
    min_played = j["min_played"].get<int>();
    r = run("export --db " + quote(db) + " --format tsv -o " + quote(tsv));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    tsv_text = read_file(tsv);
    parse_tsv();
  }
  ~Fixture() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  Run run(const std::string& args) const {
    std::string err_file = dir + "/stderr.txt";
    std::string cmd = std::string(SGFPAT_BINARY) + " " + args + " 2>" + quote(err_file);
    Run r;
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_file(err_file);
    return r;
  }

  void parse_tsv() {
    std::istringstream in(tsv_text);
    std::string line;
    REQUIRE(std::getline(in, line));
    CHECK(line == "level\tkey\tplayed\tseen\twins\tpattern");
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      size_t pos = 0, tab;
      while ((tab = line.find('\t', pos)) != std::string::npos) f.push_back(line.substr(pos, tab - pos)), pos = tab + 1;
      f.push_back(line.substr(pos));
      REQUIRE_MESSAGE(f.size() == 6, line);
      TsvRow row;
      row.level = std::stoi(f[0]);
      row.key_text = f[1];
      row.key = std::stoull(f[1], nullptr, 16);
      row.played = std::stoull(f[2]);
      row.seen = std::stoull(f[3]);
      row.wins = std::stoull(f[4]);
      row.pattern = f[5];
      by_key[{row.level, row.key}] = rows.size();
      rows.push_back(row);
    }
  }

  const TsvRow* find(int level, uint64_t key) const {
    auto it = by_key.find({level, key});
    return it == by_key.end() ? nullptr : &rows[it->second];
  }
};

const Fixture& fx() {
  static Fixture f;
  return f;
}

// The levels array of a query --json answer must list exactly what the TSV
// lists for each key.
void check_levels_match_tsv(const json& levels) {
  for (const json& l : levels) {
    int level = l["level"].get<int>();
    uint64_t key = std::stoull(l["key"].get<std::string>(), nullptr, 16);
    const TsvRow* row = fx().find(level, key);
    REQUIRE_MESSAGE(row != nullptr, "level " << level << " key " << l["key"]);
    CHECK(l["played"].get<uint64_t>() == row->played);
    CHECK(l["seen"].get<uint64_t>() == row->seen);
    CHECK(l["wins"].get<uint64_t>() == row->wins);
    CHECK(l["pattern"].get<std::string>() == row->pattern);
    CHECK(l["points"].get<int>() == level_points(level));
  }
}

// Levels present form 1..m.
void check_levels_prefix(const json& levels, int largest) {
  for (size_t i = 0; i < levels.size(); ++i) CHECK(levels[i]["level"].get<int>() == int(i + 1));
  CHECK(int(levels.size()) == largest);
}

// The moves of the first game of the SGF file, as SGF point names.
std::vector<std::string> first_game_moves(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> moves;
  std::regex move_re(";[BW]\\[([a-s]{0,2})\\]");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), move_re); it != std::sregex_iterator(); ++it)
    moves.push_back((*it)[1]);
  return moves;
}

std::string gtp_of(const std::string& sgf_point) {
  int x = sgf_point[0] - 'a', y = sgf_point[1] - 'a';
  char col = char('A' + x + (x >= 8 ? 1 : 0));  // GTP skips I
  return std::string(1, col) + std::to_string(19 - y);
}

}  // namespace

TEST_CASE("export tsv: spec format, threshold, keys, canonical strings, closed under smaller levels") {
  const Fixture& f = fx();
  REQUIRE(f.ingested > 150);
  REQUIRE(!f.rows.empty());
  std::vector<std::set<std::string>> patterns(size_t(f.scheme.levels + 1));
  std::vector<uint64_t> per_level(size_t(f.scheme.levels), 0);
  int last_level = 0;
  uint64_t last_key = 0;
  for (const TsvRow& r : f.rows) {
    REQUIRE(r.level >= 1);
    REQUIRE(r.level <= f.scheme.levels);
    CHECK(std::regex_match(r.key_text, std::regex("[0-9a-f]{16}")));
    CHECK(pattern_level(r.pattern) == r.level);
    CHECK(pattern_key(r.pattern, f.scheme) == r.key);
    if (f.scheme.symmetry) CHECK(canonical_pattern(r.pattern) == r.pattern);
    CHECK(r.played >= uint64_t(f.min_played));
    CHECK(r.played <= r.seen);
    CHECK(r.wins <= r.played);
    // Sorted by level, then key; no duplicates.
    CHECK((r.level > last_level || (r.level == last_level && r.key > last_key)));
    last_level = r.level;
    last_key = r.key;
    CHECK(patterns[size_t(r.level)].insert(r.pattern).second);
    per_level[size_t(r.level - 1)]++;
  }
  // Closure: the level-i part of every level-(i+1) pattern is reported.
  uint64_t closure_checked = 0;
  for (const TsvRow& r : f.rows) {
    if (r.level < 2) continue;
    std::string smaller = r.pattern.substr(0, size_t(level_points(r.level - 1)));
    if (f.scheme.symmetry) smaller = canonical_pattern(smaller);
    CHECK_MESSAGE(patterns[size_t(r.level - 1)].count(smaller) == 1, "level " << r.level << " " << r.pattern);
    const TsvRow* below = f.find(r.level - 1, pattern_key(smaller, f.scheme));
    REQUIRE(below != nullptr);
    CHECK(below->played >= r.played);  // a smaller pattern is played at least as often
    CHECK(below->seen >= r.seen);
    ++closure_checked;
  }
  CHECK(closure_checked > 1000);
  // As many rows per level as stats reports.
  Run s = f.run("stats --db " + quote(f.db) + " --json --top 0");
  REQUIRE(s.code == 0);
  CHECK(json::parse(s.out)["patterns_per_level"].get<std::vector<uint64_t>>() == per_level);
  // -o - writes the same bytes to stdout.
  Run r = f.run("export --db " + quote(f.db) + " --format tsv -o -");
  CHECK(r.code == 0);
  CHECK(r.out == f.tsv_text);
  CHECK(r.err.find("patterns") != std::string::npos);
}

TEST_CASE("query --pattern gives the counts the TSV lists, for every level-1 pattern and deeper ones") {
  const Fixture& f = fx();
  int level1 = 0;
  for (const TsvRow& row : f.rows) {
    if (row.level != 1) continue;
    ++level1;
    // A non-canonical spelling of the same pattern.
    std::string p = transform_pattern(row.pattern, 5);
    Run r = f.run("query --db " + quote(f.db) + " --pattern '" + p + "' --json");
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json j = json::parse(r.out);
    REQUIRE(j["levels"].size() == 1);
    CHECK(j["largest_level"] == 1);
    CHECK(j["levels"][0]["played"].get<uint64_t>() == row.played);
    CHECK(j["levels"][0]["seen"].get<uint64_t>() == row.seen);
    CHECK(j["levels"][0]["wins"].get<uint64_t>() == row.wins);
    CHECK(j["levels"][0]["key"].get<std::string>() == row.key_text);
    CHECK(j["levels"][0]["pattern"].get<std::string>() == row.pattern);
  }
  CHECK(level1 > 10);
  // Deeper patterns: every smaller level is present too, with the TSV's counts.
  for (int level : {3, 6, f.scheme.levels}) {
    int tried = 0;
    for (const TsvRow& row : f.rows) {
      if (row.level != level || tried++ % 37 != 0 || tried > 150) continue;
      Run r = f.run("query --db " + quote(f.db) + " --pattern '" + transform_pattern(row.pattern, 3) + "' --json");
      REQUIRE_MESSAGE(r.code == 0, r.err);
      json j = json::parse(r.out);
      CHECK(j["largest_level"] == level);
      check_levels_prefix(j["levels"], level);
      check_levels_match_tsv(j["levels"]);
    }
    CHECK(tried > 0);
  }
  // A pattern no board has (every neighbour off the board): found nothing, exit 0, empty list.
  Run r = f.run("query --db " + quote(f.db) + " --pattern '############' --json");
  CHECK(r.code == 0);
  json j = json::parse(r.out);
  CHECK(j["levels"].empty());
  CHECK(j["largest_level"] == 0);
  r = f.run("query --db " + quote(f.db) + " --pattern '############'");
  CHECK(r.code == 0);
  CHECK(r.out.find("Not found") != std::string::npos);
}

TEST_CASE("query --sgf --move --point agrees with query --pattern of the spelled string") {
  const Fixture& f = fx();
  std::vector<std::string> moves = first_game_moves(f.games);
  REQUIRE(moves.size() > 120);
  int compared = 0;
  for (int n : {0, 1, 7, 30, 60, 99, 120}) {
    const std::string& next = moves[size_t(n)];  // the move actually played after n moves
    if (next.empty()) continue;
    std::string base = "query --db " + quote(f.db) + " --sgf " + quote(f.games) + " --game 1 --move " +
                       std::to_string(n) + " --json --point ";
    Run a = f.run(base + next);
    REQUIRE_MESSAGE(a.code == 0, a.err);
    json ja = json::parse(a.out);
    CHECK(ja["point_sgf"] == next);
    CHECK(ja["point"] == gtp_of(next));
    CHECK(ja["to_move"] == (n % 2 == 0 ? "B" : "W"));
    CHECK(ja["legal"] == true);
    // GTP and SGF names of the point give the same answer.
    Run g = f.run(base + gtp_of(next));
    REQUIRE(g.code == 0);
    CHECK(json::parse(g.out)["levels"] == ja["levels"]);
    // A played move: at least its level-1 pattern is reported here.
    const json& levels = ja["levels"];
    REQUIRE(!levels.empty());
    int largest = ja["largest_level"].get<int>();
    check_levels_prefix(levels, largest);
    check_levels_match_tsv(levels);
    // The same pattern given as a string.
    std::string deepest = levels.back()["pattern"].get<std::string>();
    Run b = f.run("query --db " + quote(f.db) + " --pattern '" + deepest + "' --json");
    REQUIRE(b.code == 0);
    json jb = json::parse(b.out);
    CHECK(jb["levels"] == levels);
    CHECK(jb["largest_level"] == largest);
    ++compared;
  }
  CHECK(compared >= 6);
  // The human form names the point, shows the table and a diagram with the center.
  Run h = f.run("query --db " + quote(f.db) + " --sgf " + quote(f.games) + " --move 30 --point " + moves[30]);
  CHECK(h.code == 0);
  CHECK(h.out.find(gtp_of(moves[30])) != std::string::npos);
  CHECK(h.out.find("play rate") != std::string::npos);
  CHECK(h.out.find('*') != std::string::npos);
}

TEST_CASE("stats --json: game count, settings and a top list with strings") {
  const Fixture& f = fx();
  Run r = f.run("stats --db " + quote(f.db) + " --json --level 4 --top 5");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json j = json::parse(r.out);
  CHECK(j["games"].get<int>() == f.ingested);
  CHECK(j["games_counted"].get<int>() == f.ingested);
  CHECK(j["stale"] == false);
  CHECK(j["format_version"] == 1);
  CHECK(j["disk_bytes"].get<uint64_t>() > 0);
  CHECK(j["positions"].get<uint64_t>() > 100 * uint64_t(f.ingested));
  const json& top = j["top"]["patterns"];
  REQUIRE(top.size() == 5);
  uint64_t prev = UINT64_MAX;
  for (const json& e : top) {
    uint64_t key = std::stoull(e["key"].get<std::string>(), nullptr, 16);
    const TsvRow* row = f.find(4, key);
    REQUIRE(row != nullptr);
    CHECK(e["played"].get<uint64_t>() == row->played);
    CHECK(e["seen"].get<uint64_t>() == row->seen);
    REQUIRE(e["pattern"].is_string());
    CHECK(e["pattern"].get<std::string>() == row->pattern);
    CHECK(e["played"].get<uint64_t>() <= prev);
    prev = e["played"].get<uint64_t>();
  }
  // No level-4 row of the TSV outside the list is played more than the 5th of the list.
  std::set<std::string> listed;
  for (const json& e : top) listed.insert(e["key"].get<std::string>());
  for (const TsvRow& row : f.rows)
    if (row.level == 4 && !listed.count(row.key_text)) CHECK(row.played <= prev);
  // The human form shows diagrams.
  Run h = f.run("stats --db " + quote(f.db));
  CHECK(h.code == 0);
  CHECK(h.out.find("games stored") != std::string::npos);
  CHECK(h.out.find("#1") != std::string::npos);
  CHECK(h.out.find("unavailable") == std::string::npos);
  // A level the database does not count is a usage error.
  CHECK(f.run("stats --db " + quote(f.db) + " --level 99").code == 2);
}

TEST_CASE("query and stats: bad input and missing databases fail clearly") {
  const Fixture& f = fx();
  const std::string q = "query --db " + quote(f.db) + " ";
  Run r = f.run(q + "--pattern 'XXQ.'");
  CHECK(r.code == 3);
  CHECK(r.err.find("not a pattern string") != std::string::npos);
  r = f.run(q + "--pattern 'XXX'");
  CHECK(r.code == 3);
  CHECK(r.err.find("not a pattern string") != std::string::npos);
  r = f.run(q + "--pattern ''");
  CHECK(r.code == 3);
  // An occupied point, a point off the board, a move past the end.
  std::vector<std::string> moves = first_game_moves(f.games);
  r = f.run(q + "--sgf " + quote(f.games) + " --move 10 --point " + moves[0]);
  CHECK(r.code == 3);
  CHECK(r.err.find("not empty") != std::string::npos);
  r = f.run(q + "--sgf " + quote(f.games) + " --move 10 --point Z99");
  CHECK(r.code == 3);
  CHECK(r.err.find("not a point") != std::string::npos);
  r = f.run(q + "--sgf " + quote(f.games) + " --move 100000 --point D4");
  CHECK(r.code == 3);
  // A game past the end of the file is bad input; game 0 is bad usage; an
  // input that cannot be read is an I/O failure (README "Errors and exit codes").
  r = f.run(q + "--sgf " + quote(f.games) + " --game 100000 --move 1 --point D4");
  CHECK(r.code == 3);
  CHECK(r.err.find("game(s)") != std::string::npos);
  r = f.run(q + "--sgf " + quote(f.games) + " --game 0 --move 1 --point D4");
  CHECK(r.code == 2);
  r = f.run(q + "--sgf " + quote(f.dir + "/no-such.sgf") + " --move 1 --point D4");
  CHECK(r.code == 1);
  CHECK(r.err.find("no-such.sgf") != std::string::npos);
  // Usage: neither or both forms, --sgf without --move.
  CHECK(f.run(q).code == 2);
  CHECK(f.run(q + "--pattern XXXX --sgf " + quote(f.games) + " --move 1 --point D4").code == 2);
  CHECK(f.run(q + "--sgf " + quote(f.games) + " --point D4").code == 2);
  // No database there.
  const std::string missing = f.dir + "/no-such-db";
  for (const std::string& cmd : {"query --db " + quote(missing) + " --pattern XXXX", "stats --db " + quote(missing),
                                 "export --db " + quote(missing) + " --format tsv -o -"}) {
    r = f.run(cmd);
    CHECK_MESSAGE(r.code == 1, cmd);
    CHECK_MESSAGE(r.err.find("no pattern database") != std::string::npos, cmd << ": " << r.err);
    CHECK(r.out.empty());
  }
  CHECK(!std::filesystem::exists(missing));
}

TEST_CASE("patterns below min_played are stored but never reported") {
  // A hand-made database: one level-1 pattern played often enough, the
  // level-2 pattern around it and another level-1 pattern played once.
  const Fixture& f = fx();
  const std::string path = f.dir + "/synthetic-db";
  KeyScheme scheme;  // default seed, 10 levels, symmetry on
  const std::string l1 = "X...", l2 = "X...O.......", rare = "OO..";
  {
    OpenOptions open;
    open.create_if_missing = true;
    open.settings.scheme = scheme;
    open.settings.min_played = 2;
    std::unique_ptr<PatternDb> db;
    REQUIRE(PatternDb::Open(path, open, &db).ok());
    uint32_t gen = 0;
    REQUIRE(db->begin_generation(&gen).ok());
    REQUIRE(testutil::write_counts(*db, gen, {{1, pattern_key(l1, scheme), PatternCounts{5, 50, 2}},
                                 {2, pattern_key(l2, scheme), PatternCounts{1, 20, 1}},
                                 {1, pattern_key(rare, scheme), PatternCounts{1, 10, 0}}})
                .ok());
    CountSummary summary;
    summary.patterns_per_level = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    REQUIRE(db->commit_generation(gen, summary).ok());
  }
  Run r = f.run("query --db " + quote(path) + " --pattern '" + transform_pattern(l2, 6) + "' --json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json j = json::parse(r.out);
  REQUIRE(j["levels"].size() == 1);
  CHECK(j["levels"][0]["level"] == 1);
  CHECK(j["levels"][0]["played"] == 5);
  CHECK(j["levels"][0]["seen"] == 50);
  CHECK(j["levels"][0]["wins"] == 2);
  CHECK(j["levels"][0]["pattern"] == canonical_pattern(l1));
  CHECK(j["largest_level"] == 1);
  r = f.run("query --db " + quote(path) + " --pattern " + rare + " --json");
  CHECK(r.code == 0);
  CHECK(json::parse(r.out)["levels"].empty());
  // stats lists only the reported pattern; with no stored game it cannot draw it.
  r = f.run("stats --db " + quote(path) + " --json --level 1");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  j = json::parse(r.out);
  CHECK(j["top"]["reported"] == 1);
  REQUIRE(j["top"]["patterns"].size() == 1);
  CHECK(j["top"]["patterns"][0]["played"] == 5);
  CHECK(j["top"]["patterns"][0]["pattern"].is_null());
  r = f.run("stats --db " + quote(path) + " --level 1");
  CHECK(r.code == 0);
  CHECK(r.out.find("unavailable") != std::string::npos);
  // export needs a stored game showing each reported pattern: here there is none.
  r = f.run("export --db " + quote(path) + " --format tsv -o " + quote(f.dir + "/synthetic.tsv"));
  CHECK(r.code == 1);
  CHECK(r.err.find("not met") != std::string::npos);
  CHECK(!std::filesystem::exists(f.dir + "/synthetic.tsv"));
}

// Helpers of the sharded-counting tests: a small corpus with duplicates
// across its files and records that must not count, the shard steps run
// as separate processes, and the TSV export compared byte for byte.
#pragma once
#include <string>
#include <vector>

#include "test_util.h"

namespace shardtest {

using namespace testutil;

// An illegal record (rejected) and a 9x9 game (filtered by --sizes 19).
inline const char* const kIllegal = "(;GM[1]SZ[19]RE[B+R];B[dd];W[dd])\n";
inline const char* const kSmall = "(;GM[1]SZ[9]RE[W+R];B[ee];W[cc];B[gg];W[cg])\n";

// Every entry of a database's position index, key and value, in key order
// (empty when it cannot be read).
inline std::vector<std::string> position_entries(const std::string& path) {
  sgfpat::OpenOptions opts;
  opts.secondary = true;
  std::unique_ptr<sgfpat::PatternDb> db;
  std::vector<std::string> out;
  if (!sgfpat::PatternDb::Open(path, opts, &db).ok()) return out;
  const sgfpat::Status s = db->for_each_position("", [&](std::string_view k, std::string_view v) {
    out.push_back(std::string(k) + '=' + std::string(v));
    return true;
  });
  if (!s.ok()) out.clear();
  return out;
}

// Three files of the first `games` games of tygem-2005-11 that overlap
// (about a tenth of the games are in two files, so in two shards' reading),
// with the hand-made records spread over them.  Returns their paths.
inline std::vector<std::string> write_corpus(const std::string& dir, size_t games) {
  const std::vector<std::string> lines = sample_lines(0, games);
  REQUIRE(lines.size() == games);
  const size_t third = games / 3, overlap = games / 10;
  auto slice = [&](size_t from, size_t to) {
    return join(std::vector<std::string>(lines.begin() + long(from), lines.begin() + long(std::min(to, games))));
  };
  std::vector<std::string> paths = {dir + "/a.sgf", dir + "/b.sgf", dir + "/c.sgf"};
  write_file(paths[0], slice(0, third + overlap) + kIllegal);
  write_file(paths[1], slice(third, 2 * third + overlap) + kSmall);
  write_file(paths[2], slice(2 * third, games) + slice(0, overlap) + kIllegal);
  return paths;
}

inline std::string export_tsv(const std::string& db, const std::string& scratch) {
  const std::string out = db + ".tsv";
  RunResult r = run_cli({"export", "--db", db, "-f", "tsv", "-o", out}, scratch);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return read_file(out);
}

// Runs `sgfpat shard ARGS...`, which must succeed.
inline nlohmann::json shard_step(std::vector<std::string> args, const std::string& scratch) {
  args.insert(args.begin(), "shard");
  args.push_back("--json");
  RunResult r = run_cli(args, scratch);
  INFO("shard " << args[1] << ": " << r.err);
  REQUIRE(r.exit_code == 0);
  return r.json();
}

}  // namespace shardtest

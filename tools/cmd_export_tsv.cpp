// sgfpat export --format tsv: every reported pattern with its counts and
// its canonical string.  The database keeps keys only, so the strings come
// from one replay of the stored games: every reported pattern was played
// (played >= min_played >= 1), so walking the levels of each played move,
// up to the first level whose key is not reported, meets them all.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd_export.h"
#include "commands.h"
#include "pattern_names.h"
#include "progress.h"

namespace sgfpat::cli {

namespace {
using Clock = std::chrono::steady_clock;

// Buffered writes to a FILE*, remembering the first error.
class Out {
 public:
  explicit Out(FILE* f) : f_(f) { buf_.reserve(kFlushAt + 512); }
  void put(std::string_view s) {
    buf_ += s;
    if (buf_.size() >= kFlushAt) flush();
  }
  void put_u64(uint64_t v) {
    char tmp[24];
    int n = std::snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    buf_.append(tmp, size_t(n));
  }
  bool flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) ok_ = false;
    buf_.clear();
    return ok_;
  }
  bool ok() const { return ok_; }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  FILE* f_;
  std::string buf_;
  bool ok_ = true;
};
}  // namespace

int export_tsv(PatternDb& db, const std::string& out_path, bool json) {
  const char* me = "sgfpat export: ";
  auto t0 = Clock::now();
  const KeyScheme& scheme = db.settings().scheme;
  const uint64_t min_played = uint64_t(db.settings().min_played);
  const int levels = scheme.levels;

  // ---- the reported patterns, in (level, key) order ----
  PatternTable table(levels);
  Status st = db.for_each_count(0, [&](int level, uint64_t key, const PatternCounts& c) {
    if (level >= 1 && level <= levels && c.played >= min_played) table.add(level, key, c);
    return true;
  });
  if (!st.ok()) {
    return fail(me, st);
  }
  table.seal();

  // ---- their strings ----
  RepresentativeSearch search;
  search.closed = true;
  st = find_representatives(db, &table, &search);
  if (!st.ok()) {
    return fail(me, st);
  }
  if (search.key_mismatches) {
    std::cerr << me << "internal error: " << search.key_mismatches
              << " spelled pattern(s) disagree with the key they were found under\n";
    return kFailure;
  }
  if (table.missing()) {
    std::cerr << me << table.missing() << " reported pattern(s) were not met when replaying the "
              << with_commas(search.games_replayed) << " stored games (per level:";
    for (int l = 1; l <= levels; ++l)
      if (size_t m = table.missing(l)) std::cerr << " L" << l << " " << m;
    std::cerr << "); the counts do not match the stored games\n";
    return kFailure;
  }

  // ---- write (to a temporary file renamed at the end) ----
  const bool to_stdout = out_path == "-";
  std::string tmp_path;
  FILE* f = stdout;
  if (!to_stdout) {
    tmp_path = out_path + ".tmp-" + std::to_string(::getpid());
    f = std::fopen(tmp_path.c_str(), "wb");
    if (!f) {
      std::cerr << me << "cannot write " << out_path << ": " << std::strerror(errno) << "\n";
      return kFailure;
    }
  }
  Out out(f);
  out.put("level\tkey\tplayed\tseen\twins\tpattern\n");
  std::vector<uint64_t> written(size_t(levels), 0);
  for (int l = 1; l <= levels; ++l) {
    for (size_t i = 0; i < table.size(l); ++i) {
      const PatternCounts& c = table.counts(l, i);
      out.put_u64(uint64_t(l));
      out.put("\t");
      out.put(key_hex(table.key(l, i)));
      out.put("\t");
      out.put_u64(c.played);
      out.put("\t");
      out.put_u64(c.seen);
      out.put("\t");
      out.put_u64(c.wins);
      out.put("\t");
      out.put(table.string(l, i));
      out.put("\n");
      ++written[size_t(l - 1)];
    }
  }
  bool ok = out.flush();
  if (to_stdout) {
    ok = std::fflush(stdout) == 0 && ok;
  } else {
    ok = std::fclose(f) == 0 && ok;
    std::error_code ec;
    if (ok) std::filesystem::rename(tmp_path, out_path, ec);
    if (!ok || ec) {
      std::cerr << me << "writing " << out_path << " failed: " << (ec ? ec.message() : std::strerror(errno)) << "\n";
      std::filesystem::remove(tmp_path, ec);
      return kFailure;
    }
  }
  if (!ok) {
    std::cerr << me << "writing to stdout failed\n";
    return kFailure;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  uint64_t total = 0;
  for (uint64_t w : written) total += w;

  if (json) {
    nlohmann::ordered_json j;
    j["db"] = db.path();
    j["format"] = "tsv";
    j["output"] = out_path;
    j["scheme"] = scheme.describe();
    j["min_played"] = min_played;
    j["patterns"] = total;
    j["patterns_per_level"] = written;
    j["games_replayed"] = search.games_replayed;
    j["replay_seconds"] = search.seconds;
    j["seconds"] = seconds;
    (to_stdout ? std::cerr : std::cout) << j.dump() << "\n";
  } else {
    std::string levels_text;
    for (int l = 1; l <= levels; ++l)
      levels_text += " L" + std::to_string(l) + " " + with_commas(written[size_t(l - 1)]);
    std::cerr << "sgfpat export: " << with_commas(total) << " patterns to " << (to_stdout ? "stdout" : out_path) << " ("
              << levels_text.substr(1) << "), " << format_text("%.2f", seconds) << " s ("
              << with_commas(search.games_replayed) << " games replayed for the strings in "
              << format_text("%.2f", search.seconds) << " s)\n";
  }
  return kOk;
}

}  // namespace sgfpat::cli

// Input layer: the collection splitter, compressed files, archives,
// directories, stdin, error reporting, GameStream, and the real corpus.
#include <doctest/doctest.h>

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "corpus.h"
#include "io/game_splitter.h"
#include "io/game_text_reader.h"
#include "sgf/game_stream.h"

using namespace sgfpat;
namespace fs = std::filesystem;

namespace {

// A ByteSource over a string, handing out at most `step` bytes per read and
// optionally failing once `fail_at` bytes were delivered.
class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string s, size_t step = 1 << 20, size_t fail_at = std::string::npos)
      : s_(std::move(s)), step_(step), fail_at_(fail_at) {}
  size_t read(char* buf, size_t n) override {
    size_t limit = std::min(s_.size(), fail_at_);
    if (pos_ >= limit) {
      if (fail_at_ != std::string::npos) error_ = "injected failure";
      return 0;
    }
    size_t k = std::min({n, step_, limit - pos_});
    std::copy(s_.data() + pos_, s_.data() + pos_ + k, buf);
    pos_ += k;
    return k;
  }

 private:
  std::string s_;
  size_t step_, fail_at_, pos_ = 0;
};

// "(;C[" + n bytes + "])" produced on the fly, then a small game: a huge
// input that must not be held in memory.
class HugeGameSource : public ByteSource {
 public:
  explicit HugeGameSource(size_t n) : n_(n) {}
  size_t read(char* buf, size_t n) override {
    const std::string head = "(;C[", tail = "])(;B[aa])";
    size_t total = head.size() + n_ + tail.size();
    size_t k = 0;
    while (k < n && pos_ < total) {
      char c = pos_ < head.size() ? head[pos_]
               : pos_ < head.size() + n_ ? 'x'
                                         : tail[pos_ - head.size() - n_];
      buf[k++] = c;
      ++pos_;
    }
    return k;
  }

 private:
  size_t n_, pos_ = 0;
};

struct Split {
  std::vector<std::string> games;
  std::vector<uint64_t> indexes;
  std::vector<std::string> errors;  // "#index: message"
};

Split split_all(ByteSource* src, size_t max_game = GameSplitter::kDefaultMaxGameBytes,
                size_t chunk = GameSplitter::kDefaultChunkBytes) {
  GameSplitter sp(max_game, chunk);
  sp.reset(src);
  Split out;
  std::string text, err;
  uint64_t index = 0;
  for (;;) {
    auto r = sp.next(&text, &index, &err);
    if (r == GameSplitter::Result::End) break;
    if (r == GameSplitter::Result::Game) {
      out.games.push_back(text);
      out.indexes.push_back(index);
    } else {
      std::string e = "#";
      e += std::to_string(index);
      e += ": ";
      e += err;
      out.errors.push_back(e);
    }
  }
  return out;
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "sgfpat-io-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_file(const std::string& path, const std::string& content) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  REQUIRE(out.good());
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void run(const std::string& cmd) {
  INFO("command: " << cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);
}

bool have_tool(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

// Writes an archive with libarchive (zip, or a raw zstd stream) for when the
// command line tool is not installed, and to read zips in libarchive's style.
void write_with_libarchive(const std::string& path, bool zip,
                           const std::vector<std::pair<std::string, std::string>>& members) {
  struct archive* a = archive_write_new();
  if (zip) {
    REQUIRE(archive_write_set_format_zip(a) == ARCHIVE_OK);
  } else {
    REQUIRE(archive_write_add_filter_zstd(a) == ARCHIVE_OK);
    REQUIRE(archive_write_set_format_raw(a) == ARCHIVE_OK);
  }
  REQUIRE(archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK);
  for (const auto& [name, data] : members) {
    struct archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, la_int64_t(data.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    REQUIRE(archive_write_header(a, e) == ARCHIVE_OK);
    REQUIRE(archive_write_data(a, data.data(), data.size()) == la_ssize_t(data.size()));
    archive_entry_free(e);
  }
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  archive_write_free(a);
}

struct ReadAll {
  std::vector<GameText> games;
  std::vector<ReadError> errors;
  ReadProgress progress;
  // "member#index" (or "file#index" for plain files), in order.
  std::vector<std::string> where() const {
    std::vector<std::string> w;
    for (const auto& g : games)
      w.push_back((g.origin.member.empty() ? fs::path(g.origin.file).filename().string() : g.origin.member) +
                  "#" + std::to_string(g.origin.index));
    return w;
  }
  std::string error_text() const {
    std::string s;
    for (const auto& e : errors) s += e.message + "\n";
    return s;
  }
};

ReadAll read_all(std::vector<std::string> inputs, ReaderOptions opt = {}) {
  ReadAll r;
  GameTextReader reader(std::move(inputs), [&](const ReadError& e) { r.errors.push_back(e); }, opt);
  GameText t;
  while (reader.next(&t)) r.games.push_back(t);
  r.progress = reader.progress();
  return r;
}

const std::string kGameA = "(;GM[1]SZ[9];B[aa];W[bb])";
const std::string kGameB = "(;GM[1]SZ[9]C[a ) and a ( and \\] inside];B[cc])";
const std::string kGameC = "(;SZ[9];B[dd](;W[ee])(;W[ff]C[(]))";

}  // namespace

// ---------------------------------------------------------------------------
// Splitter

TEST_CASE("splitter: a collection with text before, between and after games") {
  std::string text = "\xEF\xBB\xBFSome header (not a game) and ((\n" + kGameA + "\r\njunk ] [ \\ here\n" +
                     kGameB + kGameC + "\ntrailing (text)\n";
  for (size_t step : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(64), size_t(1) << 20}) {
    for (size_t chunk : {size_t(1), size_t(5), size_t(64) << 10}) {
      StringSource src(text, step);
      Split s = split_all(&src, GameSplitter::kDefaultMaxGameBytes, chunk);
      INFO("step " << step << " chunk " << chunk);
      CHECK(s.errors.empty());
      CHECK(s.games == std::vector<std::string>{kGameA, kGameB, kGameC});
      CHECK(s.indexes == std::vector<uint64_t>{0, 1, 2});
    }
  }
}

TEST_CASE("splitter: brackets and escapes inside values do not count") {
  StringSource src("(;C[)]C[\\]))]C[(((];B[aa])(;C[end with backslash \\\\](;B[bb]))");
  Split s = split_all(&src, GameSplitter::kDefaultMaxGameBytes, 3);
  CHECK(s.errors.empty());
  CHECK(s.games == std::vector<std::string>{"(;C[)]C[\\]))]C[(((];B[aa])",
                                            "(;C[end with backslash \\\\](;B[bb]))"});
}

TEST_CASE("splitter: an unterminated final game is an error") {
  StringSource src(kGameA + "\n(;GM[1];B[aa];W[bb]C[open");
  Split s = split_all(&src, 1 << 20, 4);
  CHECK(s.games == std::vector<std::string>{kGameA});
  CHECK(s.errors == std::vector<std::string>{"#1: unterminated game (input ends inside it)"});
  // A stray "(" at the very end is not a game.
  StringSource src2(kGameA + " (");
  Split s2 = split_all(&src2);
  CHECK(s2.games.size() == 1);
  CHECK(s2.errors.empty());
}

TEST_CASE("splitter: a game over the size cap is skipped and reading resyncs") {
  std::string big = "(;C[" + std::string(300, 'x') + "];B[aa](;W[bb])(;W[cc]))";
  std::string text = kGameA + big + kGameB + big + kGameC;
  for (size_t chunk : {size_t(3), size_t(64), size_t(4096)}) {
    StringSource src(text, 17);
    Split s = split_all(&src, 100, chunk);
    INFO("chunk " << chunk);
    CHECK(s.games == std::vector<std::string>{kGameA, kGameB, kGameC});
    CHECK(s.indexes == std::vector<uint64_t>{0, 2, 4});
    CHECK(s.errors == std::vector<std::string>{"#1: game larger than 100 bytes, skipped",
                                               "#3: game larger than 100 bytes, skipped"});
  }
}

TEST_CASE("splitter: memory stays bounded on a 64 MiB game") {
  HugeGameSource src(size_t(64) << 20);
  GameSplitter sp(size_t(1) << 20, size_t(64) << 10);
  sp.reset(&src);
  std::string text, err;
  uint64_t index = 99;
  REQUIRE(sp.next(&text, &index, &err) == GameSplitter::Result::Error);
  CHECK(index == 0);
  CHECK(err == "game larger than 1048576 bytes, skipped");
  CHECK(text.capacity() < (size_t(4) << 20));
  REQUIRE(sp.next(&text, &index, &err) == GameSplitter::Result::Game);
  CHECK(text == "(;B[aa])");
  CHECK(index == 1);
  CHECK(text.capacity() < (size_t(4) << 20));
  CHECK(sp.next(&text, &index, &err) == GameSplitter::Result::End);
  CHECK(sp.bytes_read() == 4 + (size_t(64) << 20) + 10);
}

TEST_CASE("splitter: a failing source ends the stream without a false game") {
  std::string text = kGameA + kGameB;
  StringSource src(text, 5, kGameA.size() + 10);
  Split s = split_all(&src, 1 << 20, 8);
  CHECK(s.games == std::vector<std::string>{kGameA});
  CHECK(s.errors.empty());  // the source's own error is the caller's to report
  CHECK(src.error() == "injected failure");
}

// ---------------------------------------------------------------------------
// Files, compression, directories

TEST_CASE("reader: plain files, any explicit name, origins and progress") {
  TempDir dir;
  write_file(dir / "one.sgf", kGameA + "\n" + kGameB + "\n");
  write_file(dir / "two.txt", "header\n" + kGameC);
  write_file(dir / "empty.sgf", "");
  ReadAll r = read_all({dir / "one.sgf", dir / "empty.sgf", dir / "two.txt"});
  // An input that holds no game is said, never skipped silently.
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == dir / "empty.sgf" + ": no SGF game in this file");
  REQUIRE(r.games.size() == 3);
  CHECK(r.games[0].text == kGameA);
  CHECK(r.games[0].origin.file == dir / "one.sgf");
  CHECK(r.games[0].origin.member.empty());
  CHECK(r.games[1].origin.index == 1);
  CHECK(r.games[2].text == kGameC);
  CHECK(r.games[2].origin.file == dir / "two.txt");
  CHECK(r.games[2].origin.index == 0);
  CHECK(r.progress.files_total == 3);
  CHECK(r.progress.files_done == 3);
  CHECK(r.progress.bytes_total == fs::file_size(dir / "one.sgf") + fs::file_size(dir / "two.txt"));
  CHECK(r.progress.bytes_done == r.progress.bytes_total);
  CHECK(r.progress.games == 3);
  CHECK(r.progress.errors == 1);
}

TEST_CASE("reader: progress grows while reading") {
  TempDir dir;
  std::string many;
  for (int i = 0; i < 5000; ++i) many += kGameA + "\n";
  write_file(dir / "many.sgf", many);
  write_file(dir / "few.sgf", kGameB);
  GameTextReader reader({dir / "many.sgf", dir / "few.sgf"}, {}, ReaderOptions{1 << 20, 4096});
  GameText t;
  REQUIRE(reader.next(&t));
  ReadProgress p = reader.progress();
  CHECK(p.files_done == 0);
  CHECK(p.bytes_done > 0);
  CHECK(p.bytes_done < many.size());
  CHECK(p.bytes_total == many.size() + kGameB.size());
  int n = 1;
  while (reader.next(&t)) ++n;
  CHECK(n == 5001);
  CHECK(reader.progress().bytes_done == p.bytes_total);
}

TEST_CASE("reader: gzip, bzip2, xz and zstd single files, by magic and by name") {
  TempDir dir;
  const std::string content = kGameA + "\n" + kGameB + "\n" + kGameC + "\n";
  write_file(dir / "src.sgf", content);
  run("gzip -c " + dir / "src.sgf" + " > " + dir / "g.sgf.gz");
  run("bzip2 -c " + dir / "src.sgf" + " > " + dir / "b.sgf.bz2");
  run("xz -c " + dir / "src.sgf" + " > " + dir / "x.sgf.xz");
  if (have_tool("zstd")) {
    run("zstd -q -c " + dir / "src.sgf" + " > " + dir / "z.sgf.zst");
  } else {
    write_with_libarchive(dir / "z.sgf.zst", false, {{"data", content}});
  }
  // Compressed content under a plain name is found by its magic bytes.
  run("gzip -c " + dir / "src.sgf" + " > " + dir / "hidden.sgf");
  run("xz -c " + dir / "src.sgf" + " > " + dir / "hidden.dat");

  for (std::string name : {"g.sgf.gz", "b.sgf.bz2", "x.sgf.xz", "z.sgf.zst", "hidden.sgf", "hidden.dat"}) {
    INFO(name);
    ReadAll r = read_all({dir / name});
    CHECK(r.error_text() == "");
    REQUIRE(r.games.size() == 3);
    CHECK(r.games[0].text == kGameA);
    CHECK(r.games[1].text == kGameB);
    CHECK(r.games[2].text == kGameC);
    CHECK(r.games[2].origin.index == 2);
    CHECK(r.games[2].origin.file == dir / name);
    CHECK(r.progress.bytes_done == fs::file_size(dir / name));
  }
}

TEST_CASE("reader: a big gzip collection streams in small chunks") {
  TempDir dir;
  std::string content;
  for (int i = 0; i < 20000; ++i) content += "(;GN[g" + std::to_string(i) + "];B[aa];W[bb])\n";
  write_file(dir / "big.sgf", content);
  run("gzip -c " + dir / "big.sgf" + " > " + dir / "big.sgf.gz");
  ReadAll r = read_all({dir / "big.sgf.gz"}, ReaderOptions{1 << 20, 1000});
  CHECK(r.errors.empty());
  REQUIRE(r.games.size() == 20000);
  CHECK(r.games[12345].text == "(;GN[g12345];B[aa];W[bb])");
  CHECK(r.games[12345].origin.index == 12345);
}

TEST_CASE("reader: concatenated compressed streams read as one stream") {
  TempDir dir;
  write_file(dir / "a.sgf", kGameA);
  write_file(dir / "b.sgf", kGameB);
  std::vector<std::pair<std::string, std::string>> tools = {
      {"gzip -c", "gz"}, {"bzip2 -c", "bz2"}, {"xz -c", "xz"}, {"zstd -q -c", "zst"}};
  for (const auto& [tool, ext] : tools) {
    if (ext == "zst" && !have_tool("zstd")) continue;  // covered by the libarchive writer elsewhere
    INFO(ext);
    std::string out = dir / ("cat.sgf." + ext);
    run(tool + " " + dir / "a.sgf" + " > " + out);
    run(tool + " " + dir / "b.sgf" + " >> " + out);
    ReadAll r = read_all({out});
    CHECK(r.error_text() == "");
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[1].text == kGameB);
    CHECK(r.games[1].origin.index == 1);
  }
}

TEST_CASE("reader: corrupt, truncated and misnamed compressed files are reported, reading goes on") {
  TempDir dir;
  std::string content;
  for (int i = 0; i < 200; ++i) content += kGameA + "\n" + kGameB + "\n";
  write_file(dir / "src.sgf", content);
  write_file(dir / "good.sgf", kGameC);
  run("gzip -c " + dir / "src.sgf" + " > " + dir / "ok.gz");
  std::string gz = read_file(dir / "ok.gz");
  REQUIRE(gz.size() > 100);

  std::string flipped = gz;
  for (size_t i = 30; i < 60; ++i) flipped[i] = char(flipped[i] ^ 0x5a);
  write_file(dir / "flipped.sgf.gz", flipped);
  std::string bad_crc = gz;
  bad_crc[gz.size() - 6] = char(bad_crc[gz.size() - 6] ^ 1);
  write_file(dir / "crc.sgf.gz", bad_crc);
  write_file(dir / "truncated.sgf.gz", gz.substr(0, gz.size() / 2));
  write_file(dir / "fake.sgf.gz", kGameA);
  run("bzip2 -c " + dir / "src.sgf" + " > " + dir / "ok.bz2");
  std::string bz = read_file(dir / "ok.bz2");
  write_file(dir / "truncated.bz2", bz.substr(0, bz.size() / 2));
  run("xz -c " + dir / "src.sgf" + " > " + dir / "ok.xz");
  std::string xz = read_file(dir / "ok.xz");
  write_file(dir / "truncated.xz", xz.substr(0, xz.size() - 20));
  if (have_tool("zstd")) {
    run("zstd -q -c " + dir / "src.sgf" + " > " + dir / "ok.zst");
  } else {
    write_with_libarchive(dir / "ok.zst", false, {{"data", content}});
  }
  std::string zst = read_file(dir / "ok.zst");
  write_file(dir / "truncated.zst", zst.substr(0, zst.size() - 3));  // inside the checksum
  write_file(dir / "half.zst", zst.substr(0, zst.size() / 2));

  for (std::string name : {"flipped.sgf.gz", "crc.sgf.gz", "truncated.sgf.gz", "fake.sgf.gz", "truncated.bz2",
                           "truncated.xz", "truncated.zst", "half.zst"}) {
    INFO(name);
    ReadAll r = read_all({dir / name, dir / "missing.sgf", dir / "good.sgf"});
    REQUIRE(r.errors.size() >= 2);
    CHECK(r.errors[0].message.rfind(dir / name + ": ", 0) == 0);
    CHECK_FALSE(r.errors[0].in_game);
    CHECK(r.errors.back().message == dir / "missing.sgf" + ": No such file or directory");
    REQUIRE_FALSE(r.games.empty());
    CHECK(r.games.back().text == kGameC);
    CHECK(r.games.back().origin.file == dir / "good.sgf");
    CHECK(r.progress.files_done == 3);
  }
  ReadAll fake = read_all({dir / "fake.sgf.gz"});
  REQUIRE(fake.errors.size() == 1);
  CHECK(fake.errors[0].message == dir / "fake.sgf.gz" + ": not a gzip file (no known magic bytes)");
  const std::vector<std::pair<std::string, std::string>> exact = {
      {"crc.sgf.gz", "corrupt gzip stream: CRC mismatch"},
      {"truncated.sgf.gz", "corrupt gzip stream: truncated data"},
      {"truncated.bz2", "corrupt bzip2 stream: truncated data"},
      {"truncated.xz", "corrupt xz stream: truncated data"},
      {"truncated.zst", "corrupt zstd stream: truncated data"},
      {"half.zst", "corrupt zstd stream: truncated data"},
  };
  for (const auto& [name, why] : exact) {
    ReadAll r = read_all({dir / name});
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == dir / name + ": " + why);
  }
}

TEST_CASE("reader: directories are read recursively, sorted, by extension") {
  TempDir dir;
  write_file(dir / "d/b.sgf", kGameB);
  write_file(dir / "d/a.sgf", kGameA);
  write_file(dir / "d/sub/c.SGF", kGameC);
  write_file(dir / "d/sub/deeper/e.txt", kGameA);    // not an input name: skipped
  write_file(dir / "d/sub/deeper/readme", kGameA);   // idem
  write_file(dir / "d/a0/x.sgf", kGameA + kGameB);
  write_file(dir / "src.sgf", kGameC);
  run("gzip -c " + dir / "src.sgf" + " > " + dir / "d/sub/deeper/z.sgf.gz");
  ReadAll r = read_all({dir / "d", dir / "d/sub/deeper/e.txt"});
  CHECK(r.errors.empty());
  std::vector<std::string> files;
  for (const auto& g : r.games) files.push_back(fs::relative(g.origin.file, dir.path()).string());
  CHECK(files == std::vector<std::string>{"d/a.sgf", "d/a0/x.sgf", "d/a0/x.sgf", "d/b.sgf", "d/sub/c.SGF",
                                          "d/sub/deeper/z.sgf.gz", "d/sub/deeper/e.txt"});
  CHECK(r.progress.files_total == 6);
}

TEST_CASE("reader: links to directories are followed, each directory read once; broken links are named") {
  TempDir dir;
  write_file(dir / "games/a.sgf", kGameA);
  write_file(dir / "games/deeper/b.sgf", kGameB);
  write_file(dir / "other/c.sgf", kGameC);
  fs::create_directories(dir / "only-link");
  fs::create_directory_symlink(dir / "games", dir / "only-link/linked");
  // A directory holding nothing but a link to a directory of games.
  ReadAll only = read_all({dir / "only-link"});
  CHECK(only.errors.empty());
  REQUIRE(only.games.size() == 2);
  CHECK(only.games[0].origin.file == dir / "only-link/linked/a.sgf");
  CHECK(only.games[1].origin.file == dir / "only-link/linked/deeper/b.sgf");
  // Mixed with real files; a link back up the tree and a second link to
  // the same directory add nothing; a broken link with an input's name is
  // an error naming it.
  fs::create_directory_symlink(dir / "games", dir / "other/again");
  fs::create_directory_symlink(dir / "games", dir / "other/and-again");
  fs::create_directory_symlink(dir / "other", dir / "other/loop");
  fs::create_symlink(dir / "nowhere.sgf", dir / "other/broken.sgf");
  fs::create_symlink(dir / "nowhere", dir / "other/broken-no-input-name");
  ReadAll r = read_all({dir / "other"});
  std::vector<std::string> files;
  for (const auto& g : r.games) files.push_back(fs::path(g.origin.file).lexically_relative(dir.path()).string());
  CHECK(files == std::vector<std::string>{"other/again/a.sgf", "other/again/deeper/b.sgf", "other/c.sgf"});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == dir / "other/broken.sgf" + ": a symbolic link to nothing (broken link)");
}

TEST_CASE("reader: a subdirectory that cannot be listed is named, not skipped") {
  TempDir dir;
  write_file(dir / "d/a.sgf", kGameA);
  write_file(dir / "d/locked/b.sgf", kGameB);
  fs::permissions(dir / "d/locked", fs::perms::none);
  const bool root_reads_anyway = ::access((dir / "d/locked").c_str(), R_OK) == 0;
  ReadAll r = read_all({dir / "d"});
  fs::permissions(dir / "d/locked", fs::perms::owner_all);
  if (root_reads_anyway) {
    CHECK(r.games.size() == 2);
    return;
  }
  CHECK(r.games.size() == 1);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message.find(dir / "d/locked: cannot list directory: ") == 0);
}

TEST_CASE("reader: devices are refused (they never end)") {
  for (const char* dev : {"/dev/zero", "/dev/urandom"}) {
    INFO(dev);
    ReadAll r = read_all({dev});
    CHECK(r.games.empty());
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == std::string(dev) + ": is a device, not a file or a pipe");
  }
}

TEST_CASE("reader: UTF-16 files with a byte order mark are read as UTF-8") {
  TempDir dir;
  const std::string text = kGameA + "\n(;CA[UTF-16]PB[\xe5\x8f\xa4\xe5\x8a\x9b]PW[\xf0\x9f\x98\x80];B[cc])\n";
  // UTF-8 to UTF-16 code units (the test's text has one character beyond
  // U+FFFF, a surrogate pair).
  std::vector<uint32_t> units;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = (unsigned char)text[i];
    uint32_t cp;
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | ((unsigned char)text[i + k] & 0x3F);
    i += n;
    if (cp >= 0x10000) {
      units.push_back(0xD800 + ((cp - 0x10000) >> 10));
      units.push_back(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      units.push_back(cp);
    }
  }
  for (const bool big : {false, true}) {
    std::string bytes = big ? "\xFE\xFF" : "\xFF\xFE";
    for (uint32_t u : units) {
      const char hi = char(u >> 8), lo = char(u & 0xFF);
      bytes += big ? std::string{hi, lo} : std::string{lo, hi};
    }
    const std::string name = big ? "be.sgf" : "le.sgf";
    write_file(dir / name, bytes);
    run("gzip -c " + dir / name + " > " + dir / name + ".gz");
    for (const std::string& input : {dir / name, dir / name + ".gz"}) {
      INFO(input);
      GameStream stream({input});
      std::vector<Game> games;
      Game g;
      Status st;
      while (stream.next(&g, &st)) {
        INFO(st.message());
        CHECK(st.ok());
        games.push_back(g);
      }
      REQUIRE(games.size() == 2);
      CHECK(games[0].move_count() == 2);
      CHECK(games[1].info.black_name == "\xe5\x8f\xa4\xe5\x8a\x9b");
      CHECK(games[1].info.white_name == "\xf0\x9f\x98\x80");
    }
  }
  // Cut in the middle of a character: the games before it, then the error.
  write_file(dir / "odd.sgf", std::string("\xFF\xFE(\0;\0)\0(", 9));
  ReadAll odd = read_all({dir / "odd.sgf"});
  CHECK(odd.games.size() == 1);
  REQUIRE_FALSE(odd.errors.empty());
  CHECK(odd.errors.back().message.find("UTF-16 text ends in the middle of a character") != std::string::npos);
}

TEST_CASE("reader: missing inputs are reported in order and do not stop reading") {
  TempDir dir;
  write_file(dir / "a.sgf", kGameA);
  std::vector<std::string> seen;
  GameTextReader reader({dir / "nope.sgf", dir / "a.sgf", dir / "nope2.sgf.gz"},
                        [&](const ReadError& e) { seen.push_back("E " + e.message); });
  GameText t;
  while (reader.next(&t)) seen.push_back("G " + t.text);
  CHECK(seen == std::vector<std::string>{"E " + dir / "nope.sgf" + ": No such file or directory", "G " + kGameA,
                                         "E " + dir / "nope2.sgf.gz" + ": No such file or directory"});
  CHECK(reader.progress().errors == 2);
  CHECK(reader.progress().files_done == 3);
}

// ---------------------------------------------------------------------------
// Archives

namespace {

// Members in archive order, and what the reader must make of them.
void make_tree(const TempDir& dir) {
  write_file(dir / "t/games/a.sgf", kGameA + "\n" + kGameB);
  write_file(dir / "t/games/sub/b.SGF", kGameC);
  write_file(dir / "t/notes.txt", "A note quoting a game: (;B[aa]) is not read.\n");
  write_file(dir / "t/noext", "\n  " + kGameB);
  write_file(dir / "t/games/c.sgf.bak", "not sgf");
}
const char* kMembers = "games/a.sgf games/sub/b.SGF notes.txt noext games/c.sgf.bak";
const std::vector<std::string> kExpected = {"games/a.sgf#0", "games/a.sgf#1", "games/sub/b.SGF#0", "noext#0"};

}  // namespace

TEST_CASE("reader: tar archives, plain and compressed, each SGF member a source") {
  TempDir dir;
  make_tree(dir);
  std::string cd = "cd " + dir / "t" + " && ";
  run(cd + "tar -cf ../a.tar " + kMembers);
  run(cd + "tar -czf ../a.tar.gz " + kMembers);
  run(cd + "tar -czf ../a.tgz " + kMembers);
  run(cd + "tar -cjf ../a.tar.bz2 " + kMembers);
  run(cd + "tar -cJf ../a.tar.xz " + kMembers);
  run("cp " + dir / "a.tar" + " " + dir / "bundle.bin");       // found by the ustar magic
  run("cp " + dir / "a.tar.gz" + " " + dir / "bundle.gz");     // gzip, then ustar magic
  for (std::string name : {"a.tar", "a.tar.gz", "a.tgz", "a.tar.bz2", "a.tar.xz", "bundle.bin", "bundle.gz"}) {
    INFO(name);
    ReadAll r = read_all({dir / name});
    CHECK(r.error_text() == "");
    CHECK(r.where() == kExpected);
    REQUIRE(r.games.size() == 4);
    CHECK(r.games[1].text == kGameB);
    CHECK(r.games[3].text == kGameB);
    CHECK(r.games[0].origin.file == dir / name);
    CHECK(r.progress.bytes_done == fs::file_size(dir / name));
  }
}

TEST_CASE("reader: zip archives from the zip tool and from libarchive") {
  TempDir dir;
  make_tree(dir);
  std::vector<std::pair<std::string, std::string>> members;
  std::istringstream names(kMembers);
  for (std::string m; names >> m;) members.push_back({m, read_file(dir / ("t/" + m))});
  if (have_tool("zip")) {
    run("cd " + dir / "t" + " && zip -q ../tool.zip " + kMembers);
  } else {
    write_with_libarchive(dir / "tool.zip", true, members);
  }
  write_with_libarchive(dir / "lib.zip", true, members);
  for (std::string name : {"tool.zip", "lib.zip"}) {
    INFO(name);
    ReadAll r = read_all({dir / name});
    CHECK(r.error_text() == "");
    CHECK(r.where() == kExpected);
  }
}

TEST_CASE("reader: compressed members of an archive are decompressed, a broken one is reported") {
  TempDir dir;
  write_file(dir / "t/a.sgf", kGameA + "\n" + kGameB + "\n");
  write_file(dir / "t/b.sgf", kGameC);
  write_file(dir / "t/c.sgf", kGameA);
  write_file(dir / "t/d.sgf", kGameB);
  write_file(dir / "t/e.sgf", kGameC);
  write_file(dir / "t/notes.txt", "not a game record");
  std::string big;
  for (int i = 0; i < 2000; ++i) big += "(;GN[" + std::to_string(i * 7919) + "];B[aa];W[bb])\n";
  write_file(dir / "t/bad.sgf", big);
  std::string cd = "cd " + dir / "t" + " && ";
  run(cd + "gzip -k a.sgf && bzip2 -k b.sgf && xz -k notes.txt && gzip -k bad.sgf && xz -k d.sgf && zstd -q e.sgf");
  // Cut the compressed member short: its games must be reported, not invented.
  fs::resize_file(dir / "t/bad.sgf.gz", fs::file_size(dir / "t/bad.sgf.gz") / 2);
  run(cd + "tar -cf ../m.tar a.sgf.gz b.sgf.bz2 d.sgf.xz e.sgf.zst notes.txt.xz bad.sgf.gz c.sgf");
  ReadAll r = read_all({dir / "m.tar"});
  std::vector<std::string> w = r.where();
  REQUIRE(w.size() >= 6);
  CHECK(std::vector<std::string>(w.begin(), w.begin() + 5) ==
        std::vector<std::string>{"a.sgf.gz#0", "a.sgf.gz#1", "b.sgf.bz2#0", "d.sgf.xz#0", "e.sgf.zst#0"});
  CHECK(w.back() == "c.sgf#0");  // read after the broken member
  CHECK(r.games[0].text == kGameA);
  CHECK(r.games[1].text == kGameB);
  CHECK(r.games[2].text == kGameC);
  CHECK(r.games[3].text == kGameB);
  CHECK(r.games[4].text == kGameC);
  // The cut member yields at most its intact games, each whole.
  CHECK(r.games.size() < 5 + 2000 + 1);
  for (size_t i = 5; i + 1 < r.games.size(); ++i) {
    INFO("game " << i);
    CHECK(r.games[i].origin.member == "bad.sgf.gz");
    CHECK(r.games[i].text == "(;GN[" + std::to_string(r.games[i].origin.index * 7919) + "];B[aa];W[bb])");
  }
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].origin.member == "bad.sgf.gz");
  CHECK(r.errors[0].message.find("bad.sgf.gz") != std::string::npos);
}

TEST_CASE("reader: broken archives are reported and reading goes on") {
  TempDir dir;
  make_tree(dir);
  std::string big;
  for (int i = 0; i < 3000; ++i) big += "(;GN[" + std::to_string(i * 7919) + "];B[aa];W[bb];B[cc])\n";
  write_file(dir / "t/big.sgf", big);
  run("cd " + dir / "t" + " && tar -czf ../a.tar.gz big.sgf " + kMembers);
  std::string tgz = read_file(dir / "a.tar.gz");
  write_file(dir / "cut.tar.gz", tgz.substr(0, tgz.size() / 2));
  write_file(dir / "notar.tar", "this is not a tar archive at all\n");
  write_file(dir / "bad.zip", "PK\x03\x04 garbage garbage garbage");
  write_file(dir / "good.sgf", kGameA);
  for (std::string name : {"cut.tar.gz", "notar.tar", "bad.zip"}) {
    INFO(name);
    ReadAll r = read_all({dir / name, dir / "good.sgf"});
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0].message.rfind(dir / name + ":", 0) == 0);
    REQUIRE_FALSE(r.games.empty());
    CHECK(r.games.back().origin.file == dir / "good.sgf");
  }
}

// ---------------------------------------------------------------------------
// stdin

namespace {

// Runs `body` with fd 0 reading `data` through a pipe (not seekable).
template <typename F>
void with_stdin_pipe(const std::string& data, F body) {
  std::signal(SIGPIPE, SIG_IGN);  // a reader may stop before the writer is done
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  int saved = dup(0);
  REQUIRE(dup2(fds[0], 0) == 0);
  close(fds[0]);
  std::thread writer([&] {
    size_t off = 0;
    while (off < data.size()) {
      ssize_t w = write(fds[1], data.data() + off, data.size() - off);
      if (w <= 0) break;
      off += size_t(w);
    }
    close(fds[1]);
  });
  // Restores stdin (which also unblocks the writer) even if body() fails.
  struct Restore {
    int saved;
    std::thread* writer;
    ~Restore() {
      dup2(saved, 0);
      close(saved);
      writer->join();
    }
  } restore{saved, &writer};
  body();
}

}  // namespace

TEST_CASE("reader: '-' reads stdin, plain, compressed or archived, from a pipe") {
  TempDir dir;
  make_tree(dir);
  write_file(dir / "src.sgf", kGameA + kGameB);
  run("gzip -c " + dir / "src.sgf" + " > " + dir / "src.sgf.gz");
  run("cd " + dir / "t" + " && tar -cJf ../a.tar.xz " + kMembers);
  if (have_tool("zip")) {
    run("cd " + dir / "t" + " && zip -q ../a.zip " + kMembers);
  } else {
    std::vector<std::pair<std::string, std::string>> members;
    std::istringstream names(kMembers);
    for (std::string m; names >> m;) members.push_back({m, read_file(dir / ("t/" + m))});
    write_with_libarchive(dir / "a.zip", true, members);
  }

  with_stdin_pipe(kGameC + kGameA, [&] {
    ReadAll r = read_all({"-"});
    CHECK(r.errors.empty());
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[0].origin.file == "<stdin>");
    CHECK(r.games[1].text == kGameA);
  });
  with_stdin_pipe(read_file(dir / "src.sgf.gz"), [&] {
    ReadAll r = read_all({"-"});
    CHECK(r.errors.empty());
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[1].text == kGameB);
  });
  with_stdin_pipe(read_file(dir / "a.tar.xz"), [&] {
    ReadAll r = read_all({"-"});
    CHECK(r.error_text() == "");
    CHECK(r.where() == kExpected);
  });
  with_stdin_pipe(read_file(dir / "a.zip"), [&] {  // streamed zip: no central directory
    ReadAll r = read_all({"-"});
    CHECK(r.error_text() == "");
    CHECK(r.where() == kExpected);
  });
}

// ---------------------------------------------------------------------------
// GameStream

TEST_CASE("game stream: parsed games, parse errors and input errors in input order") {
  TempDir dir;
  write_file(dir / "mixed.sgf", kGameA + "\n(;SZ[9];B[aa];W[zz])\n" + kGameC + "\n(;SZ[9];B[aa]");
  write_file(dir / "src.sgf", kGameB);
  run("gzip -c " + dir / "src.sgf" + " > " + dir / "b.sgf.gz");
  GameStream stream({dir / "mixed.sgf", dir / "missing.sgf", dir / "b.sgf.gz"});
  std::vector<std::string> seen;
  Game g;
  Status s;
  int moves = 0;
  while (stream.next(&g, &s)) {
    if (s.ok()) {
      seen.push_back("ok " + fs::path(g.origin.file).filename().string() + " #" + std::to_string(g.origin.index));
      moves += g.move_count();
      CHECK(stream.text().substr(0, 2) == "(;");
    } else {
      seen.push_back(std::string(stream.input_error() ? "input " : "parse ") + s.message());
    }
  }
  CHECK(seen == std::vector<std::string>{
                    "ok mixed.sgf #0",
                    "parse " + dir / "mixed.sgf" + " game #2: move 2: bad coordinate 'zz'",
                    "ok mixed.sgf #2",
                    "input " + dir / "mixed.sgf" + " game #4: unterminated game (input ends inside it)",
                    "input " + dir / "missing.sgf" + ": No such file or directory",
                    "ok b.sgf.gz #0",
                });
  CHECK(moves == 2 + 2 + 1);
  CHECK(stream.progress().files_done == 3);
  CHECK(stream.progress().errors == 2);
}

TEST_CASE("game stream: a broken game keeps its origin") {
  TempDir dir;
  write_file(dir / "x.sgf", "(;SZ[19:13])");
  GameStream stream({dir / "x.sgf"});
  Game g;
  Status s;
  REQUIRE(stream.next(&g, &s));
  CHECK(s.message() == dir / "x.sgf" + " game #1: root: unsupported board size 19:13 (only square boards 2..25)");
  CHECK(g.origin.file == dir / "x.sgf");
  CHECK(g.origin.index == 0);
  CHECK_FALSE(stream.input_error());
  CHECK_FALSE(stream.next(&g, &s));
}

// ---------------------------------------------------------------------------
// The real corpus

namespace {

std::map<std::string, std::pair<uint64_t, uint64_t>> corpus_counts() {
  std::map<std::string, std::pair<uint64_t, uint64_t>> m;
  std::ifstream in(testutil::corpus_path("counts.tsv"));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string file;
    uint64_t games = 0, moves = 0;
    if (ls >> file >> games >> moves) m[file] = {games, moves};
  }
  return m;
}

void check_game_file(const std::string& path, uint64_t want_games, uint64_t want_moves) {
  REQUIRE_MESSAGE(fs::exists(path), "file missing: " << path);
  GameStream stream({path});
  Game g;
  Status s;
  uint64_t games = 0, moves = 0, errors = 0;
  std::string first_error;
  while (stream.next(&g, &s)) {
    if (!s.ok()) {
      if (errors++ == 0) first_error = s.message();
      continue;
    }
    ++games;
    moves += uint64_t(g.move_count());
  }
  INFO(path << " first error: " << first_error);
  CHECK(errors == 0);
  CHECK(games == want_games);
  CHECK(moves == want_moves);
}

void check_corpus_file(const std::string& rel, uint64_t want_games, uint64_t want_moves) {
  check_game_file(testutil::corpus_path(rel), want_games, want_moves);
}

}  // namespace

TEST_CASE("the shipped sample has the 2,000 games and 432,338 moves data/README.md says") {
  check_game_file(testutil::sample_path(), 2000, 432338);
}

TEST_CASE("corpus: tygem-2006-01.tar.gz has 6967 games and 1493600 moves") {
  check_corpus_file("tygem-2006-01.tar.gz", 6967, 1493600);
  auto counts = corpus_counts();
  REQUIRE(counts.count("tygem-2006-01.tar.gz"));
  CHECK(counts["tygem-2006-01.tar.gz"] == std::pair<uint64_t, uint64_t>{6967, 1493600});
}

TEST_CASE("corpus: a tygem-dev gzip collection matches counts.tsv") {
  auto counts = corpus_counts();
  REQUIRE(counts.count("tygem-dev/tygem-2005-11.sgf.gz"));
  auto [games, moves] = counts["tygem-dev/tygem-2005-11.sgf.gz"];
  check_corpus_file("tygem-dev/tygem-2005-11.sgf.gz", games, moves);
}

#include "io/game_text_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "io/archive_reader.h"
#include "io/decompress.h"
#include "io/game_splitter.h"
#include "io/input_list.h"
#include "io/peek_source.h"
#include "io/raw_file.h"
#include "io/utf16_source.h"

namespace sgfpat {

namespace {

bool has_sgf_suffix(const std::string& name) {
  if (name.size() < 4) return false;
  std::string e = name.substr(name.size() - 4);
  for (char& c : e) c = char(std::tolower((unsigned char)c));
  return e == ".sgf";
}

// An archive member is read if its name says SGF or its text opens a tree.
bool looks_like_sgf(const std::string& name, PeekSource* data) {
  if (has_sgf_suffix(name)) return true;
  std::string_view h = data->peek(4096);
  if (h.substr(0, 3) == "\xEF\xBB\xBF") h.remove_prefix(3);
  size_t i = h.find_first_not_of(" \t\r\n\v\f");
  return i != std::string_view::npos && h[i] == '(';
}

}  // namespace

struct GameTextReader::Impl {
  Impl(std::vector<std::string> inputs, ErrorCallback cb, ReaderOptions o)
      : files(expand_inputs(inputs)),
        on_error(std::move(cb)),
        opt(o),
        splitter(o.max_game_bytes, o.chunk_bytes) {
    for (const auto& f : files) bytes_total += f.size;
  }

  bool next(GameText* out);
  void open_file(const InputFile& f);
  void finish_file();
  void report(const std::string& member, bool in_game, uint64_t index, const std::string& why);

  std::vector<InputFile> files;
  size_t next_file = 0;
  ErrorCallback on_error;
  ReaderOptions opt;

  // The file being read and the layers stacked on it.
  bool file_open = false;
  std::string name;  // as shown in origins; "<stdin>" for "-"
  uint64_t size = 0;
  RawFile raw;
  std::unique_ptr<ByteSource> decompressed;
  PeekSource content;
  // A UTF-16 file (byte order mark first) as UTF-8.
  std::unique_ptr<ByteSource> utf16;
  PeekSource content8;
  bool in_archive = false;
  ArchiveReader archive;
  std::string member;
  PeekSource member_data;
  // A member that is itself compressed (collections of .sgf.gz files).
  std::unique_ptr<ByteSource> member_decompressed;
  PeekSource member_plain;
  std::unique_ptr<ByteSource> member_utf16;
  PeekSource member_plain8;
  bool splitting = false;
  ByteSource* split_src = nullptr;
  GameSplitter splitter;
  std::string last_error;  // to say a broken archive's error once
  // Games and errors of the file (and of the archive member) being read: one
  // that yields neither is reported, so that no input is skipped silently.
  uint64_t file_games = 0, file_errors = 0;
  uint64_t member_games = 0, member_errors = 0;

  uint64_t bytes_total = 0;
  uint64_t bytes_done = 0;
  uint64_t files_done = 0;
  uint64_t games = 0;
  uint64_t errors = 0;
};

void GameTextReader::Impl::report(const std::string& where_member, bool in_game, uint64_t index,
                                  const std::string& why) {
  ReadError e;
  e.origin.file = name;
  e.origin.member = where_member;
  e.origin.index = in_game ? index : 0;
  e.in_game = in_game;
  if (in_game) {
    e.message = e.origin.describe() + ": " + why;
  } else {
    e.message = name + (where_member.empty() ? "" : ":" + where_member) + ": " + why;
    if (e.message == last_error) return;
    last_error = e.message;
  }
  ++errors;
  ++file_errors;
  ++member_errors;
  if (on_error) {
    on_error(e);
  } else {
    std::fprintf(stderr, "%s\n", e.message.c_str());
  }
}

void GameTextReader::Impl::finish_file() {
  if (file_open && file_games == 0 && file_errors == 0)
    report("", false, 0, in_archive ? "no SGF game in this archive" : "no SGF game in this file");
  if (file_open) {
    bytes_done += size;
    ++files_done;
  }
  file_open = splitting = in_archive = false;
  split_src = nullptr;
  member_plain8.reset(nullptr);
  member_utf16.reset();
  member_plain.reset(nullptr);
  member_decompressed.reset();
  member_data.reset(nullptr);
  archive.close();
  content8.reset(nullptr);
  utf16.reset();
  content.reset(nullptr);
  decompressed.reset();
  raw.close();
}

void GameTextReader::Impl::open_file(const InputFile& f) {
  name = f.path == "-" ? "<stdin>" : f.path;
  size = f.size;
  member.clear();
  last_error.clear();
  file_open = true;
  file_games = file_errors = 0;
  if (!f.error.empty()) {
    report("", false, 0, f.error);
    return finish_file();
  }
  if (!raw.open(f.path)) {
    report("", false, 0, raw.error());
    return finish_file();
  }
  if (raw.seekable()) size = raw.size();
  std::string head = raw.peek(8);
  if (raw.failed()) {
    report("", false, 0, raw.error());
    return finish_file();
  }
  Compression magic = compression_from_magic(head);
  Compression named = compression_from_name(f.path);
  bool zip = head.rfind("PK\x03\x04", 0) == 0 || head.rfind("PK\x05\x06", 0) == 0;
  if (zip || (magic == Compression::None && f.path.size() >= 4 &&
              (f.path.compare(f.path.size() - 4, 4, ".zip") == 0 ||
               f.path.compare(f.path.size() - 4, 4, ".ZIP") == 0))) {
    if (!archive.open(&raw, &raw)) {
      report("", false, 0, archive.error());
      return finish_file();
    }
    in_archive = true;
    return;
  }
  if (named != Compression::None && magic != named) {
    report("", false, 0,
           std::string("not a ") + compression_name(named) + " file (" +
               (magic == Compression::None ? std::string("no known magic bytes")
                                           : std::string("looks like ") + compression_name(magic)) +
               ")");
    return finish_file();
  }
  ByteSource* src = &raw;
  if (magic != Compression::None) {
    decompressed = make_decompressor(magic, &raw, opt.chunk_bytes);
    src = decompressed.get();
  }
  content.reset(src);
  std::string_view h = content.peek(512);
  if (content.failed()) {
    report("", false, 0, content.error());
    return finish_file();
  }
  bool ustar = h.size() >= 262 && h.substr(257, 5) == "ustar";
  if (ustar || is_tar_name(f.path)) {
    if (!archive.open(&content, nullptr)) {
      report("", false, 0, archive.error());
      return finish_file();
    }
    in_archive = true;
    return;
  }
  ByteSource* text = &content;
  if (starts_utf16(h)) {
    utf16 = make_utf16_decoder(&content);
    content8.reset(utf16.get());
    text = &content8;
  }
  splitter.reset(text);
  split_src = text;
  splitting = true;
}

bool GameTextReader::Impl::next(GameText* out) {
  for (;;) {
    if (splitting) {
      uint64_t index = 0;
      std::string why;
      auto r = splitter.next(&out->text, &index, &why);
      if (r == GameSplitter::Result::Game) {
        out->origin.file = name;
        out->origin.member = member;
        out->origin.index = index;
        ++games;
        ++file_games;
        ++member_games;
        return true;
      }
      if (r == GameSplitter::Result::Error) {
        report(member, true, index, why);
        continue;
      }
      splitting = false;
      if (split_src->failed()) report(member, false, 0, split_src->error());
      else if (in_archive && member_games == 0 && member_errors == 0) report(member, false, 0, "no SGF game in this member");
      if (!in_archive) finish_file();
      continue;
    }
    if (in_archive) {
      // The layers on the last member go before the archive moves on.
      member_plain8.reset(nullptr);
      member_utf16.reset();
      member_plain.reset(nullptr);
      member_decompressed.reset();
      member_data.reset(nullptr);
      const bool has_member = archive.next_member(&member);
      for (const std::string& w : archive.take_warnings()) report("", false, 0, w);
      if (has_member) {
        member_games = member_errors = 0;
        member_data.reset(archive.member());
        PeekSource* data = &member_data;
        const Compression c = compression_from_magic(member_data.peek(8));
        if (c != Compression::None) {
          member_decompressed = make_decompressor(c, &member_data, opt.chunk_bytes);
          member_plain.reset(member_decompressed.get());
          data = &member_plain;
        }
        if (starts_utf16(data->peek(2))) {
          member_utf16 = make_utf16_decoder(data);
          member_plain8.reset(member_utf16.get());
          data = &member_plain8;
        }
        bool sgf = looks_like_sgf(member, data);
        if (data->failed()) {
          report(member, false, 0, data->error());
        } else if (sgf) {
          splitter.reset(data);
          split_src = data;
          splitting = true;
        }
        continue;
      }
      if (!archive.error().empty()) report("", false, 0, archive.error());
      finish_file();
      continue;
    }
    if (next_file == files.size()) return false;
    open_file(files[next_file++]);
  }
}

GameTextReader::GameTextReader(std::vector<std::string> inputs, ErrorCallback on_error,
                               ReaderOptions options)
    : impl_(std::make_unique<Impl>(std::move(inputs), std::move(on_error), options)) {}

GameTextReader::~GameTextReader() = default;

bool GameTextReader::next(GameText* out) {
  for (;;) {
    try {
      return impl_->next(out);
    } catch (const std::exception& e) {
      // Only allocation failure should get here: give up on this file only.
      impl_->report("", false, 0, std::string("internal error: ") + e.what());
      impl_->finish_file();
    }
  }
}

ReadProgress GameTextReader::progress() const {
  ReadProgress p;
  p.bytes_total = impl_->bytes_total;
  p.bytes_done = impl_->bytes_done;
  if (impl_->file_open) p.bytes_done += std::min(impl_->raw.consumed(), impl_->size);
  p.files_done = impl_->files_done;
  p.files_total = impl_->files.size();
  p.games = impl_->games;
  p.errors = impl_->errors;
  return p;
}

}  // namespace sgfpat

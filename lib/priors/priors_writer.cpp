#include "priors/priors_writer.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "priors/sgfpat_priors.h"

namespace sgfpat {

namespace {
class File {
 public:
  explicit File(const std::string& path) : f_(std::fopen(path.c_str(), "wb")) {}
  ~File() {
    if (f_) std::fclose(f_);
  }
  bool ok() const { return f_ != nullptr && !failed_; }
  void write(const void* p, size_t n) {
    if (f_ && std::fwrite(p, 1, n, f_) != n) failed_ = true;
    offset_ += n;
  }
  void write_at(uint64_t off, const void* p, size_t n) {
    if (!f_ || std::fseek(f_, long(off), SEEK_SET) != 0 || std::fwrite(p, 1, n, f_) != n) failed_ = true;
  }
  bool close() {
    bool good = f_ && !failed_ && std::fflush(f_) == 0 && std::fclose(f_) == 0;
    f_ = nullptr;
    return good;
  }
  uint64_t offset() const { return offset_; }

 private:
  std::FILE* f_;
  bool failed_ = false;
  uint64_t offset_ = 0;
};
}  // namespace

Status write_priors(PatternDb& db, const PriorsExportOptions& options, const std::string& path,
                    PriorsExportSummary* summary) {
  using sgfpat_priors::CountsRecord;
  using sgfpat_priors::Header;
  const KeyScheme& scheme = db.settings().scheme;
  const int levels = options.levels > 0 ? std::min(options.levels, scheme.levels) : scheme.levels;
  const int min_played = std::max(options.min_played, db.settings().min_played);
  *summary = PriorsExportSummary{};
  summary->min_played = min_played;
  if (db.generation() == 0) return Status::Error("database " + db.path() + " has no counts yet (run ingest first)");

  Header h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, sgfpat_priors::kMagic, 8);
  h.version = sgfpat_priors::kVersion;
  h.header_bytes = sgfpat_priors::kHeaderBytes;
  h.byte_order = sgfpat_priors::kByteOrderMark;
  h.levels = uint32_t(levels);
  h.seed = scheme.seed;
  h.symmetry = scheme.symmetry ? 1 : 0;
  h.min_played = uint32_t(min_played);
  h.min_seen = options.min_seen;
  nlohmann::json s = nlohmann::json::parse(db.summary().empty() ? "{}" : db.summary(), nullptr, false);
  if (s.is_object()) {
    h.games = s.value("games", uint64_t(0));
    h.positions = s.value("positions", uint64_t(0));
    h.candidates = s.value("candidates", uint64_t(0));
  }
  h.export_time = int64_t(std::time(nullptr));

  const std::string tmp = path + ".tmp";
  File out(tmp);
  if (!out.ok()) return Status::Error(path + ": cannot write: " + std::strerror(errno));
  out.write(&h, sizeof h);
  sgfpat_priors::Checksum64 sum;
  std::vector<uint64_t> keys;
  std::vector<CountsRecord> recs;
  for (int level = 1; level <= levels; ++level) {
    keys.clear();
    recs.clear();
    bool overflow = false;
    Status st = db.for_each_count(level, [&](int, uint64_t key, const PatternCounts& c) {
      if (c.played < uint64_t(min_played) || c.seen < options.min_seen) return true;
      if (c.played > UINT32_MAX || c.wins > UINT32_MAX) overflow = true;
      keys.push_back(key);
      recs.push_back(CountsRecord{c.seen, uint32_t(std::min<uint64_t>(c.played, UINT32_MAX)),
                                  uint32_t(std::min<uint64_t>(c.wins, UINT32_MAX))});
      return true;
    });
    if (!st.ok()) return st;
    if (overflow) return Status::Error("level " + std::to_string(level) + " has a pattern played over 2^32 times");
    if (!std::is_sorted(keys.begin(), keys.end())) return Status::Error("counts are not in key order");
    h.count[level - 1] = keys.size();
    h.keys_offset[level - 1] = out.offset();
    out.write(keys.data(), keys.size() * 8);
    sum.update(keys.data(), keys.size() * 8);
    h.counts_offset[level - 1] = out.offset();
    out.write(recs.data(), recs.size() * sizeof(CountsRecord));
    sum.update(recs.data(), recs.size() * sizeof(CountsRecord));
    summary->patterns_per_level.push_back(keys.size());
  }
  h.file_bytes = out.offset();
  h.data_checksum = sum.value();
  h.header_checksum = 0;
  h.header_checksum = sgfpat_priors::checksum64(&h, sizeof h);
  out.write_at(0, &h, sizeof h);
  if (!out.close()) return Status::Error(path + ": write failed");
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status::Error(path + ": cannot rename the temporary file: " + ec.message());
  summary->bytes = h.file_bytes;
  return Status::OK();
}

}  // namespace sgfpat

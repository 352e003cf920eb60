#include "shard/shard_plan.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/coding.h"
#include "core/format_version.h"
#include "core/hash.h"
#include "io/atomic_file.h"

namespace sgfpat {

namespace {
// The magic is these 7 bytes and the format's version as a digit
// (kShardPlanFormat: "SGFPPLN1").
constexpr std::string_view kMagic = "SGFPPLN";
constexpr size_t kHeadBytes = 8;
constexpr int64_t kRankBias = 1000;  // rank values may be negative (kyu)
}  // namespace

int shard_of(const Fingerprint& fp, int shards) {
  const uint64_t x = decode_fixed64(reinterpret_cast<const char*>(fp.data()));
  return int((unsigned __int128)x * unsigned(shards) >> 64);
}

bool same_plan(const ShardPlan& a, const ShardPlan& b) { return encode_plan(a) == encode_plan(b); }

uint64_t bytes_checksum(std::string_view bytes) {
  uint64_t h = 0x243f6a8885a308d3ULL ^ bytes.size();
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) h = mix64(h ^ decode_fixed64(bytes.data() + i));
  uint64_t tail = 0;
  for (size_t k = 0; i + k < bytes.size(); ++k) tail |= uint64_t(uint8_t(bytes[i + k])) << (8 * k);
  return mix64(h ^ tail ^ 0x5851f42d4c957f2dULL);
}

std::string encode_plan(const ShardPlan& p) {
  std::string out(kMagic);
  out.push_back(char('0' + kShardPlanFormat.current));
  put_varint64(&out, uint64_t(p.shards));
  put_varint64(&out, uint64_t(p.settings.scheme.levels));
  put_varint64(&out, p.settings.scheme.symmetry ? 1 : 0);
  put_varint64(&out, uint64_t(p.settings.min_played));
  put_varint64(&out, p.sketch_bytes);
  put_varint64(&out, p.filter.skip_handicap ? 1 : 0);
  put_varint64(&out, p.filter.min_rank ? 1 : 0);
  put_varint64(&out, uint64_t(int64_t(p.filter.min_rank.value_or(0)) + kRankBias));
  put_varint64(&out, p.filter.sizes.size());
  for (int s : p.filter.sizes) put_varint64(&out, uint64_t(s));
  put_length_prefixed(&out, p.min_rank);
  put_varint64(&out, p.inputs.size());
  for (const std::string& in : p.inputs) put_length_prefixed(&out, in);
  put_fixed64(&out, bytes_checksum(out));
  return out;
}

Status decode_plan(std::string_view bytes, ShardPlan* p) {
  auto bad = [](const char* what) { return Status::Corruption(std::string("shard plan is damaged (") + what + ")"); };
  if (bytes.size() < kHeadBytes + 8 || bytes.substr(0, kMagic.size()) != kMagic) return bad("not a plan");
  Status version = check_format_version(kShardPlanFormat, uint32_t(uint8_t(bytes[kMagic.size()])) - uint32_t('0'),
                                        "shard plan");
  if (!version.ok()) return version;
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  if (decode_fixed64(bytes.data() + body.size()) != bytes_checksum(body)) return bad("checksum mismatch");
  std::string_view in = body.substr(kHeadBytes);
  uint64_t v[8];
  for (uint64_t& x : v)
    if (!get_varint64(&in, &x)) return bad("truncated");
  *p = ShardPlan{};
  if (v[0] < 1 || v[0] > 1000000 || v[1] < 1 || v[1] > 64 || v[3] < 1 || v[3] > 255) return bad("out of range");
  p->shards = int(v[0]);
  p->settings.scheme.levels = int(v[1]);
  p->settings.scheme.symmetry = v[2] != 0;
  p->settings.min_played = int(v[3]);
  p->sketch_bytes = v[4];
  p->filter.skip_handicap = v[5] != 0;
  if (v[6]) p->filter.min_rank = int(int64_t(v[7]) - kRankBias);
  uint64_t n = 0;
  if (!get_varint64(&in, &n) || n > in.size()) return bad("sizes");
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t s = 0;
    if (!get_varint64(&in, &s)) return bad("sizes");
    p->filter.sizes.push_back(int(s));
  }
  std::string_view text;
  if (!get_length_prefixed(&in, &text)) return bad("min rank");
  p->min_rank = std::string(text);
  if (!get_varint64(&in, &n) || n > in.size()) return bad("inputs");
  for (uint64_t i = 0; i < n; ++i) {
    if (!get_length_prefixed(&in, &text)) return bad("inputs");
    p->inputs.emplace_back(text);
  }
  if (!in.empty()) return bad("trailing bytes");
  return Status::OK();
}

Status read_plan(const std::string& work, ShardPlan* plan) {
  const std::string path = ShardPaths{work}.plan();
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::NotFound("no shard plan at " + path + " (run `sgfpat shard plan` first)");
  std::ostringstream s;
  s << f.rdbuf();
  if (f.bad()) return Status::IOError("reading " + path);
  return decode_plan(s.str(), plan).with_context(path);
}

Status write_plan(const std::string& work, const ShardPlan& plan) {
  std::error_code ec;
  std::filesystem::create_directories(work, ec);
  if (ec) return Status::IOError("cannot create the work folder " + work + ": " + ec.message());
  ShardPlan old;
  Status st = read_plan(work, &old);
  if (st.ok()) {
    if (same_plan(old, plan)) return Status::OK();
    return Status::InvalidArgument("the work folder " + work +
                                   " holds another plan (other shards, settings or inputs); use a new folder");
  }
  if (!st.is_not_found()) return st;
  AtomicFile file;
  st = file.open(ShardPaths{work}.plan());
  if (!st.ok()) return st;
  const std::string bytes = encode_plan(plan);
  file.write(bytes.data(), bytes.size());
  return file.commit();
}

namespace {
// True if `name` is that of part *p of *q of a shard's counts.
bool counts_part_name(const std::string& name, int* p, int* q) {
  if (std::sscanf(name.c_str(), "counts-%d-of-%d.", p, q) != 2 || *p < 1 || *q < 1) return false;
  return name == "counts-" + std::to_string(*p) + "-of-" + std::to_string(*q) + ".records";
}
}  // namespace

std::vector<std::string> stale_counts_files(const ShardPaths& paths, int shard, int parts) {
  std::vector<std::string> out;
  if (parts != 1) out.push_back(paths.shard_counts(shard));
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(paths.shard_dir(shard), ec)) {
    int p = 0, q = 0;
    if (counts_part_name(entry.path().filename().string(), &p, &q) && q != parts) out.push_back(entry.path().string());
  }
  return out;
}

Status shard_counts_files(const ShardPaths& paths, int shard, std::vector<std::string>* out) {
  out->clear();
  std::error_code ec;
  if (std::filesystem::exists(paths.shard_counts(shard), ec)) {
    out->push_back(paths.shard_counts(shard));
    return Status::OK();
  }
  int parts = 0;
  for (const auto& entry : std::filesystem::directory_iterator(paths.shard_dir(shard), ec)) {
    int p = 0, q = 0;
    if (!counts_part_name(entry.path().filename().string(), &p, &q)) continue;
    if (parts && q != parts)
      return Status::InvalidArgument("shard " + std::to_string(shard) + " has counts split into " +
                                     std::to_string(parts) + " and into " + std::to_string(q) +
                                     " parts: run its count tasks again, all with the same number of parts");
    parts = q;
  }
  if (parts == 0)
    return Status::NotFound("shard " + std::to_string(shard) + " has no counts (did its count step finish?)");
  for (int p = 1; p <= parts; ++p) {
    const std::string f = paths.shard_counts_part(shard, p, parts);
    if (!std::filesystem::exists(f, ec))
      return Status::NotFound("shard " + std::to_string(shard) + ": counts part " + std::to_string(p) + " of " +
                              std::to_string(parts) + " is missing (did that count task finish?)");
    out->push_back(f);
  }
  return Status::OK();
}

}  // namespace sgfpat

#include "count/entry_buckets.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "io/atomic_file.h"

namespace sgfpat {

namespace {
// Entries a bucket's buffer holds before it is appended to its file (64 KB
// at 40 bytes an entry).
constexpr size_t kBufferEntries = 1600;
}  // namespace

EntryBuckets::EntryBuckets(std::string prefix, int threads)
    : prefix_(std::move(prefix)), buffers_(size_t(threads)), written_(size_t(threads)) {
  for (auto& w : written_) w.fill(0);
}

std::string EntryBuckets::path(int thread, int b) const {
  return prefix_ + "-t" + std::to_string(thread) + "-b" + std::to_string(b);
}

Status EntryBuckets::write(int thread, int b) {
  std::vector<FrontierEntry>& buf = buffers_[size_t(thread)][size_t(b)];
  if (buf.empty()) return Status::OK();
  const std::string p = path(thread, b);
  std::FILE* f = std::fopen(p.c_str(), "ab");
  if (!f) return write_error_status(errno, "writing " + p);
  const bool ok = std::fwrite(buf.data(), sizeof(FrontierEntry), buf.size(), f) == buf.size();
  const int err = errno;
  if (std::fclose(f) != 0 || !ok) return write_error_status(ok ? errno : err, "writing " + p);
  written_[size_t(thread)][size_t(b)] += buf.size();
  buf.clear();
  return Status::OK();
}

Status EntryBuckets::add(int thread, const std::vector<FrontierEntry>& entries) {
  auto& mine = buffers_[size_t(thread)];
  for (const FrontierEntry& e : entries) {
    const int b = part_bucket(e.key);
    mine[size_t(b)].push_back(e);
    if (mine[size_t(b)].size() >= kBufferEntries) {
      Status s = write(thread, b);
      if (!s.ok()) return s;
    }
  }
  return Status::OK();
}

Status EntryBuckets::flush() {
  sizes_.fill(0);
  for (int t = 0; t < int(buffers_.size()); ++t)
    for (int b = 0; b < kPartBuckets; ++b) {
      Status s = write(t, b);
      if (!s.ok()) return s;
      sizes_[size_t(b)] += written_[size_t(t)][size_t(b)];
    }
  return Status::OK();
}

uint64_t EntryBuckets::total() const { return std::accumulate(sizes_.begin(), sizes_.end(), uint64_t(0)); }

Status EntryBuckets::read(int b, std::vector<FrontierEntry>* out) const {
  for (int t = 0; t < int(buffers_.size()); ++t) {
    const uint64_t n = written_[size_t(t)][size_t(b)];
    if (n == 0) continue;
    const std::string p = path(t, b);
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) return Status::IOError("reading " + p + ": " + std::strerror(errno));
    const size_t at = out->size();
    out->resize(at + n);
    const size_t got = std::fread(out->data() + at, sizeof(FrontierEntry), n, f);
    const bool more = std::fgetc(f) != EOF;
    std::fclose(f);
    if (got != n || more) return Status::Corruption("scratch file " + p + " does not hold the entries written to it");
  }
  return Status::OK();
}

}  // namespace sgfpat

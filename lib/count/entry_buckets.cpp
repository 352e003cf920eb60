#include "count/entry_buckets.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "io/atomic_file.h"

namespace sgfpat {

namespace {
// Bytes a bucket's buffer holds before it is appended to its file.
constexpr size_t kBufferBytes = size_t(64) << 10;
}  // namespace

EntryBuckets::EntryBuckets(std::string prefix, int threads, size_t keys_per_entry)
    : prefix_(std::move(prefix)),
      keys_per_entry_(keys_per_entry),
      record_bytes_(sizeof(FrontierEntry) + keys_per_entry * sizeof(uint64_t)),
      buffers_(size_t(threads)),
      written_(size_t(threads)) {
  for (auto& w : written_) w.fill(0);
}

std::string EntryBuckets::path(int thread, int b) const {
  return prefix_ + "-t" + std::to_string(thread) + "-b" + std::to_string(b);
}

Status EntryBuckets::write(int thread, int b) {
  std::vector<char>& buf = buffers_[size_t(thread)][size_t(b)];
  if (buf.empty()) return Status::OK();
  const std::string p = path(thread, b);
  std::FILE* f = std::fopen(p.c_str(), "ab");
  if (!f) return write_error_status(errno, "writing " + p);
  const bool ok = std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
  const int err = errno;
  if (std::fclose(f) != 0 || !ok) return write_error_status(ok ? errno : err, "writing " + p);
  written_[size_t(thread)][size_t(b)] += buf.size() / record_bytes_;
  buf.clear();
  return Status::OK();
}

Status EntryBuckets::add(int thread, const std::vector<FrontierEntry>& entries, std::span<const uint64_t> keys) {
  if (keys.size() != entries.size() * keys_per_entry_)
    return Status::Internal("entry buckets: " + std::to_string(keys.size()) + " keys for " +
                            std::to_string(entries.size()) + " entries");
  auto& mine = buffers_[size_t(thread)];
  for (size_t i = 0; i < entries.size(); ++i) {
    const int b = part_bucket(entries[i].key);
    std::vector<char>& buf = mine[size_t(b)];
    const size_t at = buf.size();
    buf.resize(at + record_bytes_);
    std::memcpy(buf.data() + at, &entries[i], sizeof(FrontierEntry));
    if (keys_per_entry_)
      std::memcpy(buf.data() + at + sizeof(FrontierEntry), keys.data() + i * keys_per_entry_,
                  keys_per_entry_ * sizeof(uint64_t));
    if (buf.size() >= kBufferBytes) {
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

Status EntryBuckets::read(int b, std::vector<FrontierEntry>* out, std::vector<uint64_t>* keys) const {
  std::vector<char> buf;
  for (int t = 0; t < int(buffers_.size()); ++t) {
    const uint64_t n = written_[size_t(t)][size_t(b)];
    if (n == 0) continue;
    const std::string p = path(t, b);
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) return Status::IOError("reading " + p + ": " + std::strerror(errno));
    buf.resize(n * record_bytes_);
    const size_t got = std::fread(buf.data(), 1, buf.size(), f);
    const bool more = std::fgetc(f) != EOF;
    std::fclose(f);
    if (got != buf.size() || more)
      return Status::Corruption("scratch file " + p + " does not hold the entries written to it");
    const size_t at = out->size(), key_at = keys ? keys->size() : 0;
    out->resize(at + n);
    if (keys && keys_per_entry_) keys->resize(key_at + n * keys_per_entry_);
    for (uint64_t i = 0; i < n; ++i) {
      const char* rec = buf.data() + i * record_bytes_;
      std::memcpy(&(*out)[at + i], rec, sizeof(FrontierEntry));
      if (keys && keys_per_entry_)
        std::memcpy(keys->data() + key_at + i * keys_per_entry_, rec + sizeof(FrontierEntry),
                    keys_per_entry_ * sizeof(uint64_t));
    }
  }
  return Status::OK();
}

}  // namespace sgfpat

// sgfpat_priors.h: a self-contained reader of sgfpat priors files.
//
// Copy this one header into an engine; it needs only the C++17 standard
// library (plus mmap on POSIX systems, with a plain read elsewhere).
//
//   sgfpat_priors::Priors priors;
//   std::string error;
//   if (!priors.open("go19.priors", &error)) { std::cerr << error; return 1; }
//   uint64_t keys[16];                 // keys[i] = pattern key of level i+1
//   ...fill keys for a candidate (same Zobrist scheme: priors.seed(), .symmetry())...
//   int m = priors.largest_level(keys, priors.levels());   // 0: no level known
//   sgfpat_priors::Counts c;
//   if (m > 0 && priors.lookup(m, keys[m - 1], &c))
//     double play_rate = double(c.played) / double(c.seen);
//
// File layout (little-endian, version 1): a 512-byte header (magic
// "SGFPRIOR", version, sizes, key scheme, thresholds, corpus summary,
// per-level tables, data checksum, header checksum), then for each level
// its keys (sorted u64) and its counts ({u64 seen, u32 played, u32 wins}),
// 8-byte aligned.  open() validates the header and every table's bounds, so
// a corrupt, truncated or foreign file is refused and never read past its
// end; verify() also checks the data checksum (reads the whole file).
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define SGFPAT_PRIORS_MMAP 1
#endif

namespace sgfpat_priors {

inline constexpr char kMagic[8] = {'S', 'G', 'F', 'P', 'R', 'I', 'O', 'R'};
inline constexpr uint32_t kVersion = 1;
inline constexpr uint32_t kHeaderBytes = 512;
inline constexpr int kMaxLevels = 16;
inline constexpr uint32_t kByteOrderMark = 0x01020304;

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;
  uint64_t file_bytes;
  uint32_t byte_order;  // kByteOrderMark as written
  uint32_t levels;      // L of the key scheme
  uint64_t seed;        // Zobrist seed of the key scheme
  uint32_t symmetry;    // 1: keys are symmetry-invariant
  uint32_t min_played;  // thresholds applied at export
  uint64_t min_seen;
  uint64_t games;       // corpus summary
  uint64_t positions;
  uint64_t candidates;
  int64_t export_time;  // unix seconds
  uint64_t count[kMaxLevels];           // patterns of level i+1
  uint64_t keys_offset[kMaxLevels];     // byte offset of its sorted keys
  uint64_t counts_offset[kMaxLevels];   // byte offset of its CountsRecord array
  uint64_t data_checksum;               // checksum64 of bytes [header_bytes, file_bytes)
  uint64_t header_checksum;             // checksum64 of the header with this field 0
  char reserved[kHeaderBytes - 488];
};
static_assert(sizeof(Header) == kHeaderBytes, "header layout");

struct CountsRecord {
  uint64_t seen;
  uint32_t played;
  uint32_t wins;
};
static_assert(sizeof(CountsRecord) == 16, "record layout");

struct Counts {
  uint64_t played = 0;
  uint64_t seen = 0;
  uint64_t wins = 0;
};

// A fast 64-bit checksum over 8-byte words, fed in pieces whose sizes are
// multiples of 8 (the last piece may be shorter).
class Checksum64 {
 public:
  void update(const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h_ = (h_ ^ w) * 0x100000001b3ULL;
      h_ ^= h_ >> 29;
    }
    if (i < n) {
      uint64_t w = 0;
      std::memcpy(&w, p + i, n - i);
      h_ = (h_ ^ w) * 0x100000001b3ULL;
      h_ ^= h_ >> 29;
    }
    total_ += n;
  }
  uint64_t value() const {
    uint64_t h = (h_ ^ (total_ << 8)) * 0x100000001b3ULL;
    return h ^ (h >> 31);
  }

 private:
  uint64_t h_ = 0x736766707269ULL;
  uint64_t total_ = 0;
};

inline uint64_t checksum64(const void* data, size_t n) {
  Checksum64 c;
  c.update(data, n);
  return c.value();
}

class Priors {
 public:
  Priors() = default;
  Priors(const Priors&) = delete;
  Priors& operator=(const Priors&) = delete;
  ~Priors() { close(); }

  // Maps and validates a priors file; false with *error set if it is not one.
  bool open(const std::string& path, std::string* error) {
    close();
#ifdef SGFPAT_PRIORS_MMAP
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return fail(error, path + ": cannot open: " + std::strerror(errno));
    struct stat st;
    if (::fstat(fd, &st) != 0 || st.st_size <= 0) {
      ::close(fd);
      return fail(error, path + ": empty or unreadable file");
    }
    void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) return fail(error, path + ": cannot map: " + std::strerror(errno));
    map_ = p;
    map_size_ = size_t(st.st_size);
    return attach(p, map_size_, path, error);
#else
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return fail(error, path + ": cannot open");
    std::vector<unsigned char> buf;
    unsigned char chunk[1 << 16];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) buf.insert(buf.end(), chunk, chunk + n);
    std::fclose(f);
    owned_.assign(buf.size() / 8 + 1, 0);
    std::memcpy(owned_.data(), buf.data(), buf.size());
    return attach(owned_.data(), buf.size(), path, error);
#endif
  }

  // Uses priors already in memory (8-byte aligned, must outlive this object).
  bool from_memory(const void* data, size_t size, std::string* error) {
    close();
    return attach(data, size, "priors", error);
  }

  void close() {
#ifdef SGFPAT_PRIORS_MMAP
    if (map_) ::munmap(map_, map_size_);
#endif
    map_ = nullptr;
    map_size_ = 0;
    base_ = nullptr;
    header_ = nullptr;
  }

  bool is_open() const { return header_ != nullptr; }
  const Header& header() const { return *header_; }
  int levels() const { return int(header_->levels); }
  uint64_t seed() const { return header_->seed; }
  bool symmetry() const { return header_->symmetry != 0; }
  uint64_t count(int level) const { return level >= 1 && level <= levels() ? header_->count[level - 1] : 0; }
  // Overall play rate: positions / candidates (the prior of a move no level knows).
  double base_rate() const {
    return header_->candidates ? double(header_->positions) / double(header_->candidates) : 0.0;
  }

  // Counts of the level-`level` pattern with this key, if present.
  bool lookup(int level, uint64_t key, Counts* out) const {
    long i = find(level, key);
    if (i < 0) return false;
    const CountsRecord& r = counts_[level - 1][i];
    *out = Counts{r.played, r.seen, r.wins};
    return true;
  }
  bool contains(int level, uint64_t key) const { return find(level, key) >= 0; }

  // The largest m in 1..max_level with keys[m-1] present, by binary search:
  // presence is closed under smaller levels.  0 when level 1 is absent.
  int largest_level(const uint64_t* keys, int max_level) const {
    int lo = 0, hi = max_level < levels() ? max_level : levels();
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (contains(mid, keys[mid - 1])) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  // The same by scanning upward (for tests and comparison).
  int largest_level_linear(const uint64_t* keys, int max_level) const {
    int m = 0;
    int top = max_level < levels() ? max_level : levels();
    while (m < top && contains(m + 1, keys[m])) ++m;
    return m;
  }

  // Checks the data checksum (reads every byte).
  bool verify(std::string* error) const {
    if (!header_) return fail(error, "no priors file open");
    const unsigned char* b = static_cast<const unsigned char*>(base_);
    if (checksum64(b + kHeaderBytes, size_t(header_->file_bytes) - kHeaderBytes) != header_->data_checksum)
      return fail(error, "priors data checksum mismatch (corrupt file)");
    return true;
  }

 private:
  static bool fail(std::string* error, const std::string& msg) {
    if (error) *error = msg;
    return false;
  }

  bool attach(const void* data, size_t size, const std::string& name, std::string* error) {
    if (reinterpret_cast<uintptr_t>(data) % 8 != 0) return fail(error, name + ": data not 8-byte aligned");
    if (size < kHeaderBytes) return fail(error, name + ": too short to be a priors file (" + std::to_string(size) + " bytes)");
    const Header* h = static_cast<const Header*>(data);
    if (std::memcmp(h->magic, kMagic, 8) != 0) return fail(error, name + ": not an sgfpat priors file (bad magic)");
    if (h->byte_order != kByteOrderMark) return fail(error, name + ": written on a machine of another byte order");
    if (h->version != kVersion)
      return fail(error, name + ": priors format version " + std::to_string(h->version) + ", this reader reads " +
                             std::to_string(kVersion));
    Header copy;
    std::memcpy(&copy, h, sizeof copy);
    copy.header_checksum = 0;
    if (checksum64(&copy, sizeof copy) != h->header_checksum) return fail(error, name + ": header checksum mismatch (corrupt file)");
    if (h->header_bytes != kHeaderBytes || h->file_bytes != size)
      return fail(error, name + ": truncated or extended file (header says " + std::to_string(h->file_bytes) +
                             " bytes, file has " + std::to_string(size) + ")");
    if (h->levels < 1 || h->levels > uint32_t(kMaxLevels)) return fail(error, name + ": bad level count");
    for (uint32_t l = 0; l < h->levels; ++l) {
      uint64_t n = h->count[l];
      if (n > size / 24 || !in_bounds(h->keys_offset[l], n * 8, size) || !in_bounds(h->counts_offset[l], n * 16, size) ||
          h->keys_offset[l] % 8 || h->counts_offset[l] % 8)
        return fail(error, name + ": level " + std::to_string(l + 1) + " table out of bounds (corrupt file)");
    }
    base_ = data;
    header_ = h;
    const unsigned char* b = static_cast<const unsigned char*>(data);
    for (uint32_t l = 0; l < h->levels; ++l) {
      keys_[l] = reinterpret_cast<const uint64_t*>(b + h->keys_offset[l]);
      counts_[l] = reinterpret_cast<const CountsRecord*>(b + h->counts_offset[l]);
    }
    return true;
  }
  static bool in_bounds(uint64_t off, uint64_t len, uint64_t size) {
    return off >= kHeaderBytes && off <= size && len <= size - off;
  }

  // Interpolation search: keys are hashes of known distribution, so a guess
  // from the key's value lands within a few entries; binary search finishes.
  long find(int level, uint64_t key) const {
    if (level < 1 || level > levels()) return -1;
    const uint64_t* k = keys_[level - 1];
    uint64_t n = header_->count[level - 1];
    if (n == 0) return -1;
    uint64_t lo = 0, hi = n;  // search [lo, hi)
    // With symmetry on a key is the least of 8 uniform hashes: its
    // distribution function is 1 - (1 - u)^8, not u.
    double u = double(key) / 18446744073709551616.0;
    if (header_->symmetry) {
      double r = 1.0 - u, r2 = r * r, r4 = r2 * r2;
      u = 1.0 - r4 * r4;
    }
    uint64_t guess = uint64_t(u * double(n));
    if (guess >= n) guess = n - 1;
    // Widen a window around the guess until it brackets the key.
    uint64_t step = 8;
    uint64_t a = guess > step ? guess - step : 0, b = guess + step < n ? guess + step : n;
    while (a > 0 && k[a] > key) { step *= 4; a = guess > step ? guess - step : 0; }
    while (b < n && k[b - 1] < key) { step *= 4; b = guess + step < n ? guess + step : n; }
    lo = a;
    hi = b;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (k[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < n && k[lo] == key ? long(lo) : -1;
  }

  void* map_ = nullptr;
  size_t map_size_ = 0;
  std::vector<uint64_t> owned_;
  const void* base_ = nullptr;
  const Header* header_ = nullptr;
  const uint64_t* keys_[kMaxLevels] = {};
  const CountsRecord* counts_[kMaxLevels] = {};
};

}  // namespace sgfpat_priors

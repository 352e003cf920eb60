#include "count/played_sketch_file.h"

#include "core/format_version.h"
#include "io/atomic_file.h"
#include "io/free_space.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace sgfpat {

namespace {
// The magic is these 6 bytes and the format's version as two digits
// (kPlayedSketchFormat: "SGFPSK01").
constexpr char kMagic[6] = {'S', 'G', 'F', 'P', 'S', 'K'};
static_assert(kPlayedSketchFormat.current < 100);

struct Header {
  char magic[8];
  uint64_t threshold;
  uint64_t bytes;
  uint64_t items;
  uint64_t sized_for;
  uint64_t checksum;  // of the cells
};

uint64_t checksum(const uint64_t* w, size_t n) {
  // Four independent lanes keep it at memory speed.
  uint64_t h[4] = {1, 2, 3, 4};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) h[k] = (h[k] ^ w[i + size_t(k)]) * 0x9e3779b97f4a7c15ULL + (h[k] >> 29);
  for (; i < n; ++i) h[0] = (h[0] ^ w[i]) * 0x9e3779b97f4a7c15ULL + (h[0] >> 29);
  return h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7);
}

Status write_all(int fd, const void* p, size_t n, const std::string& path) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    ssize_t w = ::write(fd, c, std::min<size_t>(n, size_t(1) << 30));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return write_error_status(w < 0 ? errno : ENOSPC, "writing " + path);
    c += w;
    n -= size_t(w);
  }
  return Status::OK();
}

Status read_all(int fd, void* p, size_t n, const std::string& path) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    ssize_t r = ::read(fd, c, std::min<size_t>(n, size_t(1) << 30));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Status::IOError("reading " + path + ": " + std::strerror(errno));
    if (r == 0) return Status::Corruption("sketch file " + path + " is truncated");
    c += r;
    n -= size_t(r);
  }
  return Status::OK();
}
}  // namespace

size_t sketch_bytes_for(uint64_t items, int threshold, size_t max_bytes) {
  const int bits = CountMinSketch::cell_bits_for(threshold);
  return size_t(std::min<uint64_t>(max_bytes, std::max<uint64_t>(1, items) * 2 * CountMinSketch::kRows * bits / 8));
}

uint64_t sketch_items_for(size_t bytes, int threshold) {
  return uint64_t(bytes) * 8 / (2 * CountMinSketch::kRows * uint64_t(CountMinSketch::cell_bits_for(threshold)));
}

PlayedSketch new_played_sketch(size_t bytes, int threshold) {
  PlayedSketch p;
  p.sketch = std::make_unique<CountMinSketch>(bytes, threshold);
  p.sized_for = sketch_items_for(p.sketch->bytes(), threshold);
  return p;
}

std::string played_sketch_name(uint32_t gen) { return "sgfpat-played-" + std::to_string(gen) + ".sketch"; }

Status save_played_sketch(const PlayedSketch& s, int threshold, const std::string& path) {
  const CountMinSketch& sk = *s.sketch;
  Header h{};
  std::memcpy(h.magic, kMagic, 6);
  h.magic[6] = char('0' + kPlayedSketchFormat.current / 10);
  h.magic[7] = char('0' + kPlayedSketchFormat.current % 10);
  h.threshold = uint64_t(threshold);
  h.bytes = sk.bytes();
  h.items = s.items;
  h.sized_for = s.sized_for;
  h.checksum = checksum(sk.words(), sk.word_count());
  const std::string tmp = path + ".tmp";
  // Its size is known: a disk that cannot hold it is said before writing.
  Status room = check_free_space(path, sizeof h + sk.bytes() + (1 << 20), "the sketch of played patterns " + path);
  if (!room.ok()) return room;
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return write_error_status(errno, "cannot create " + tmp);
  Status st = write_all(fd, &h, sizeof h, tmp);
  if (st.ok()) st = write_all(fd, sk.words(), sk.bytes(), tmp);
  if (st.ok() && ::fsync(fd) != 0) st = write_error_status(errno, "syncing " + tmp);
  ::close(fd);
  if (st.ok() && ::rename(tmp.c_str(), path.c_str()) != 0)
    st = Status::IOError("renaming " + tmp + ": " + std::strerror(errno));
  if (!st.ok()) ::unlink(tmp.c_str());
  return st;
}

Status load_played_sketch(const std::string& path, int threshold, PlayedSketch* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open the sketch " + path + ": " + std::strerror(errno));
  Header h{};
  Status st = read_all(fd, &h, sizeof h, path);
  if (st.ok() && std::memcmp(h.magic, kMagic, 6) != 0)
    st = Status::Corruption("sketch file " + path + " is damaged (not a sketch file)");
  if (st.ok()) {
    const uint32_t version = (uint32_t(uint8_t(h.magic[6])) - uint32_t('0')) * 10 + uint32_t(uint8_t(h.magic[7])) -
                             uint32_t('0');
    st = check_format_version(kPlayedSketchFormat, version, path);
  }
  struct stat sb {};
  if (st.ok() && (h.threshold != uint64_t(threshold) || h.bytes % 64 != 0 ||
                  h.bytes == 0 || ::fstat(fd, &sb) != 0 || uint64_t(sb.st_size) != sizeof h + h.bytes))
    st = Status::Corruption("sketch file " + path + " is damaged (bad header or size)");
  if (st.ok()) {
    auto sk = std::make_unique<CountMinSketch>(size_t(h.bytes), threshold);
    if (sk->bytes() != h.bytes) st = Status::Corruption("sketch file " + path + " is damaged (bad size)");
    if (st.ok()) st = read_all(fd, sk->words(), sk->bytes(), path);
    if (st.ok() && checksum(sk->words(), sk->word_count()) != h.checksum)
      st = Status::Corruption("sketch file " + path + " is damaged (checksum mismatch)");
    if (st.ok()) {
      out->sketch = std::move(sk);
      out->items = h.items;
      out->sized_for = h.sized_for;
    }
  }
  ::close(fd);
  return st;
}

}  // namespace sgfpat

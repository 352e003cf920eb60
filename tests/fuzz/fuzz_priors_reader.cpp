// libFuzzer target: arbitrary bytes as a priors file, opened by open_priors
// (the version check, then the drop-in reader's header and table
// validation), then looked up, verified and evaluated on a small board.
// The reader promises that a file it opens is never read past its end,
// whatever its tables hold.
//
// The first byte chooses how much of the header the harness makes right
// before the reader sees it, so that the fuzzer gets past the checks a
// random file fails at once (magic, version, header checksum, size) and
// reaches the table bounds, the probes and the model section:
//   bit 0: magic, byte order and the file's size written in;
//   bit 1: the header checksum recomputed;
//   bit 2: the data checksum recomputed (verify() then passes);
//   bits 3-4: the board size of the evaluation (5, 7, 9, 2).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "eval/evaluator.h"
#include "priors/priors_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace sp = sgfpat_priors;
  if (size < 1) return 0;
  const uint8_t mode = data[0];
  std::vector<uint8_t> file(data + 1, data + size);
  if (file.size() >= sp::kHeaderBytes) {
    sp::Header h;
    std::memcpy(&h, file.data(), sizeof h);
    if (mode & 1) {
      std::memcpy(h.magic, sp::kMagic, 8);
      h.byte_order = sp::kByteOrderMark;
      h.header_bytes = sp::kHeaderBytes;
      h.file_bytes = file.size();
      if (h.version < sp::kOldestVersion || h.version > sp::kVersion) h.version = sp::kVersion;
    }
    if (mode & 4) h.data_checksum = sp::checksum64(file.data() + sp::kHeaderBytes, file.size() - sp::kHeaderBytes);
    if (mode & 2) {
      h.header_checksum = 0;
      h.header_checksum = sp::checksum64(&h, sizeof h);
    }
    std::memcpy(file.data(), &h, sizeof h);
  }
  const std::string path = "/tmp/sgfpat-fuzz-priors-" + std::to_string(getpid());
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (!file.empty()) std::fwrite(file.data(), 1, file.size(), f);
  std::fclose(f);

  sp::Priors priors;
  sgfpat::Status st = sgfpat::open_priors(path, /*verify=*/false, &priors);
  if (!st.ok()) {
    FUZZ_CHECK(!priors.is_open() && !st.message().empty());
    std::remove(path.c_str());
    return 0;
  }
  FUZZ_CHECK(priors.levels() >= 1 && priors.levels() <= sp::kMaxLevels);
  std::string error;
  (void)priors.verify(&error);

  // Keys: the file's own 8-byte words (so that stored keys are found too)
  // and a few made up.
  std::vector<uint64_t> keys;
  for (size_t i = 0; i + 8 <= file.size() && keys.size() < 64 * sp::kMaxLevels; i += 8) {
    uint64_t k;
    std::memcpy(&k, file.data() + i, 8);
    keys.push_back(k);
  }
  for (uint64_t k = 0; keys.size() % sp::kMaxLevels != 0 || keys.size() < 2 * sp::kMaxLevels; ++k)
    keys.push_back(k * 0x9E3779B97F4A7C15ULL);
  const int L = priors.levels();
  const size_t n = keys.size() / sp::kMaxLevels;
  std::vector<int> largest(n), levels(n);
  priors.largest_levels(keys.data(), sp::kMaxLevels, L, n, largest.data());
  for (size_t c = 0; c < n; ++c) {
    const uint64_t* k = keys.data() + c * sp::kMaxLevels;
    FUZZ_CHECK(largest[c] >= 0 && largest[c] <= L);
    FUZZ_CHECK(largest[c] == priors.largest_level(k, L));
    sp::Counts counts;
    for (int l = 0; l <= L + 1; ++l) (void)priors.lookup(l, k[l % sp::kMaxLevels], &counts);
    levels[c] = 1 + int(k[0] % uint64_t(L));
  }
  std::vector<sp::Counts> out(n);
  std::vector<uint8_t> found(n);
  static_assert(sizeof(bool) == 1, "found as bytes");
  priors.lookup_many(levels.data(), keys.data(), n, out.data(), reinterpret_cast<bool*>(found.data()));
  for (size_t c = 0; c < n; ++c) FUZZ_CHECK(bool(found[c]) == priors.contains(levels[c], keys[c]));

  // Every estimator over a small board with a few stones: the model section
  // and the smoothed back-off read the file's numbers.
  static const int kSizes[4] = {5, 7, 9, 2};
  const int bs = kSizes[(mode >> 3) & 3];
  sgfpat::Board board(bs);
  for (size_t i = 0; i + 1 < file.size() && i < 16; i += 2) {
    const sgfpat::Point p{int8_t(file[i] % bs), int8_t(file[i + 1] % bs)};
    (void)board.play(p, i % 4 ? sgfpat::Color::White : sgfpat::Color::Black, false);
  }
  for (sgfpat::Estimator e : {sgfpat::Estimator::Raw, sgfpat::Estimator::Smoothed, sgfpat::Estimator::Auto}) {
    sgfpat::EvalOptions o;
    o.estimator = e;
    sgfpat::Evaluator ev(priors, o);
    std::vector<sgfpat::MoveEval> moves = ev.evaluate(board, sgfpat::Color::Black);
    double sum = 0;
    for (const sgfpat::MoveEval& m : moves) {
      FUZZ_CHECK(m.level >= 0 && m.level <= L);
      sum += m.prob;
    }
    FUZZ_CHECK(moves.empty() || (sum > 0.999 && sum < 1.001) || sum == 0);
  }
  std::remove(path.c_str());
  return 0;
}

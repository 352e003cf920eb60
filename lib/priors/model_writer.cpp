#include "priors/model_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "io/atomic_file.h"
#include "priors/priors_file.h"

namespace sgfpat {

sgfpat_priors::ModelSection empty_model() {
  sgfpat_priors::ModelSection m;
  std::memset(&m, 0, sizeof m);
  std::memcpy(m.magic, sgfpat_priors::kModelMagic, 8);
  m.feature_set = sgfpat_priors::kFeatureSet;
  m.groups = sgfpat_priors::kFeatureGroups;
  for (int g = 0; g < sgfpat_priors::kFeatureGroups; ++g) m.group_levels[g] = uint32_t(sgfpat_priors::kGroupLevels[g]);
  return m;
}

Status write_priors_with_model(const std::string& in, const sgfpat_priors::ModelSection& model,
                               const std::string& out) {
  using sgfpat_priors::Header;
  sgfpat_priors::Priors src;
  if (Status st = open_priors(in, /*verify=*/true, &src); !st.ok()) return st;
  Header h = src.header();
  // The tables end where the old model (if any) starts.
  uint64_t tables_end = h.file_bytes;
  if (h.version >= 3 && h.model_bytes > 0) tables_end = h.model_offset;
  const uint64_t model_offset = (tables_end + 7) / 8 * 8;

  // Through AtomicFile: the old file (possibly `in` itself) stays whole
  // until the new one is, and a full disk is NoSpace naming `out`.
  AtomicFile f;
  Status st = f.open(out);
  if (!st.ok()) return st;
  sgfpat_priors::Checksum64 sum;
  f.write(&h, sizeof h);
  const unsigned char* base = reinterpret_cast<const unsigned char*>(&src.header());
  // In pieces that are multiples of 8 bytes, as Checksum64 wants.
  const size_t kPiece = size_t(1) << 20;
  for (uint64_t off = sizeof h; off < tables_end; off += kPiece) {
    const size_t n = size_t(std::min<uint64_t>(kPiece, tables_end - off));
    f.write(base + off, n);
    sum.update(base + off, n);
  }
  static const char zeros[8] = {};
  const size_t pad = size_t(model_offset - tables_end);
  if (pad > 0) {
    f.write(zeros, pad);
    sum.update(zeros, pad);
  }
  f.write(&model, sizeof model);
  sum.update(&model, sizeof model);
  h.version = sgfpat_priors::kVersion;
  h.model_offset = model_offset;
  h.model_bytes = sizeof model;
  h.file_bytes = model_offset + sizeof model;
  h.data_checksum = sum.value();
  h.header_checksum = 0;
  h.header_checksum = sgfpat_priors::checksum64(&h, sizeof h);
  f.write_at(0, &h, sizeof h);
  st = f.commit();
  src.close();
  if (!st.ok()) return st;
  return Status::OK();
}

}  // namespace sgfpat

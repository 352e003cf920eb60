#include "render/svg_file.h"

#include "io/atomic_file.h"

namespace sgfpat {

Status write_svg_file(const std::string& path, const std::string& svg) {
  AtomicFile file;
  Status st = file.open(path);
  if (!st.ok()) return st;
  file.write(svg.data(), svg.size());
  return file.commit();
}

}  // namespace sgfpat

// Turns the command line's inputs into the ordered list of files to read.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sgfpat {

struct InputFile {
  std::string path;   // "-" for stdin
  uint64_t size = 0;  // bytes on disk, 0 when unknown (stdin, missing)
  std::string error;  // set when the input could not even be listed
};

// True for names we pick up inside directories: .sgf .sgf.gz .gz .bz2 .xz
// .zst .tar .tar.gz .tgz .tar.bz2 .tar.xz .zip (any case).
bool is_input_name(std::string_view name);

// True for names that announce a tar archive (.tar, .tar.gz, .tgz, ...).
bool is_tar_name(std::string_view name);

// Each input in order: "-" as stdin, a directory as its matching files
// (recursively, sorted by path), anything else as given, even if missing.
// Inside a directory, links are followed, to files and to directories
// (each directory is read once, so a link back up the tree is harmless);
// a subdirectory that cannot be listed and a broken link with an input's
// name come out as entries with `error` set, so nothing is skipped
// silently.
std::vector<InputFile> expand_inputs(const std::vector<std::string>& inputs);

}  // namespace sgfpat

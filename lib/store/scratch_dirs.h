// Scratch folders of database readers in the shared temp folder.
//
// A reader (a RocksDB secondary instance) needs a folder of its own for its
// info log; it is named for the process that made it, so that a reader
// killed before it could remove its folder leaves something the next
// reader can recognise and remove.
#pragma once
#include <filesystem>

namespace sgfpat {

// A fresh folder path "<temp>/sgfpat-reader-<pid>-<tag>" for this process
// (not created).
std::filesystem::path reader_scratch_path(const std::filesystem::path& temp_dir, const void* tag);

// Removes the reader folders in `temp_dir` whose process is gone: only real
// folders (not links) owned by this user, and only the regular files
// directly in them (RocksDB puts just its info log there).  The temp folder
// is shared, so nothing found in it is followed; a folder holding anything
// else stays.  Never fails: what cannot be removed is left.
void remove_stale_reader_dirs(const std::filesystem::path& temp_dir);

}  // namespace sgfpat

// Decompression (gzip, bzip2, xz, zstd; concatenated streams too) with the
// codec libraries driven directly, chosen by magic bytes or file name.
#pragma once
#include <memory>
#include <string_view>

#include "io/byte_source.h"

namespace sgfpat {

enum class Compression { None, Gzip, Bzip2, Xz, Zstd };

// The compression whose magic number starts `head`, None if none does.
Compression compression_from_magic(std::string_view head);
// The compression a file name's extension promises (.gz .tgz .bz2 .tbz2
// .xz .txz .zst .tzst, any case), None otherwise.
Compression compression_from_name(std::string_view name);
// "gzip", "bzip2", "xz", "zstd" or "plain".
const char* compression_name(Compression c);

// A source of the decompressed bytes of `raw` (not owned, must outlive it);
// corrupt or truncated data ends the stream with error() set, after every
// byte decoded before the damage was returned.
std::unique_ptr<ByteSource> make_decompressor(Compression c, ByteSource* raw,
                                              size_t buffer_bytes = 64 * 1024);

}  // namespace sgfpat

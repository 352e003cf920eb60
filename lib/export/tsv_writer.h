// The pattern TSV of docs/formats.md: a header line, then one
// line per pattern of a PatternTable, level by level in the table's order:
//   level <TAB> key (16 hex digits) <TAB> played <TAB> seen <TAB> wins <TAB> pattern
#pragma once
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/status.h"
#include "export/pattern_table.h"

namespace sgfpat {

inline constexpr const char* kPatternTsvHeader = "level\tkey\tplayed\tseen\twins\tpattern\n";

// Writes every pattern of `table` to `out`, flushed, and the lines written
// per level into *written (index level-1).  Fails on the first write error.
Status write_pattern_tsv(const PatternTable& table, std::FILE* out, std::vector<uint64_t>* written);

}  // namespace sgfpat

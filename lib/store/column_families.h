// The pattern database's column families and their names.
//
// One table says which families sgfpat makes, what RocksDB calls them, and
// which every database has.  PatternDb finds each family's handle by
// matching these names against the names of the handles RocksDB returns,
// never by where a handle sits in a list (which depends on the families a
// database happens to have).  What each family holds: store/pattern_db.h.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sgfpat {

enum class Family : uint8_t { kMeta, kGames, kCounts, kPending, kPositions, kFrontier, kPendingPatterns };
inline constexpr size_t kFamilyCount = 7;

struct FamilyName {
  Family family;
  std::string_view name;
  // Every database has it.  The others came later: a writer adds them to
  // an older database at open, a reader opens the database without them.
  bool required;
};

// Indexed by Family.
inline constexpr std::array<FamilyName, kFamilyCount> kFamilies{{
    {Family::kMeta, "default", true},  // RocksDB's own (rocksdb::kDefaultColumnFamilyName)
    {Family::kGames, "games", true},
    {Family::kCounts, "counts", true},
    {Family::kPending, "pending", false},      // incremental counting
    {Family::kPositions, "positions", false},  // the position index
    {Family::kFrontier, "frontier", false},    // nights: the frontier index (docs/nightly.md)
    {Family::kPendingPatterns, "pending_patterns", false},  // nights: patterns waiting for a catch-up
}};

constexpr std::string_view family_name(Family family) { return kFamilies[size_t(family)].name; }

// The family RocksDB calls `name`; none when sgfpat makes no such family.
constexpr std::optional<Family> family_named(std::string_view name) {
  for (const FamilyName& f : kFamilies)
    if (f.name == name) return f.family;
  return std::nullopt;
}

namespace detail {
constexpr bool families_in_enum_order() {
  for (size_t i = 0; i < kFamilyCount; ++i)
    if (size_t(kFamilies[i].family) != i) return false;
  return true;
}
}  // namespace detail
static_assert(detail::families_in_enum_order(), "kFamilies is indexed by Family");

}  // namespace sgfpat

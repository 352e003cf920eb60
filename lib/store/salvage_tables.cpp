// salvage_game_tables(): the games of a table file read block by block,
// going on past a damaged block (RocksDB's RepairDB sets such a file aside
// whole).
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table_properties.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "store/column_families.h"
#include "store/salvage.h"

namespace sgfpat {

namespace {
// Keys are fingerprints, spread evenly: after a damaged block the reader
// seeks to the next of 65536 two-byte prefixes until it lands in a block
// that reads (a block of a table of N games spans about 65536 * 4 / N of
// them, so few seeks are wasted).
constexpr uint32_t kPrefixes = 1 << 16;

std::string prefix_key(uint32_t p) { return {char(p >> 8), char(p & 0xff)}; }
uint32_t prefix_of(const rocksdb::Slice& key) {
  const auto b = [&](size_t i) { return i < key.size() ? uint32_t(uint8_t(key[i])) : 0u; };
  return b(0) << 8 | b(1);
}

Status salvage_table(const std::string& path, Salvaged* out) {
  const std::string name = std::filesystem::path(path).filename().string();
  rocksdb::Options options;
  rocksdb::SstFileReader reader(options);
  if (!reader.Open(path).ok()) {
    // Not a table file of any family, as far as can be told: its family is
    // unknown, so it is noted, not claimed as games.
    out->damage.push_back(name + ": the table file does not open (its end is damaged or missing)");
    return Status::OK();
  }
  const auto props = reader.GetTableProperties();
  if (!props || props->column_family_name != family_name(Family::kGames)) return Status::OK();
  ++out->tables_read;
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(ro));
  uint32_t next_prefix = 0;  // where to go on after damage
  bool noted = false;
  it->SeekToFirst();
  for (;;) {
    for (; it->Valid(); it->Next()) {
      next_prefix = prefix_of(it->key()) + 1;
      if (it->key().size() != sizeof(Fingerprint)) continue;
      Fingerprint fp;
      std::copy_n(reinterpret_cast<const uint8_t*>(it->key().data()), fp.size(), fp.begin());
      const std::string_view value(it->value().data(), it->value().size());
      if (is_game_record(fp, value)) out->games[fp] = std::string(value);
    }
    if (it->status().ok()) break;  // the end
    if (!noted) out->damage.push_back(name + ": damaged blocks (" + it->status().ToString() + ")"), noted = true;
    // Past the damaged block: the next prefix whose seek reads.
    bool found = false;
    for (; next_prefix < kPrefixes && !found; ++next_prefix) {
      it->Seek(prefix_key(next_prefix));
      found = it->status().ok();
    }
    if (!found) break;
  }
  return Status::OK();
}
}  // namespace

Status salvage_game_tables(const std::vector<std::string>& paths, Salvaged* out) {
  for (const auto& p : paths) {
    if (!p.ends_with(".sst")) continue;
    Status st = salvage_table(p, out);
    if (!st.ok()) return st;
  }
  return Status::OK();
}

}  // namespace sgfpat

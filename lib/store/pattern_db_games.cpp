// PatternDb's stored games: their records by fingerprint (stored with the
// totals of games and moves in one write, visited, looked up, deleted by
// repair) and the pending games, those the current count does not cover.
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <cstring>

#include "store/pattern_db_internal.h"
#include "store/rocks_status.h"

namespace sgfpat {

Status PatternDb::set_game_totals(const std::vector<Fingerprint>& remove, uint64_t games, uint64_t moves) {
  if (secondary_) return read_only();
  rocksdb::WriteBatch batch;
  for (const auto& fp : remove) {
    const rocksdb::Slice key(reinterpret_cast<const char*>(fp.data()), fp.size());
    batch.Delete(cf(Family::kGames), key);
    batch.Delete(cf(Family::kPending), key);
  }
  batch.Put(cf(Family::kMeta), meta::kGames, u64_string(games));
  batch.Put(cf(Family::kMeta), meta::kMoves, u64_string(moves));
  batch.Delete(cf(Family::kMeta), meta::kCountProgress);  // made for other games
  if (!index_off_) batch.Delete(cf(Family::kMeta), meta::kPositionIndex);
  rocksdb::WriteOptions wo;
  wo.sync = true;
  auto s = db_->Write(wo, &batch);
  if (!s.ok()) return from_rocks(s, "writing the stored game totals");
  game_count_ = games;
  move_count_ = moves;
  indexed_games_ = ~uint64_t(0);
  return Status::OK();
}

Status PatternDb::has_game(const Fingerprint& fp, bool* found) {
  rocksdb::PinnableSlice v;
  auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kGames),
                    rocksdb::Slice(reinterpret_cast<const char*>(fp.data()), fp.size()), &v);
  *found = s.ok();
  if (s.ok() || s.IsNotFound()) return Status::OK();
  return from_rocks(s, "looking up a game");
}

Status PatternDb::add_games(const std::vector<std::pair<Fingerprint, std::string>>& records, uint64_t moves,
                            const PositionEntries& positions) {
  if (secondary_) return read_only();
  rocksdb::WriteBatch batch;
  for (const auto& [fp, rec] : records) {
    const rocksdb::Slice key(reinterpret_cast<const char*>(fp.data()), fp.size());
    batch.Put(cf(Family::kGames), key, rec);
    batch.Put(cf(Family::kPending), key, "");
  }
  batch.Put(cf(Family::kMeta), meta::kGames, u64_string(game_count_ + records.size()));
  batch.Put(cf(Family::kMeta), meta::kMoves, u64_string(move_count_ + moves));
  // The index stays complete only if these games' entries come with them;
  // the stored "position_index" stays behind until the run is written.
  const bool indexed = has_position_index() && (records.empty() || !positions.empty());
  auto s = db_->Write(rocksdb::WriteOptions(), &batch);
  if (!s.ok()) return from_rocks(s, "storing games");
  game_count_ += records.size();
  move_count_ += moves;
  if (!indexed) return Status::OK();
  // A run written to make room records only the games before these.
  Status st = add_position_entries(positions);
  if (st.ok()) indexed_games_ += records.size();
  return st.ok() ? st : st.with_context("games stored, but their position index entries not");
}

Status PatternDb::find_game(std::string_view prefix, Fingerprint* fp, std::string* record, bool* found) {
  *found = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Family::kGames)));
  const rocksdb::Slice p(prefix.data(), prefix.size());
  it->Seek(p);
  // (Past the key scheme's copy, the one key that is not a fingerprint.)
  while (it->Valid() && it->key().starts_with(p) && it->key().size() != fp->size()) it->Next();
  if (it->Valid() && it->key().starts_with(p) && it->key().size() == fp->size()) {
    std::memcpy(fp->data(), it->key().data(), fp->size());
    record->assign(it->value().data(), it->value().size());
    *found = true;
  }
  return from_rocks(it->status(), "looking up a game");
}

Status PatternDb::get_games(std::span<const Fingerprint> fps, std::vector<std::string>* records) {
  const size_t n = fps.size();
  std::vector<rocksdb::Slice> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = rocksdb::Slice(reinterpret_cast<const char*>(fps[i].data()), fps[i].size());
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> statuses(n);
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  db_->MultiGet(ro, cf(Family::kGames), n, keys.data(), values.data(), statuses.data());
  records->resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (statuses[i].IsNotFound()) return Status::Corruption("a stored game is missing from the games");
    Status s = from_rocks(statuses[i], "reading games");
    if (!s.ok()) return s;
    (*records)[i].assign(values[i].data(), values[i].size());
  }
  return Status::OK();
}

Status PatternDb::for_each_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  return for_each_game(0, 256, visit);
}

Status PatternDb::for_each_game(int first, int last,
                                const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  const std::string lo(1, char(first)), hi(1, char(last));
  const rocksdb::Slice upper(hi);
  if (last < 256) ro.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kGames)));
  for (it->Seek(rocksdb::Slice(lo)); it->Valid(); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    if (!visit(fp, std::string_view(it->value().data(), it->value().size()))) break;
  }
  return from_rocks(it->status(), "reading games");
}

Status PatternDb::pending_count(uint64_t* n) {
  *n = 0;
  if (!has(Family::kPending)) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kPending)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++*n;
  return from_rocks(it->status(), "reading the pending games");
}

Status PatternDb::for_each_pending_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit) {
  if (!has(Family::kPending)) return Status::OK();
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Family::kPending)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Fingerprint fp{};
    if (it->key().size() != fp.size()) continue;
    std::memcpy(fp.data(), it->key().data(), fp.size());
    rocksdb::PinnableSlice rec;
    auto s = db_->Get(rocksdb::ReadOptions(), cf(Family::kGames), it->key(), &rec);
    if (!s.ok())
      return Status::Corruption("a pending game has no stored record: " + s.ToString());
    if (!visit(fp, std::string_view(rec.data(), rec.size()))) break;
  }
  return from_rocks(it->status(), "reading the pending games");
}

}  // namespace sgfpat
